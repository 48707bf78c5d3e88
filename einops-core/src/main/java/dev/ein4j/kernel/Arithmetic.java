package dev.ein4j.kernel;

import dev.ein4j.ir.DType;
import dev.ein4j.ir.Op;

/**
 * The semantic definition of every computing primitive on one element, in double, rounded to the
 * result type: what every backend must agree with. Integer multiplication is done in 64 bits so
 * that it wraps exactly as int32 arithmetic does.
 */
public final class Arithmetic {

    private Arithmetic() {
    }

    /**
     * @param op a unary, binary or ternary primitive
     * @param type the result type
     * @param x first operand
     * @param y second operand (ignored by unary ops)
     * @param z third operand (WHERE only)
     * @return the result, rounded to the type
     */
    public static double apply(Op op, DType type, double x, double y, double z) {
        double value = switch (op) {
            case EXP -> Math.exp(x);
            case LOG -> Math.log(x);
            case SQRT -> Math.sqrt(x);
            case RECIPROCAL -> 1.0 / x;
            case SIN -> Math.sin(x);
            case CAST, CONTIGUOUS -> x;
            case ADD -> x + y;
            case MUL -> type == DType.INT32 ? (double) ((long) x * (long) y) : x * y;
            case MAX -> max(x, y);
            case CMPLT -> x < y ? 1.0 : 0.0;
            case CMPEQ -> x == y ? 1.0 : 0.0;
            case WHERE -> x != 0.0 ? y : z;
            case RESHAPE, PERMUTE, EXPAND, PAD, SHRINK, FLIP, WINDOW, SUM, REDUCE_MAX, PROD, CONTRACT, GATHER, SCATTER, CONST, IOTA, RAND, INPUT, DETACH ->
                    throw new IllegalArgumentException(op + " is not an elementwise primitive");
        };
        return type.round(value);
    }

    /**
     * max with NaN winning, the IR's MAX and REDUCE_MAX.
     *
     * @param x one value
     * @param y another
     * @return the larger, or NaN if either is NaN
     */
    public static double max(double x, double y) {
        return Double.isNaN(x) || Double.isNaN(y) ? Double.NaN : Math.max(x, y);
    }

    /**
     * @param op SUM, REDUCE_MAX or PROD
     * @return its identity: 0, −∞ or 1 (what reducing an empty axis gives)
     */
    public static double identity(Op op) {
        return switch (op) {
            case SUM -> 0.0;
            case REDUCE_MAX -> Double.NEGATIVE_INFINITY;
            case PROD -> 1.0;
            case RESHAPE, PERMUTE, EXPAND, PAD, SHRINK, FLIP, WINDOW, EXP, LOG, SQRT, RECIPROCAL, SIN, CAST, ADD, MUL, MAX, CMPLT,
                    CMPEQ, WHERE, CONTRACT, GATHER, SCATTER, CONST, IOTA, RAND, INPUT, CONTIGUOUS, DETACH ->
                    throw new IllegalArgumentException(op + " is not a reduction");
        };
    }

    /**
     * Integer reductions run in 64 bits and wrap once at the end; the identity of REDUCE_MAX is
     * then the type's smallest value.
     *
     * @param op SUM, REDUCE_MAX or PROD
     * @param type INT32 or BOOL
     * @return the identity as a long
     */
    public static long integerIdentity(Op op, DType type) {
        if (op != Op.SUM && op != Op.PROD && op != Op.REDUCE_MAX) {
            throw new IllegalArgumentException(op + " is not a reduction");
        }
        return op == Op.SUM ? 0L : op == Op.PROD ? 1L : type == DType.BOOL ? 0L : Integer.MIN_VALUE;
    }
}
