package dev.ein4j.cpu.tile;

import dev.ein4j.ir.DType;
import dev.ein4j.ir.Op;
import dev.ein4j.kernel.Arithmetic;

/**
 * One elementwise primitive over one tile, dispatched on types once per tile: the float32 and
 * float64 forms through {@link TileOps} (vectorized where the Vector API is present), int32 and bool
 * in plain loops, and every remaining combination through {@link Arithmetic}, the semantic definition.
 */
final class TileArithmetic {

    private final TileOps ops;

    TileArithmetic(TileOps ops) {
        this.ops = ops;
    }

    /**
     * @param op the primitive
     * @param type its result type
     * @param operandType its operands' type (the condition of WHERE aside)
     * @param out the result tile
     * @param x first operand tile
     * @param y second operand tile, or null
     * @param z third operand tile (WHERE), or null
     * @param n elements
     */
    void apply(Op op, DType type, DType operandType, Object out, Object x, Object y, Object z, int n) {
        apply(op, type, operandType, out, x, 0, y, 0, z, n);
    }

    /**
     * {@link #apply(Op, DType, DType, Object, Object, Object, Object, int)} with the operands read
     * from {@code x[xFrom ..]} and {@code y[yFrom ..]}: non-zero offsets only where
     * {@link #readsInPlace} holds.
     */
    void apply(Op op, DType type, DType operandType, Object out, Object x, int xFrom, Object y, int yFrom, Object z, int n) {
        if (fast(op, type, operandType, out, x, xFrom, y, yFrom, z, n)) {
            return;
        }
        for (int j = 0; j < n; j++) {
            double value = Arithmetic.apply(op, type, Tiles.get(x, xFrom + j), y == null ? 0 : Tiles.get(y, yFrom + j),
                    z == null ? 0 : Tiles.get(z, j));
            Tiles.set(out, j, value);
        }
    }

    /**
     * out = x ≤ y over float tiles: the (x &lt; y) or (x = y) of a kernel in one pass (see
     * {@link SegmentEvaluator}), operands at offsets as the comparisons read them.
     */
    void lessOrEqual(DType operandType, boolean[] out, Object x, int xFrom, Object y, int yFrom, int n) {
        if (operandType == DType.FLOAT32) {
            ops.lessOrEqual((float[]) x, xFrom, (float[]) y, yFrom, out, n);
        } else {
            ops.lessOrEqual((double[]) x, xFrom, (double[]) y, yFrom, out, n);
        }
    }

    /** out = x·y + z over float tiles, y and z tiles (at offsets) or, where null, the numbers b and c (see {@link TileOps}). */
    void multiplyAdd(DType type, Object out, Object x, int xFrom, Object y, int yFrom, double b, Object z, int zFrom, double c, int n) {
        if (type == DType.FLOAT32) {
            ops.multiplyAdd((float[]) x, xFrom, (float[]) y, yFrom, (float) b, (float[]) z, zFrom, (float) c, (float[]) out, n);
        } else {
            ops.multiplyAdd((double[]) x, xFrom, (double[]) y, yFrom, b, (double[]) z, zFrom, c, (double[]) out, n);
        }
    }

    /**
     * @return whether the primitive can read its operands at an offset into a float array (an input
     *     buffer in place): the float binary arithmetic and comparisons
     */
    static boolean readsInPlace(Op op, DType operandType) {
        return (operandType == DType.FLOAT32 || operandType == DType.FLOAT64)
                && (op == Op.ADD || op == Op.MUL || op == Op.MAX || op == Op.CMPLT || op == Op.CMPEQ);
    }

    private boolean fast(Op op, DType type, DType operandType, Object out, Object x, int xFrom, Object y, int yFrom,
                         Object z, int n) {
        if (operandType == DType.FLOAT32) {
            return float32(op, out, (float[]) x, xFrom, y, yFrom, n);
        }
        if (operandType == DType.FLOAT64) {
            return float64(op, out, (double[]) x, xFrom, y, yFrom, n);
        }
        if (xFrom != 0 || yFrom != 0) {
            throw new IllegalStateException(op + " on " + operandType + " does not read in place");
        }
        if (op == Op.CAST) {
            return cast(type, out, x, n);
        }
        if (operandType == DType.INT32 && type == DType.INT32) {
            return int32(op, (int[]) out, (int[]) x, (int[]) y, n);
        }
        if (operandType == DType.BOOL && type == DType.BOOL && x instanceof boolean[] a
                && (y == null || y instanceof boolean[])) {
            return bool(op, (boolean[]) out, a, (boolean[]) y, n);
        }
        return false;
    }

    /** Logic on bool tiles: ADD and MAX are or, MUL is and, CMPLT is (not x) and y, CMPEQ is equality. */
    private static boolean bool(Op op, boolean[] out, boolean[] x, boolean[] y, int n) {
        switch (op) {
            case ADD, MAX -> {
                for (int j = 0; j < n; j++) {
                    out[j] = x[j] | y[j];
                }
            }
            case MUL -> {
                for (int j = 0; j < n; j++) {
                    out[j] = x[j] & y[j];
                }
            }
            case CMPLT -> {
                for (int j = 0; j < n; j++) {
                    out[j] = !x[j] & y[j];
                }
            }
            case CMPEQ -> {
                for (int j = 0; j < n; j++) {
                    out[j] = x[j] == y[j];
                }
            }
            default -> {
                return false;
            }
        }
        return true;
    }

