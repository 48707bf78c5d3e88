package dev.ein4j.cpu.tile;

import dev.ein4j.ir.Op;
import jdk.incubator.vector.ByteVector;
import jdk.incubator.vector.DoubleVector;
import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorMask;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorSpecies;

/**
 * {@link TileOps} with the Vector API at the machine's preferred width. Loaded reflectively by
 * {@link TileOps#get()}, so nothing else refers to {@code jdk.incubator.vector}; the tail of each
 * tile (fewer elements than a vector) runs scalar.
 */
final class VectorTileOps implements TileOps {

    private static final VectorSpecies<Float> F = FloatVector.SPECIES_PREFERRED;
    private static final VectorSpecies<Double> D = DoubleVector.SPECIES_PREFERRED;
    private static final VectorSpecies<Byte> B = ByteVector.SPECIES_PREFERRED;
    /**
     * Whether bool tiles convert to and from bytes with byte vectors: JDK 17's C2 does not intrinsify
     * those masks (2.5 KB allocated per 2048-element call, slower than the plain loop; JDK 17.0.15),
     * JDK 25's does (30x the plain loop); releases between are taken to behave as 25.
     */
    private static final boolean BYTE_MASKS = Runtime.version().feature() > 17;
    private final ScalarTileOps tail = new ScalarTileOps();

    @Override
    public String kind() {
        return "vector";
    }

    @Override
    public void add(float[] x, int xFrom, float[] y, int yFrom, float[] out, int n) {
        int i = 0;
        for (int bound = F.loopBound(n); i < bound; i += F.length()) {
            FloatVector.fromArray(F, x, xFrom + i).add(FloatVector.fromArray(F, y, yFrom + i)).intoArray(out, i);
        }
        for (; i < n; i++) {
            out[i] = x[xFrom + i] + y[yFrom + i];
        }
    }

    @Override
    public void mul(float[] x, int xFrom, float[] y, int yFrom, float[] out, int n) {
        int i = 0;
        for (int bound = F.loopBound(n); i < bound; i += F.length()) {
            FloatVector.fromArray(F, x, xFrom + i).mul(FloatVector.fromArray(F, y, yFrom + i)).intoArray(out, i);
        }
        for (; i < n; i++) {
            out[i] = x[xFrom + i] * y[yFrom + i];
        }
    }

    @Override
    public void max(float[] x, int xFrom, float[] y, int yFrom, float[] out, int n) {
        int i = 0;
        for (int bound = F.loopBound(n); i < bound; i += F.length()) {
            FloatVector.fromArray(F, x, xFrom + i).max(FloatVector.fromArray(F, y, yFrom + i)).intoArray(out, i);
        }
        for (; i < n; i++) {
            out[i] = Math.max(x[xFrom + i], y[yFrom + i]);
        }
    }

    @Override
    public void lessThan(float[] x, int xFrom, float[] y, int yFrom, boolean[] out, int n) {
        // vector compares into boolean[]: 10x a plain loop on JDK 25, 2x on JDK 17.0.15 (2048 elements,
        // AMD EPYC; the plain loop was kept earlier for a JDK 17 whose mask stores were not intrinsified)
        int i = 0;
        for (int bound = F.loopBound(n); i < bound; i += F.length()) {
            FloatVector.fromArray(F, x, xFrom + i).compare(VectorOperators.LT, FloatVector.fromArray(F, y, yFrom + i)).intoArray(out, i);
        }
        for (; i < n; i++) {
            out[i] = x[xFrom + i] < y[yFrom + i];
        }
    }

    @Override
    public void lessOrEqual(float[] x, int xFrom, float[] y, int yFrom, boolean[] out, int n) {
        // a vector compare, as in lessThan(float[], ...); LE is false for NaN, as the scalar <=
        int i = 0;
        for (int bound = F.loopBound(n); i < bound; i += F.length()) {
            FloatVector.fromArray(F, x, xFrom + i).compare(VectorOperators.LE, FloatVector.fromArray(F, y, yFrom + i)).intoArray(out, i);
        }
        for (; i < n; i++) {
            out[i] = x[xFrom + i] <= y[yFrom + i];
        }
    }

