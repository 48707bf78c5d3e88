package dev.ein4j.nn;

import dev.ein4j.error.EinopsException;
import dev.ein4j.tensor.Generator;
import dev.ein4j.tensor.Tensor;
import dev.ein4j.tensor.internal.TensorInternals;

/** Dropout: a counter-based uniform mask, so a seed reproduces it on every backend. */
final class Dropouts {

    private Dropouts() {
    }

    static void checkProbability(double probability) {
        if (!(probability >= 0 && probability < 1)) {
            throw new EinopsException("dropout probability must be in [0, 1), got " + probability);
        }
    }

    /** x · [u ≥ p] / (1 − p), u uniform in [0, 1) per element; x itself when not training or p = 0. */
    static Tensor dropout(Tensor x, double probability, boolean training, Generator generator) {
        Checks.notNull(x, "x");
        Checks.notNull(generator, "generator");
        checkProbability(probability);
        if (!training || probability == 0) {
            return x;
        }
        // a mask drawn inside the kernel that applies it (never a buffer of its own)
        Tensor keep = TensorInternals.uniformOnce(generator, x.dtype(), x.shape()).ge(probability);
        return Tensor.where(keep, x, Tensor.scalar(0.0, x.dtype())).mul(1.0 / (1.0 - probability));
    }
}
