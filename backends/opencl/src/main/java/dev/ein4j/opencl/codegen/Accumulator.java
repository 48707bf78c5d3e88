package dev.ein4j.opencl.codegen;

import dev.ein4j.ir.DType;
import dev.ein4j.ir.Op;
import dev.ein4j.kernel.Arithmetic;

/**
 * How a reduction accumulates, as the interpreter does: floats in their floating type (double when
 * the source or result is double), int32 and bool in 64-bit integers that wrap once at the end;
 * identities 0, 1, and −∞ (the smallest int for int32 max, 0 for bool max).
 *
 * @param op SUM, REDUCE_MAX or PROD (SUM for contractions)
 * @param type the accumulator's C type
 * @param result the reduction's result type
 */
record Accumulator(Op op, CType type, DType result) {

    /**
     * @param op the reduction
     * @param result its result type
     * @param source the type of the values reduced
     * @param fp64 whether double is available
     * @return the accumulator
     */
    static Accumulator of(Op op, DType result, CType source, boolean fp64) {
        CType type;
        if (!result.isFloating()) {
            type = CType.LONG; // the interpreter truncates each value to a long, then wraps once
        } else if (result == DType.FLOAT64 || source == CType.DOUBLE || source == CType.INT && fp64) {
            type = CType.DOUBLE;
        } else {
            type = CType.FLOAT;
        }
        return new Accumulator(op, type, result);
    }

    /**
     * A contraction's accumulator: the interpreter sums products in double, which for integer
     * operands is exact, so 64-bit integers do; floats accumulate in their type (float32 in float,
     * as BLAS does).
     *
     * @param result the contraction's type
     * @param left the left operand's type
     * @param right the right operand's type
     * @param fp64 whether double is available
     * @return the accumulator
     */
    static Accumulator forContraction(DType result, CType left, CType right, boolean fp64) {
        boolean integers = (left == CType.INT || left == CType.UCHAR) && (right == CType.INT || right == CType.UCHAR);
        CType type;
        if (!result.isFloating() && integers) {
            type = CType.LONG;
        } else if (result == DType.FLOAT64 || left == CType.DOUBLE || right == CType.DOUBLE
                || (!result.isFloating() || left == CType.INT || right == CType.INT) && fp64) {
            type = CType.DOUBLE;
        } else {
            type = CType.FLOAT;
        }
        return new Accumulator(Op.SUM, type, result);
    }

    /** @return the identity, a literal of the accumulator's type */
    String identity() {
        if (type == CType.LONG) {
            return CExpressions.longLiteral(Arithmetic.integerIdentity(op, result));
        }
        return CExpressions.literal(type, Arithmetic.identity(op));
    }

    /**
     * @param a an accumulated value
     * @param b another
     * @return their combination
     */
    String combine(String a, String b) {
        if (type == CType.LONG) {
            return switch (op) {
                case SUM -> "as_long(as_ulong(" + a + ") + as_ulong(" + b + "))";
                case PROD -> "as_long(as_ulong(" + a + ") * as_ulong(" + b + "))";
                default -> "max(" + a + ", " + b + ")";
            };
        }
        return switch (op) {
            case SUM -> a + " + " + b;
            case PROD -> a + " * " + b;
            default -> (type == CType.DOUBLE ? "ein_maxd(" : "ein_maxf(") + a + ", " + b + ")";
        };
    }

    /**
     * @param value a value of type {@code from}
     * @param from its type
     * @return it as an accumulator value (integers widened, floats truncated to long for integer results)
     */
    String lift(String value, CType from) {
        return CExpressions.convert(value, from, type);
    }

    /**
     * @param accumulated the accumulated value
     * @return the reduction's result, rounded once to its type
     */
    String finish(String accumulated) {
        CType target = CType.of(result);
        if (type == CType.LONG && target == CType.UCHAR) {
            // the interpreter wraps to int32 first, then tests for zero
            return CExpressions.convert(CExpressions.convert(accumulated, CType.LONG, CType.INT), CType.INT, target);
        }
        return CExpressions.convert(accumulated, type, target);
    }
}