    @Override
    public void equal(float[] x, int xFrom, float[] y, int yFrom, boolean[] out, int n) {
        // a vector compare, as in lessThan(float[], ...)
        int i = 0;
        for (int bound = F.loopBound(n); i < bound; i += F.length()) {
            FloatVector.fromArray(F, x, xFrom + i).compare(VectorOperators.EQ, FloatVector.fromArray(F, y, yFrom + i)).intoArray(out, i);
        }
        for (; i < n; i++) {
            out[i] = x[xFrom + i] == y[yFrom + i];
        }
    }

    @Override
    public void toBooleans(byte[] source, int from, boolean[] out, int to, int n) {
        int j = 0;
        for (int bound = BYTE_MASKS ? B.loopBound(n) : 0; j < bound; j += B.length()) {
            ByteVector.fromArray(B, source, from + j).compare(VectorOperators.NE, (byte) 0).intoArray(out, to + j);
        }
        tail.toBooleans(source, from + j, out, to + j, n - j);
    }

    @Override
    public void toBytes(boolean[] tile, int from, byte[] target, int at, int n) {
        ByteVector zero = ByteVector.zero(B);
        int j = 0;
        for (int bound = BYTE_MASKS ? B.loopBound(n) : 0; j < bound; j += B.length()) {
            zero.blend((byte) 1, VectorMask.fromArray(B, tile, from + j)).intoArray(target, at + j);
        }
        tail.toBytes(tile, from + j, target, at + j, n - j);
    }

    @Override
    public void fromBool(boolean[] x, float[] out, int n) {
        FloatVector one = FloatVector.broadcast(F, 1f);
        FloatVector zero = FloatVector.zero(F);
        int i = 0;
        for (int bound = F.loopBound(n); i < bound; i += F.length()) {
            zero.blend(one, VectorMask.fromArray(F, x, i)).intoArray(out, i);
        }
        for (; i < n; i++) {
            out[i] = x[i] ? 1f : 0f;
        }
    }

    @Override
    public void where(boolean[] condition, float[] x, float[] y, float[] out, int n) {
        int i = 0;
        for (int bound = F.loopBound(n); i < bound; i += F.length()) {
            VectorMask<Float> mask = VectorMask.fromArray(F, condition, i);
            FloatVector.fromArray(F, y, i).blend(FloatVector.fromArray(F, x, i), mask).intoArray(out, i);
        }
        for (; i < n; i++) {
            out[i] = condition[i] ? x[i] : y[i];
        }
    }

    @Override
    public void unary(Op op, float[] x, float[] out, int n) {
        int bound = F.loopBound(n);
        // one loop per operator: the JIT compiles lanewise(op) to vector instructions only for a
        // constant op (a variable one ran each lane through double math in Java, 15% of an Adam step)
        int i = switch (op) {
            case RECIPROCAL -> reciprocal(x, out, bound);
            case EXP -> exp(x, out, bound);
            case SQRT -> sqrt(x, out, bound);
            case LOG -> log(x, out, bound);
            case SIN -> sin(x, out, bound);
            default -> 0;
        };
        tail.unary(op, x, out, i, n);
    }

    private static int reciprocal(float[] x, float[] out, int bound) {
        FloatVector one = FloatVector.broadcast(F, 1f);
        int i = 0;
        for (; i < bound; i += F.length()) {
            one.div(FloatVector.fromArray(F, x, i)).intoArray(out, i);
        }
        return i;
    }

    private static int sqrt(float[] x, float[] out, int bound) {
        int i = 0;
        for (; i < bound; i += F.length()) {
            FloatVector.fromArray(F, x, i).lanewise(VectorOperators.SQRT).intoArray(out, i);
        }
        return i;
    }

