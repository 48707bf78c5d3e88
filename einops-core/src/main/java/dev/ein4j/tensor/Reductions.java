package dev.ein4j.tensor;

import dev.ein4j.ir.DType;
import dev.ein4j.ir.Node;
import dev.ein4j.ir.Op;
import java.util.Arrays;

/** Reductions over axes (kept as length 1 or removed), and the functions built on them. */
final class Reductions {

    private Reductions() {
    }

    /**
     * Any reduction: sum, mean, max, min, prod. Sums and products of bool tensors count in int32
     * (PyTorch and numpy count too); the mean of an int32 or bool tensor is float32.
     */
    static Tensor reduce(Tensor x, Reduction reduction, int[] axes, boolean keepDim) {
        Arguments.notNull(reduction, "reduction");
        int[] sorted = Ops.axes(x, axes, reduction.label());
        Tensor kept = switch (reduction) {
            case SUM -> Ops.reduce(countable(x), Op.SUM, sorted);
            case PROD -> Ops.reduce(countable(x), Op.PROD, sorted);
            case MAX -> savedForGradient(Ops.reduce(nonEmpty(x, sorted, "max"), Op.REDUCE_MAX, sorted));
            case MIN -> Elementwise.reversed(savedForGradient(Ops.reduce(Elementwise.reversed(nonEmpty(x, sorted, "min")),
                    Op.REDUCE_MAX, sorted)));
            case MEAN -> {
                long count = count(x, sorted);
                yield Ops.reduce(Ops.floating(x), Op.SUM, sorted).mul(count == 0 ? Double.NaN : 1.0 / count);
            }
        };
        return keepDim ? kept : dropAxes(kept, sorted);
    }

    /**
     * A max that gradients flow through is kept once computed (as PyTorch saves it): its gradient
     * compares the input with it, and recomputing it there would read the whole input again (a
     * max pool's input is four times its output). Released with the tensor, as any result.
     */
    private static Tensor savedForGradient(Tensor max) {
        if (max.requiresGrad()) {
            dev.ein4j.runtime.Lifetimes.keepOnFirstUse(max.node());
        }
        return max;
    }

    /** Sums and products of bool count in int32 (numpy's and PyTorch's rule). */
    static Tensor countable(Tensor x) {
        return x.dtype() == DType.BOOL ? x.cast(DType.INT32) : x;
    }

    static long count(Tensor x, int[] axes) {
        long count = 1;
        for (int axis : axes) {
            count *= x.length(axis);
        }
        return count;
    }

    /** max and min (and argmax, argmin) have no value over an empty axis: an error, as numpy and PyTorch. */
    private static Tensor nonEmpty(Tensor x, int[] axes, String operation) {
        for (int axis : axes) {
            if (x.length(axis) == 0) {
                throw Ops.error(x, operation, operation + " over axis " + axis + " of length 0 has no identity: "
                        + "reduce over a non-empty axis");
            }
        }
        return x;
    }

    static Tensor dropAxes(Tensor kept, int[] sortedAxes) {
        if (sortedAxes.length == 0) {
            return kept;
        }
        int[] shape = kept.shape();
        int[] remaining = java.util.stream.IntStream.range(0, shape.length)
                .filter(k -> Arrays.binarySearch(sortedAxes, k) < 0).map(k -> shape[k]).toArray();
        return kept.reshape(remaining);
    }

    /** Σ(x − mean)² / (n − correction), two passes (no cancellation). */
    static Tensor variance(Tensor x, int[] axes, double correction, boolean keepDim) {
        Tensor f = Ops.floating(x);
        int[] sorted = Ops.axes(f, axes, "var");
        Tensor mean = reduce(f, Reduction.MEAN, sorted, true);
        Tensor centered = f.sub(mean);
        Tensor sumOfSquares = Ops.reduce(centered.mul(centered), Op.SUM, sorted);
        double divisor = Math.max(0, count(f, sorted) - correction);
        Tensor result = sumOfSquares.div(Tensor.scalar(divisor, f.dtype()));
        return keepDim ? result : dropAxes(result, sorted);
    }