    private boolean float32(Op op, Object out, float[] x, int xFrom, Object y, int yFrom, int n) {
        if ((xFrom != 0 || yFrom != 0) && !readsInPlace(op, DType.FLOAT32)) {
            throw new IllegalStateException(op + " does not read in place");
        }
        switch (op) {
            case ADD -> ops.add(x, xFrom, (float[]) y, yFrom, (float[]) out, n);
            case MUL -> ops.mul(x, xFrom, (float[]) y, yFrom, (float[]) out, n);
            case MAX -> ops.max(x, xFrom, (float[]) y, yFrom, (float[]) out, n);
            case CMPLT -> ops.lessThan(x, xFrom, (float[]) y, yFrom, (boolean[]) out, n);
            case CMPEQ -> ops.equal(x, xFrom, (float[]) y, yFrom, (boolean[]) out, n);
            case EXP, LOG, SQRT, RECIPROCAL, SIN -> ops.unary(op, x, (float[]) out, n);
            case CAST -> {
                return castFromFloat(out, x, n);
            }
            default -> {
                return false;
            }
        }
        return true;
    }

    private boolean float64(Op op, Object out, double[] x, int xFrom, Object y, int yFrom, int n) {
        if ((xFrom != 0 || yFrom != 0) && !readsInPlace(op, DType.FLOAT64)) {
            throw new IllegalStateException(op + " does not read in place");
        }
        switch (op) {
            case ADD -> ops.add(x, xFrom, (double[]) y, yFrom, (double[]) out, n);
            case MUL -> ops.mul(x, xFrom, (double[]) y, yFrom, (double[]) out, n);
            case MAX -> ops.max(x, xFrom, (double[]) y, yFrom, (double[]) out, n);
            case CMPLT -> ops.lessThan(x, xFrom, (double[]) y, yFrom, (boolean[]) out, n);
            case CMPEQ -> ops.equal(x, xFrom, (double[]) y, yFrom, (boolean[]) out, n);
            case EXP, LOG, SQRT, RECIPROCAL, SIN -> ops.unary(op, x, (double[]) out, n);
            case CAST -> {
                if (out instanceof float[] f) {
                    for (int j = 0; j < n; j++) {
                        f[j] = (float) x[j];
                    }
                    return true;
                }
                return false;
            }
            default -> {
                return false;
            }
        }
        return true;
    }

    /** WHERE has a bool condition as its first operand, so it is dispatched on the branches' type. */
    boolean where(DType type, Object out, boolean[] condition, Object x, Object y, int n) {
        switch (type) {
            case FLOAT32 -> ops.where(condition, (float[]) x, (float[]) y, (float[]) out, n);
            case FLOAT64 -> ops.where(condition, (double[]) x, (double[]) y, (double[]) out, n);
            case INT32 -> {
                int[] o = (int[]) out;
                int[] a = (int[]) x;
                int[] b = (int[]) y;
                for (int j = 0; j < n; j++) {
                    o[j] = condition[j] ? a[j] : b[j];
                }
            }
            case BOOL -> {
                boolean[] o = (boolean[]) out;
                boolean[] a = (boolean[]) x;
                boolean[] b = (boolean[]) y;
                for (int j = 0; j < n; j++) {
                    o[j] = condition[j] ? a[j] : b[j];
                }
            }
        }
        return true;
    }

    private static boolean castFromFloat(Object out, float[] x, int n) {
        if (out instanceof double[] d) {
            for (int j = 0; j < n; j++) {
                d[j] = x[j];
            }
            return true;
        }
        if (out instanceof boolean[] b) {
            for (int j = 0; j < n; j++) {
                b[j] = x[j] != 0f;
            }
            return true;
        }
        return false;
    }

    private boolean cast(DType type, Object out, Object x, int n) {
        if (x instanceof boolean[] b && out instanceof float[] f) {
            ops.fromBool(b, f, n);
            return true;
        }
        if (x instanceof int[] i && out instanceof float[] f) {
            for (int j = 0; j < n; j++) {
                f[j] = i[j];
            }
            return true;
        }
        if (x instanceof boolean[] b && out instanceof int[] i) {
            for (int j = 0; j < n; j++) {
                i[j] = b[j] ? 1 : 0;
            }
            return true;
        }
        return false;
    }

    /** int32 arithmetic wraps, as Java's int arithmetic does. */
    private static boolean int32(Op op, int[] out, int[] x, int[] y, int n) {
        switch (op) {
            case ADD -> {
                for (int j = 0; j < n; j++) {
                    out[j] = x[j] + y[j];
                }
            }
            case MUL -> {
                for (int j = 0; j < n; j++) {
                    out[j] = x[j] * y[j];
                }
            }
            case MAX -> {
                for (int j = 0; j < n; j++) {
                    out[j] = Math.max(x[j], y[j]);
                }
            }
            default -> {
                return false;
            }
        }
        return true;
    }
}