    private static int log(float[] x, float[] out, int bound) {
        int i = 0;
        for (; i < bound; i += F.length()) {
            FloatVector.fromArray(F, x, i).lanewise(VectorOperators.LOG).intoArray(out, i);
        }
        return i;
    }

    private static int sin(float[] x, float[] out, int bound) {
        int i = 0;
        for (; i < bound; i += F.length()) {
            FloatVector.fromArray(F, x, i).lanewise(VectorOperators.SIN).intoArray(out, i);
        }
        return i;
    }

    /**
     * out[0, bound) = e^x, whole vectors. A method of its own so that the JIT inlines
     * {@link VectorExp#exp} into this loop: inside the larger {@code unary} it was called out of
     * line on JDK 17, its vectors boxed and its lane reinterpretations run in Java (3x slower).
     *
     * @return bound
     */
    private static int exp(float[] x, float[] out, int bound) {
        int i = 0;
        for (; i < bound; i += F.length()) {
            VectorExp.exp(FloatVector.fromArray(F, x, i)).intoArray(out, i);
        }
        return i;
    }

    @Override
    public double sum(float[] x, int offset, int n) {
        // float lanes over one tile (a few thousand elements), then double: blocked summation
        FloatVector acc = FloatVector.zero(F);
        int i = 0;
        for (int bound = F.loopBound(n); i < bound; i += F.length()) {
            acc = acc.add(FloatVector.fromArray(F, x, offset + i));
        }
        double total = 0;
        float[] lanes = acc.toArray();
        for (float lane : lanes) {
            total += lane;
        }
        for (; i < n; i++) {
            total += x[offset + i];
        }
        return total;
    }

    @Override
    public float max(float[] x, int offset, int n, float initial) {
        // four running maxima: one chain waits on each max's latency (Math.max semantics take several
        // instructions), four keep the loop at load speed; the maximum is the same in any order
        FloatVector acc = FloatVector.broadcast(F, initial);
        FloatVector acc1 = acc;
        FloatVector acc2 = acc;
        FloatVector acc3 = acc;
        int i = 0;
        int step = F.length();
        for (int bound = n - 4 * step; i <= bound; i += 4 * step) {
            acc = acc.max(FloatVector.fromArray(F, x, offset + i));
            acc1 = acc1.max(FloatVector.fromArray(F, x, offset + i + step));
            acc2 = acc2.max(FloatVector.fromArray(F, x, offset + i + 2 * step));
            acc3 = acc3.max(FloatVector.fromArray(F, x, offset + i + 3 * step));
        }
        for (int bound = F.loopBound(n); i < bound; i += step) {
            acc = acc.max(FloatVector.fromArray(F, x, offset + i));
        }
        acc = acc.max(acc1).max(acc2.max(acc3));
        float m = initial;
        for (float lane : acc.toArray()) {
            m = Math.max(m, lane);
        }
        for (; i < n; i++) {
            m = Math.max(m, x[offset + i]);
        }
        return m;
    }

    @Override
    public void add(double[] x, int xFrom, double[] y, int yFrom, double[] out, int n) {
        int i = 0;
        for (int bound = D.loopBound(n); i < bound; i += D.length()) {
            DoubleVector.fromArray(D, x, xFrom + i).add(DoubleVector.fromArray(D, y, yFrom + i)).intoArray(out, i);
        }
        for (; i < n; i++) {
            out[i] = x[xFrom + i] + y[yFrom + i];
        }
    }

    @Override
    public void mul(double[] x, int xFrom, double[] y, int yFrom, double[] out, int n) {
        int i = 0;
        for (int bound = D.loopBound(n); i < bound; i += D.length()) {
            DoubleVector.fromArray(D, x, xFrom + i).mul(DoubleVector.fromArray(D, y, yFrom + i)).intoArray(out, i);
        }
        for (; i < n; i++) {
            out[i] = x[xFrom + i] * y[yFrom + i];
        }
    }