    /**
     * ln Σ eˣ as m + ln Σ e^(x − m), m the maximum held constant (it cancels from the gradient,
     * which is softmax). An infinite maximum is replaced by 0, so a slice of −∞ gives −∞, not NaN.
     */
    static Tensor logSumExp(Tensor x, int[] axes, boolean keepDim) {
        Tensor f = Ops.floating(x);
        int[] sorted = Ops.axes(f, axes, "logsumexp");
        Tensor shift = finiteShift(f, sorted);
        Tensor sum = Ops.reduce(Ops.unary(Op.EXP, f.sub(shift)), Op.SUM, sorted);
        Tensor result = Ops.unary(Op.LOG, sum).add(shift);
        return keepDim ? result : dropAxes(result, sorted);
    }

    /** e^(x − m) / Σ e^(x − m) over one axis, m the maximum held constant. */
    static Tensor softmax(Tensor x, int axis) {
        Tensor f = Ops.floating(x);
        int[] one = {Ops.axis(f, axis, "softmax")};
        Tensor shifted = Ops.unary(Op.EXP, f.sub(maxShift(f, one)));
        return shifted.div(Ops.reduce(shifted, Op.SUM, one));
    }

    /** x − m − ln Σ e^(x − m) over one axis. */
    static Tensor logSoftmax(Tensor x, int axis) {
        Tensor f = Ops.floating(x);
        int[] one = {Ops.axis(f, axis, "log_softmax")};
        Tensor centered = f.sub(maxShift(f, one));
        Tensor logSum = Ops.unary(Op.LOG, Ops.reduce(Ops.unary(Op.EXP, centered), Op.SUM, one));
        return centered.sub(logSum);
    }

    /** The maximum over the axes (kept), detached: a shift that changes no value and no gradient. */
    private static Tensor maxShift(Tensor f, int[] axes) {
        nonEmpty(f, axes, "softmax");
        return detach(Ops.reduce(f, Op.REDUCE_MAX, axes));
    }

    private static Tensor finiteShift(Tensor f, int[] axes) {
        Tensor max = maxShift(f, axes);
        return Elementwise.where(Elementwise.isInf(max), Ops.scalarFor(max, 0), max);
    }

    private static Tensor detach(Tensor x) {
        return Ops.apply(Op.DETACH, x.dtype(), x.shape(), null, x);
    }

    /**
     * The index of the largest (smallest) element along an axis, int32, the first one on ties; a
     * NaN counts as the largest (and the smallest), as in PyTorch.
     */
    static Tensor argExtreme(Tensor x, int axis, boolean keepDim, boolean largest) {
        String name = largest ? "argmax" : "argmin";
        int dimension = Ops.axis(x, axis, name);
        nonEmpty(x, new int[] {dimension}, name);
        Tensor values = x.dtype() == DType.BOOL ? x.cast(DType.INT32) : x;
        Tensor oriented = largest ? values : Elementwise.reversed(values);
        Tensor extreme = Ops.reduce(oriented, Op.REDUCE_MAX, new int[] {dimension});
        Tensor hit = Elementwise.logicalOr(Elementwise.eq(oriented, extreme), Elementwise.isNaN(oriented));
        int length = x.length(dimension);
        int[] indexShape = new int[x.rank()];
        Arrays.fill(indexShape, 1);
        indexShape[dimension] = length;
        Tensor index = Creation.arange(DType.INT32, 0, length, 1).reshape(indexShape);
        Tensor candidates = Elementwise.where(hit, index, Tensor.scalar(length, DType.INT32));
        Tensor first = Elementwise.neg(Ops.reduce(Elementwise.neg(candidates), Op.REDUCE_MAX, new int[] {dimension}));
        return keepDim ? first : dropAxes(first, new int[] {dimension});
    }
}
