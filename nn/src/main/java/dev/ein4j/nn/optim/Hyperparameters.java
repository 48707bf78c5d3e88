package dev.ein4j.nn.optim;

import dev.ein4j.error.EinopsException;

/** Range checks of optimizer settings, at the call that sets them. */
final class Hyperparameters {

    private Hyperparameters() {
    }

    static double positive(double value, String name) {
        if (!(value > 0) || !Double.isFinite(value)) {
            throw new EinopsException(name + " must be positive and finite, got " + value);
        }
        return value;
    }

    static double nonNegative(double value, String name) {
        if (!(value >= 0) || !Double.isFinite(value)) {
            throw new EinopsException(name + " must be finite and not negative, got " + value);
        }
        return value;
    }

    static double fraction(double value, String name) {
        if (!(value >= 0 && value < 1)) {
            throw new EinopsException(name + " must be in [0, 1), got " + value);
        }
        return value;
    }
}
