package dev.ein4j.nn;

import dev.ein4j.ir.DType;
import dev.ein4j.tensor.Tensor;

/**
 * ReLU6, hardswish and hardsigmoid: piecewise functions written as {@code where} over comparisons,
 * so that the branch chosen at each kink is the one whose derivative PyTorch returns there, and NaN
 * (which fails every comparison) falls through to a branch that propagates it.
 */
final class PiecewiseActivations {

    /**
     * PyTorch's hardsigmoid backward multiplies by the float constant 1/6 in every dtype, so its
     * float64 gradient is 0.1666666716337204, not 1/6; the float64 form reproduces that.
     */
    private static final double FLOAT_ONE_SIXTH = (float) (1.0 / 6.0);

    private PiecewiseActivations() {
    }

    /** min(max(x, 0), 6): gradient 1 on (0, 6) and 0 at 0 and 6, as PyTorch's hardtanh. */
    static Tensor relu6(Tensor x) {
        Tensor f = floating(x, "relu6");
        Tensor zero = Tensor.scalar(0.0, f.dtype());
        Tensor six = Tensor.scalar(6.0, f.dtype());
        return Tensor.where(f.le(0.0), zero, Tensor.where(f.ge(6.0), six, f));
    }

    /**
     * x·min(max(x + 3, 0), 6)/6: x·0 for x ≤ −3 (so −0 for negative x and NaN at −∞, as PyTorch),
     * x(x + 3)/6 on (−3, 3) with derivative x/3 + ½, x from 3 on; PyTorch's gradient is 0 at −3
     * and 1 at 3.
     */
    static Tensor hardswish(Tensor x) {
        Tensor f = floating(x, "hardswish");
        Tensor middle = f.mul(f.add(3.0)).div(6.0);
        return Tensor.where(f.le(-3.0), f.mul(0.0), Tensor.where(f.lt(3.0), middle, f));
    }

    /** min(max(x + 3, 0), 6)/6: gradient 1/6 strictly inside (−3, 3), 0 at ±3 and outside. */
    static Tensor hardsigmoid(Tensor x) {
        Tensor f = floating(x, "hardsigmoid");
        Tensor middle = f.add(3.0).div(6.0);
        if (f.dtype() == DType.FLOAT64) {
            // the value (x + 3)/6 (up to a rounding), the derivative PyTorch's float 1/6
            Tensor slope = f.mul(FLOAT_ONE_SIXTH);
            middle = slope.add(middle.sub(slope).detach());
        }
        Tensor zero = Tensor.scalar(0.0, f.dtype());
        Tensor one = Tensor.scalar(1.0, f.dtype());
        return Tensor.where(f.le(-3.0), zero, Tensor.where(f.ge(3.0), one, middle));
    }

    private static Tensor floating(Tensor x, String operation) {
        Checks.notNull(x, "x");
        if (!x.dtype().isFloating()) {
            throw Checks.shapeError(operation, "the input must be floating, got " + x.dtype().numpyName(), x);
        }
        return x;
    }
}