    @Override
    public void max(double[] x, int xFrom, double[] y, int yFrom, double[] out, int n) {
        int i = 0;
        for (int bound = D.loopBound(n); i < bound; i += D.length()) {
            DoubleVector.fromArray(D, x, xFrom + i).max(DoubleVector.fromArray(D, y, yFrom + i)).intoArray(out, i);
        }
        for (; i < n; i++) {
            out[i] = Math.max(x[xFrom + i], y[yFrom + i]);
        }
    }

    @Override
    public void lessThan(double[] x, int xFrom, double[] y, int yFrom, boolean[] out, int n) {
        // a vector compare, as in lessThan(float[], ...)
        int i = 0;
        for (int bound = D.loopBound(n); i < bound; i += D.length()) {
            DoubleVector.fromArray(D, x, xFrom + i).compare(VectorOperators.LT, DoubleVector.fromArray(D, y, yFrom + i)).intoArray(out, i);
        }
        for (; i < n; i++) {
            out[i] = x[xFrom + i] < y[yFrom + i];
        }
    }

    @Override
    public void lessOrEqual(double[] x, int xFrom, double[] y, int yFrom, boolean[] out, int n) {
        // a vector compare, as in lessThan(float[], ...); LE is false for NaN, as the scalar <=
        int i = 0;
        for (int bound = D.loopBound(n); i < bound; i += D.length()) {
            DoubleVector.fromArray(D, x, xFrom + i).compare(VectorOperators.LE, DoubleVector.fromArray(D, y, yFrom + i)).intoArray(out, i);
        }
        for (; i < n; i++) {
            out[i] = x[xFrom + i] <= y[yFrom + i];
        }
    }

    @Override
    public void equal(double[] x, int xFrom, double[] y, int yFrom, boolean[] out, int n) {
        // a vector compare, as in lessThan(float[], ...)
        int i = 0;
        for (int bound = D.loopBound(n); i < bound; i += D.length()) {
            DoubleVector.fromArray(D, x, xFrom + i).compare(VectorOperators.EQ, DoubleVector.fromArray(D, y, yFrom + i)).intoArray(out, i);
        }
        for (; i < n; i++) {
            out[i] = x[xFrom + i] == y[yFrom + i];
        }
    }

    @Override
    public void where(boolean[] condition, double[] x, double[] y, double[] out, int n) {
        int i = 0;
        for (int bound = D.loopBound(n); i < bound; i += D.length()) {
            VectorMask<Double> mask = VectorMask.fromArray(D, condition, i);
            DoubleVector.fromArray(D, y, i).blend(DoubleVector.fromArray(D, x, i), mask).intoArray(out, i);
        }
        for (; i < n; i++) {
            out[i] = condition[i] ? x[i] : y[i];
        }
    }

    @Override
    public void unary(Op op, double[] x, double[] out, int n) {
        // double transcendental functions: Math's are correctly rounded enough and fast; the vector
        // forms only pay off in float32, where they dominate fused activation kernels
        if (op == Op.EXP || op == Op.LOG || op == Op.SIN) {
            tail.unary(op, x, out, n);
            return;
        }
        int i = 0;
        int bound = D.loopBound(n);
        if (op == Op.RECIPROCAL) {
            DoubleVector one = DoubleVector.broadcast(D, 1.0);
            for (; i < bound; i += D.length()) {
                one.div(DoubleVector.fromArray(D, x, i)).intoArray(out, i);
            }
        } else {
            for (; i < bound; i += D.length()) {
                DoubleVector.fromArray(D, x, i).lanewise(VectorOperators.SQRT).intoArray(out, i);
            }
        }
        for (; i < n; i++) {
            out[i] = op == Op.RECIPROCAL ? 1.0 / x[i] : Math.sqrt(x[i]);
        }
    }

