package dev.ein4j.cpu.tile;

import dev.ein4j.ir.DType;
import dev.ein4j.ir.Op;
import dev.ein4j.ir.Shapes;
import dev.ein4j.kernel.Arithmetic;
import java.util.Arrays;

/**
 * One task's running SUM, REDUCE_MAX or PROD per output element: float sums and products in
 * double, float maxima in double too (exact for float32), integers and bools in 64-bit integers
 * that wrap once at the end.
 */
final class Accumulator {

    private final Op op;
    private final DType type;
    private final TileOps ops;
    private final double[] floats;
    private final long[] integers;

    Accumulator(Op op, DType type, int count, TileOps ops) {
        this.op = op;
        this.type = type;
        this.ops = ops;
        if (type.isFloating()) {
            floats = (double[]) TileArena.SHARED.take(DType.FLOAT64, count); // a large reduction's are megabytes
            integers = null;
            Arrays.fill(floats, Arithmetic.identity(op));
        } else {
            floats = null;
            integers = new long[count];
            Arrays.fill(integers, Arithmetic.integerIdentity(op, type));
        }
    }

    /**
     * Adds tile[offset .. offset + length) to the accumulators target, target + stride, ... (stride
     * 0: all into one).
     */
    void add(Object tile, int offset, int length, int target, int stride) {
        if (floats != null && stride == 0) {
            floats[target] = fold(tile, offset, length, floats[target]);
            return;
        }
        if (floats != null && tile instanceof float[] f) {
            addFloats(f, offset, length, target, stride);
            return;
        }
        for (int j = offset; j < offset + length; j++, target += stride) {
            if (floats != null) {
                double x = Tiles.get(tile, j);
                double acc = floats[target];
                floats[target] = op == Op.SUM ? acc + x : op == Op.PROD ? acc * x : Arithmetic.max(acc, x);
            } else {
                long x = (long) Tiles.get(tile, j);
                long acc = integers[target];
                integers[target] = op == Op.SUM ? acc + x : op == Op.PROD ? acc * x : Math.max(acc, x);
            }
        }
    }

    /**
     * Adds whole rows of a tile, or of an input read in place: row r (of {@code length} elements,
     * from {@code from + r·length}) to the accumulators from bases[first + r] + start·stride on, by stride.
     */
    void addRows(Object tile, int from, int rows, int length, long[] bases, int first, int start, int stride) {
        if (floats != null && stride != 0 && tile instanceof float[] f) {
            for (int r = 0; r < rows; r++) {
                addFloats(f, from + r * length, length, (int) (bases[first + r] + (long) start * stride), stride);
            }
            return;
        }
        for (int r = 0; r < rows; r++) {
            add(tile, from + r * length, length, (int) (bases[first + r] + (long) start * stride), stride);
        }
    }

    /** A float tile into accumulators target, target + stride, ...: one tight loop per operation. */
    private void addFloats(float[] tile, int offset, int length, int target, int stride) {
        double[] acc = floats;
        int end = offset + length;
        switch (op) {
            case SUM -> {
                for (int j = offset; j < end; j++, target += stride) {
                    acc[target] += tile[j];
                }
            }
            case PROD -> {
                for (int j = offset; j < end; j++, target += stride) {
                    acc[target] *= tile[j];
                }
            }
            default -> {
                for (int j = offset; j < end; j++, target += stride) {
                    acc[target] = Arithmetic.max(acc[target], tile[j]);
                }
            }
        }
    }

    /** A whole tile into one accumulator, vectorized for sums and maxima. */
    private double fold(Object tile, int offset, int length, double acc) {
        if (op == Op.SUM && tile instanceof float[] f) {
            return acc + ops.sum(f, offset, length);
        }
        if (op == Op.SUM && tile instanceof double[] d) {
            return acc + ops.sum(d, offset, length);
        }
        if (op == Op.REDUCE_MAX && tile instanceof float[] f) {
            return Arithmetic.max(acc, ops.max(f, offset, length, Float.NEGATIVE_INFINITY));
        }
        if (op == Op.REDUCE_MAX && tile instanceof double[] d) {
            return Arithmetic.max(acc, ops.max(d, offset, length, Double.NEGATIVE_INFINITY));
        }
        for (int j = offset; j < offset + length; j++) {
            double x = Tiles.get(tile, j);
            acc = op == Op.SUM ? acc + x : op == Op.PROD ? acc * x : Arithmetic.max(acc, x);
        }
        return acc;
    }

    /** @return this accumulator with another task's partial results folded in */
    Accumulator combine(Accumulator other) {
        for (int i = 0; floats != null && i < floats.length; i++) {
            floats[i] = op == Op.SUM ? floats[i] + other.floats[i] : op == Op.PROD ? floats[i] * other.floats[i]
                    : Arithmetic.max(floats[i], other.floats[i]);
        }
        for (int i = 0; integers != null && i < integers.length; i++) {
            integers[i] = op == Op.SUM ? integers[i] + other.integers[i] : op == Op.PROD ? integers[i] * other.integers[i]
                    : Math.max(integers[i], other.integers[i]);
        }
        return this;
    }

    /** Gives the running values back to the arena; the accumulator is not used afterwards. */
    void release() {
        if (floats != null) {
            TileArena.SHARED.give(DType.FLOAT64, floats);
        }
    }

    /**
     * @return the results rounded to the reduction's type, as a tile-typed array from the arena
     *     (given back by the caller with {@link TileKernels})
     */
    Object results(DType result) {
        int count = floats != null ? floats.length : integers.length;
        Object values = TileArena.SHARED.take(result, count);
        resultsInto(values, result, 0, count);
        return values;
    }

    /** Writes the results at positions [from, from + count), rounded to the reduction's type, into values (tile-typed) at the same positions. */
    void resultsInto(Object values, DType result, int from, int count) {
        for (int i = from; i < from + count; i++) {
            double value = floats != null ? floats[i] : (int) integers[i];
            Tiles.set(values, i, result.round(value));
        }
    }

    /**
     * @param shape a reduction's source shape
     * @param axes the reduced axes
     * @return the accumulator index of each source position: the reduced shape's row-major strides, 0 along the axes
     */
    static long[] strides(int[] shape, int[] axes) {
        int[] reduced = shape.clone();
        for (int axis : axes) {
            reduced[axis] = 1;
        }
        long[] strides = Shapes.contiguousStrides(reduced);
        for (int axis : axes) {
            strides[axis] = 0;
        }
        return strides;
    }
}
