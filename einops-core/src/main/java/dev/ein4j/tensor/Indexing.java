package dev.ein4j.tensor;

import dev.ein4j.error.EinopsException;
import dev.ein4j.ir.DType;
import dev.ein4j.ir.GatherArgument;
import dev.ein4j.ir.Op;
import dev.ein4j.ir.ScatterArgument;
import java.util.Arrays;

/**
 * Reading and writing at positions that data gives: gather, index_select and scatter on the GATHER
 * and SCATTER primitives (an index outside its axis is an {@link dev.ein4j.error.IndexOutOfRangeException}
 * when the kernel runs), masked_fill, cumulative sums by doubling, top-k by repeated selection.
 */
final class Indexing {

    private Indexing() {
    }

    /** PyTorch's gather: out[i] = x[i with coordinate dim replaced by index[i]]; index no larger than x elsewhere. */
    static Tensor gather(Tensor x, int dim, Tensor index) {
        Arguments.notNull(index, "index");
        int axis = Ops.axis(x, dim, "gather");
        requireIndex(x, index, "gather");
        if (index.rank() != x.rank()) {
            throw shapeError(x, index, "gather", "the index needs the input's rank " + x.rank() + ", got " + index.rank());
        }
        int[] starts = new int[x.rank()];
        int[] ends = x.shape();
        for (int d = 0; d < x.rank(); d++) {
            if (d != axis && index.length(d) > x.length(d)) {
                throw shapeError(x, index, "gather", "the index is longer than the input along dimension " + d);
            }
            if (d != axis) {
                ends[d] = index.length(d);
            }
        }
        Tensor source = Arrays.equals(ends, x.shape()) ? x : x.shrink(starts, ends);
        return Ops.apply(Op.GATHER, x.dtype(), index.shape(), new GatherArgument(axis), source, index);
    }

    /** PyTorch's index_select: the slices of x along dim that a 1-D index names, in its order. */
    static Tensor indexSelect(Tensor x, int dim, Tensor index) {
        Arguments.notNull(index, "index");
        int axis = Ops.axis(x, dim, "index_select");
        requireIndex(x, index, "index_select");
        if (index.rank() > 1) {
            throw shapeError(x, index, "index_select", "the index must be 1-D, got rank " + index.rank());
        }
        int count = index.rank() == 0 ? 1 : index.length(0);
        int[] shape = x.shape();
        shape[axis] = count;
        int[] column = new int[x.rank()];
        Arrays.fill(column, 1);
        column[axis] = count;
        Tensor positions = index.reshape(column).expand(shape);
        return Ops.apply(Op.GATHER, x.dtype(), shape, new GatherArgument(axis), x, positions);
    }

    /** PyTorch's scatter / scatter_add: x with src written (or added) at index's positions along dim. */
    static Tensor scatter(Tensor x, int dim, Tensor index, Tensor src, boolean accumulate) {
        Arguments.notNull(index, "index");
        Arguments.notNull(src, "src");
        String operation = accumulate ? "scatter_add" : "scatter";
        int axis = Ops.axis(x, dim, operation);
        requireIndex(x, index, operation);
        if (index.rank() != x.rank() || src.rank() != x.rank()) {
            throw shapeError(x, index, operation, "the index and src need the input's rank " + x.rank());
        }
        int[] starts = new int[x.rank()];
        int[] ends = index.shape();
        for (int d = 0; d < x.rank(); d++) {
            if (index.length(d) > src.length(d)) {
                throw shapeError(x, index, operation, "the index is longer than src along dimension " + d);
            }
            if (d != axis && index.length(d) != x.length(d)) {
                throw shapeError(x, index, operation, "the index must cover the input's dimension " + d + " whole (length "
                        + x.length(d) + "), got " + index.length(d));
            }
        }
        Tensor values = Arrays.equals(src.shape(), ends) ? src : src.shrink(starts, ends);
        values = Ops.cast(values, x.dtype());
        return Ops.apply(Op.SCATTER, x.dtype(), x.shape(), new ScatterArgument(axis, accumulate), x, index, values);
    }

    /**
     * PyTorch's masked_fill (torch.masked_fill, not the in-place masked_fill_): value where the mask
     * is true, x elsewhere, the two broadcast together. The value is converted to x's type as PyTorch
     * converts it: truncated toward zero for int32, "≠ 0" for bool; one the type cannot hold is an error.
     */
    static Tensor maskedFill(Tensor x, Tensor mask, double value) {
        Arguments.notNull(mask, "mask");
        if (mask.dtype() != DType.BOOL) {
            throw shapeError(x, mask, "masked_fill", "the mask must be bool, got " + mask.dtype().numpyName());
        }
        Ops.broadcastShapes("masked_fill", x.shape(), mask.shape());
        return Elementwise.where(mask, Ops.constant(fillValue(x.dtype(), value), x.dtype(), new int[0]), x);
    }