    @Override
    public double sum(double[] x, int offset, int n) {
        DoubleVector acc = DoubleVector.zero(D);
        int i = 0;
        for (int bound = D.loopBound(n); i < bound; i += D.length()) {
            acc = acc.add(DoubleVector.fromArray(D, x, offset + i));
        }
        // lanes front to back, as for float: reduceLanes leaves the order to the implementation (the
        // thin products' interpreted and compiled orders differed, and their results with them)
        double total = 0;
        double[] lanes = acc.toArray();
        for (double lane : lanes) {
            total += lane;
        }
        for (; i < n; i++) {
            total += x[offset + i];
        }
        return total;
    }

    @Override
    public double max(double[] x, int offset, int n, double initial) {
        DoubleVector acc = DoubleVector.broadcast(D, initial);
        int i = 0;
        for (int bound = D.loopBound(n); i < bound; i += D.length()) {
            acc = acc.max(DoubleVector.fromArray(D, x, offset + i));
        }
        double m = initial;
        for (double lane : acc.toArray()) {
            m = Math.max(m, lane);
        }
        for (; i < n; i++) {
            m = Math.max(m, x[offset + i]);
        }
        return m;
    }

    @Override
    public void multiplyAdd(float[] x, int xFrom, float[] y, int yFrom, float b, float[] z, int zFrom, float c, float[] out, int n) {
        // four loops, so that each is a straight line of vector operations; mul then add, two roundings
        int i = 0;
        int bound = F.loopBound(n);
        if (y != null && z != null) {
            for (; i < bound; i += F.length()) {
                FloatVector.fromArray(F, x, xFrom + i).mul(FloatVector.fromArray(F, y, yFrom + i)).add(FloatVector.fromArray(F, z, zFrom + i)).intoArray(out, i);
            }
        } else if (y != null) {
            for (; i < bound; i += F.length()) {
                FloatVector.fromArray(F, x, xFrom + i).mul(FloatVector.fromArray(F, y, yFrom + i)).add(c).intoArray(out, i);
            }
        } else if (z != null) {
            for (; i < bound; i += F.length()) {
                FloatVector.fromArray(F, x, xFrom + i).mul(b).add(FloatVector.fromArray(F, z, zFrom + i)).intoArray(out, i);
            }
        } else {
            for (; i < bound; i += F.length()) {
                FloatVector.fromArray(F, x, xFrom + i).mul(b).add(c).intoArray(out, i);
            }
        }
        for (; i < n; i++) {
            float product = x[xFrom + i] * (y == null ? b : y[yFrom + i]);
            out[i] = product + (z == null ? c : z[zFrom + i]);
        }
    }

    @Override
    public void multiplyAdd(double[] x, int xFrom, double[] y, int yFrom, double b, double[] z, int zFrom, double c, double[] out, int n) {
        // four loops, so that each is a straight line of vector operations; mul then add, two roundings
        int i = 0;
        int bound = D.loopBound(n);
        if (y != null && z != null) {
            for (; i < bound; i += D.length()) {
                DoubleVector.fromArray(D, x, xFrom + i).mul(DoubleVector.fromArray(D, y, yFrom + i)).add(DoubleVector.fromArray(D, z, zFrom + i)).intoArray(out, i);
            }
        } else if (y != null) {
            for (; i < bound; i += D.length()) {
                DoubleVector.fromArray(D, x, xFrom + i).mul(DoubleVector.fromArray(D, y, yFrom + i)).add(c).intoArray(out, i);
            }
        } else if (z != null) {
            for (; i < bound; i += D.length()) {
                DoubleVector.fromArray(D, x, xFrom + i).mul(b).add(DoubleVector.fromArray(D, z, zFrom + i)).intoArray(out, i);
            }
        } else {
            for (; i < bound; i += D.length()) {
                DoubleVector.fromArray(D, x, xFrom + i).mul(b).add(c).intoArray(out, i);
            }
        }
        for (; i < n; i++) {
            double product = x[xFrom + i] * (y == null ? b : y[yFrom + i]);
            out[i] = product + (z == null ? c : z[zFrom + i]);
        }
    }
}
