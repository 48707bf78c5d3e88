package dev.ein4j.opencl.codegen;

import dev.ein4j.ir.Op;

/**
 * The expression of one elementwise primitive, agreeing with {@link dev.ein4j.kernel.Arithmetic}:
 * the interpreter computes in double and rounds to the result type; here float32 work stays in
 * float (exact for +, ·, max, comparisons, and with correctly rounded division and square root for
 * 1/x and √x; the transcendental functions differ by a few ulps), int32 arithmetic wraps (computed
 * on uint), and bool arithmetic is logical. Mixed or integer operands of floating functions are
 * computed in double where the device has it, as the interpreter does.
 */
final class OpEmitter {

    private final boolean fp64;

    /** @param fp64 whether double is available for mixed-type arithmetic */
    OpEmitter(boolean fp64) {
        this.fp64 = fp64;
    }

    /**
     * @param op a unary, binary or ternary primitive
     * @param result the result's type
     * @param sources the operands' variables
     * @param types the operands' types
     * @return the expression, of the result's type
     */
    String apply(Op op, CType result, String[] sources, CType[] types) {
        return switch (op) {
            case CAST, CONTIGUOUS -> CExpressions.convert(sources[0], types[0], result);
            case WHERE -> "((" + sources[0] + ") != 0 ? " + CExpressions.convert(sources[1], types[1], result) + " : "
                    + CExpressions.convert(sources[2], types[2], result) + ")";
            case CMPLT, CMPEQ -> comparison(op, result, sources, types);
            case ADD, MUL, MAX -> binary(op, result, sources, types);
            case EXP, LOG, SQRT, RECIPROCAL, SIN -> unary(op, result, sources[0], types[0]);
            default -> throw new UnsupportedKernelException(op + " is not an elementwise primitive");
        };
    }

    private String unary(Op op, CType result, String x, CType type) {
        CType compute = floatingType(result, type);
        String v = CExpressions.convert(x, type, compute);
        String value = switch (op) {
            case EXP -> "exp(" + v + ")";
            case LOG -> "log(" + v + ")";
            case SQRT -> "sqrt(" + v + ")";
            case RECIPROCAL -> "(" + CExpressions.literal(compute, 1.0) + " / " + v + ")";
            default -> "sin(" + v + ")";
        };
        return CExpressions.convert(value, compute, result);
    }

    private String binary(Op op, CType result, String[] s, CType[] t) {
        if (result == CType.UCHAR && t[0] == CType.UCHAR && t[1] == CType.UCHAR) {
            // bool arithmetic is logical: add and max are "or", mul is "and"
            return "(uchar)(" + s[0] + (op == Op.MUL ? " & " : " | ") + s[1] + ")";
        }
        if (result == CType.INT && isInteger(t[0]) && isInteger(t[1])) {
            String x = CExpressions.convert(s[0], t[0], CType.INT);
            String y = CExpressions.convert(s[1], t[1], CType.INT);
            return switch (op) {
                case ADD -> "as_int(as_uint(" + x + ") + as_uint(" + y + "))";
                case MUL -> "as_int(as_uint(" + x + ") * as_uint(" + y + "))";
                default -> "max(" + x + ", " + y + ")";
            };
        }
        CType compute = floatingType(result, t[0], t[1]);
        String x = CExpressions.convert(s[0], t[0], compute);
        String y = CExpressions.convert(s[1], t[1], compute);
        String value = switch (op) {
            case ADD -> "(" + x + " + " + y + ")";
            case MUL -> "(" + x + " * " + y + ")";
            default -> (compute == CType.DOUBLE ? "ein_maxd(" : "ein_maxf(") + x + ", " + y + ")";
        };
        return CExpressions.convert(value, compute, result);
    }

    private String comparison(Op op, CType result, String[] s, CType[] t) {
        CType compute = isInteger(t[0]) && isInteger(t[1]) ? CType.INT : floatingType(CType.FLOAT, t[0], t[1]);
        String x = CExpressions.convert(s[0], t[0], compute);
        String y = CExpressions.convert(s[1], t[1], compute);
        // scalar relational operators give int 1 or 0, and false when either side is NaN
        String test = "(" + x + (op == Op.CMPLT ? " < " : " == ") + y + ")";
        return CExpressions.convert(test, CType.INT, result);
    }

    /**
     * The type a floating computation runs in: float when the result and every operand fit float
     * exactly, double when some operand or the result is double, or an int (which float may not hold)
     * is involved and the device has double.
     */
    private CType floatingType(CType result, CType... operands) {
        boolean needsDouble = result == CType.DOUBLE;
        boolean prefersDouble = !result.isFloating();
        for (CType operand : operands) {
            needsDouble |= operand == CType.DOUBLE;
            prefersDouble |= operand == CType.INT || operand == CType.LONG;
        }
        return needsDouble || prefersDouble && fp64 ? CType.DOUBLE : CType.FLOAT;
    }

    private static boolean isInteger(CType type) {
        return type == CType.INT || type == CType.UCHAR;
    }
}