    private static double fillValue(DType dtype, double value) {
        boolean fits = switch (dtype) {
            case FLOAT32 -> !Double.isFinite(value) || Math.abs(value) <= Float.MAX_VALUE;
            case INT32 -> value >= Integer.MIN_VALUE && value <= Integer.MAX_VALUE; // false for NaN
            default -> true;
        };
        if (!fits) {
            throw new EinopsException("masked_fill: the value " + value + " cannot be converted to "
                    + dtype.numpyName() + " without overflow");
        }
        return switch (dtype) {
            case INT32 -> (int) value;
            case BOOL -> value != 0 ? 1 : 0; // NaN counts as true, as a C++ bool conversion
            default -> value;
        };
    }

    /**
     * Cumulative sums along dim by doubling: ⌈log₂ n⌉ steps of {@code y ← y + y shifted by s},
     * s = 1, 2, 4, ...; each step is a view (a shrink and a pad) and an addition, so the gradient
     * follows from theirs. Bools sum as int32, as PyTorch's (which widens to int64).
     */
    static Tensor cumsum(Tensor x, int dim) {
        int axis = Ops.axis(x, dim, "cumsum");
        Tensor y = x.dtype() == DType.BOOL ? Ops.cast(x, DType.INT32) : x;
        int length = x.length(axis);
        int[] starts = new int[x.rank()];
        int[] before = new int[x.rank()];
        int[] after = new int[x.rank()];
        for (int shift = 1; shift < length; shift *= 2) {
            int[] ends = y.shape();
            ends[axis] = length - shift;
            before[axis] = shift;
            y = y.add(y.shrink(starts, ends).pad(before, after, 0.0));
        }
        return y;
    }

    /**
     * The k largest (or smallest) values along dim and their int32 positions, largest first: k rounds
     * of selection, O(k·n). Ties go to the first position (PyTorch leaves their order unspecified);
     * NaN ranks above every number, as in PyTorch: first among the largest, last among the smallest.
     */
    static TopK topk(Tensor x, int k, int dim, boolean largest) {
        int axis = Ops.axis(x, dim, "topk");
        int length = x.length(axis);
        if (k < 0 || k > length) {
            throw Ops.error(x, "topk", "k = " + k + " is out of range for dimension " + axis + " of length " + length);
        }
        if (k == 0) {
            int[] empty = x.shape();
            empty[axis] = 0;
            return new TopK(Tensor.zeros(x.dtype(), empty), Tensor.zeros(DType.INT32, empty));
        }
        Tensor numbers = Ops.cast(x, DType.FLOAT64).detach();
        Tensor nan = Elementwise.isNaN(numbers);
        Tensor key = Elementwise.where(nan, Ops.scalarFor(numbers, 0), largest ? numbers : Elementwise.neg(numbers));
        // A position is chosen by class first (NaN's class above or below the numbers'), then by key. A
        // taken position drops to a class of its own below both, rather than to a key of −∞, so that a
        // real −∞ is still told apart from what was taken.
        Tensor rank = Elementwise.where(nan, Tensor.scalar(largest ? 2 : 0, DType.INT32), Tensor.scalar(1, DType.INT32));
        int[] one = x.shape();
        one[axis] = 1;
        Tensor taken = Tensor.full(-1, DType.INT32, one);
        Tensor[] values = new Tensor[k];
        Tensor[] indices = new Tensor[k];
        for (int j = 0; j < k; j++) {
            indices[j] = firstBest(rank, key, axis);
            values[j] = gather(x, axis, indices[j]);
            if (j + 1 < k) {
                rank = scatter(rank, axis, indices[j], taken, false);
            }
        }
        return new TopK(Tensor.concat(axis, values), Tensor.concat(axis, indices));
    }

    /** The first position along the axis of the highest rank and, among those, of the largest key (kept as length 1). */
    private static Tensor firstBest(Tensor rank, Tensor key, int axis) {
        int[] along = {axis};
        Tensor inClass = Elementwise.eq(rank, Ops.reduce(rank, Op.REDUCE_MAX, along));
        Tensor candidates = Elementwise.where(inClass, key, Ops.scalarFor(key, Double.NEGATIVE_INFINITY));
        Tensor best = Elementwise.logicalAnd(inClass, Elementwise.eq(candidates, Ops.reduce(candidates, Op.REDUCE_MAX, along)));
        return Reductions.argExtreme(best, axis, true, true);
    }

    private static void requireIndex(Tensor x, Tensor index, String operation) {
        if (index.dtype() != DType.INT32) {
            throw shapeError(x, index, operation, "indices must be int32, got " + index.dtype().numpyName());
        }
    }

    private static EinopsException shapeError(Tensor x, Tensor other, String operation, String reason) {
        return new dev.ein4j.error.ShapeException(operation, java.util.List.of(dev.ein4j.ir.Shapes.toLong(x.shape()),
                dev.ein4j.ir.Shapes.toLong(other.shape())), reason);
    }
}
