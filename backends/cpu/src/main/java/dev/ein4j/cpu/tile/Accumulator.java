package dev.ein4j.cpu.tile;

import dev.ein4j.ir.DType;
import dev.ein4j.ir.Op;
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
            floats = new double[count];
            integers = null;
            Arrays.fill(floats, Arithmetic.identity(op));
        } else {
            floats = null;
            integers = new long[count];
            Arrays.fill(integers, Arithmetic.integerIdentity(op, type));
        }
    }

    /** Adds a tile's values to targets target, target + stride, ... (stride 0: all into one). */
    void add(Object tile, int length, int target, int stride) {
        if (floats != null && stride == 0) {
            floats[target] = fold(tile, length, floats[target]);
            return;
        }
        for (int j = 0; j < length; j++, target += stride) {
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

    /** A whole tile into one accumulator, vectorized for sums and maxima. */
    private double fold(Object tile, int length, double acc) {
        if (op == Op.SUM && tile instanceof float[] f) {
            return acc + ops.sum(f, length);
        }
        if (op == Op.SUM && tile instanceof double[] d) {
            return acc + ops.sum(d, length);
        }
        if (op == Op.REDUCE_MAX && tile instanceof float[] f) {
            return Arithmetic.max(acc, ops.max(f, length, Float.NEGATIVE_INFINITY));
        }
        if (op == Op.REDUCE_MAX && tile instanceof double[] d) {
            return Arithmetic.max(acc, ops.max(d, length, Double.NEGATIVE_INFINITY));
        }
        for (int j = 0; j < length; j++) {
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

    /** @return the results rounded to the reduction's type, as a tile-typed array */
    Object results(DType result) {
        int count = floats != null ? floats.length : integers.length;
        Object values = Tiles.allocate(result, count);
        for (int i = 0; i < count; i++) {
            double value = floats != null ? floats[i] : (int) integers[i];
            Tiles.set(values, i, result.round(value));
        }
        return values;
    }
}
