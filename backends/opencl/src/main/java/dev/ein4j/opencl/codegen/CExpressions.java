package dev.ein4j.opencl.codegen;

/**
 * Literals and conversions in OpenCL C with the library's semantics ({@link dev.ein4j.ir.DType#round}):
 * to float rounds to nearest, to int truncates toward zero and wraps modulo 2^32 with NaN giving 0,
 * to bool is {@code != 0} (NaN is true). Values are written exactly: floats as hexadecimal literals.
 */
final class CExpressions {

    private CExpressions() {
    }

    /**
     * @param type the literal's type
     * @param value a value already representable in that type
     * @return an exact literal
     */
    static String literal(CType type, double value) {
        return switch (type) {
            case FLOAT -> floatLiteral((float) value);
            case DOUBLE -> doubleLiteral(value);
            case INT -> intLiteral((int) value);
            case UCHAR -> value != 0.0 ? "(uchar)1" : "(uchar)0";
            case LONG -> longLiteral((long) value);
        };
    }

    static String floatLiteral(float value) {
        if (Float.isNaN(value)) {
            return "NAN";
        }
        if (Float.isInfinite(value)) {
            return value > 0 ? "INFINITY" : "(-INFINITY)";
        }
        return "(" + Float.toHexString(value) + "f)";
    }

    static String doubleLiteral(double value) {
        if (Double.isNaN(value)) {
            return "((double)NAN)";
        }
        if (Double.isInfinite(value)) {
            return value > 0 ? "((double)INFINITY)" : "(-(double)INFINITY)";
        }
        return "(" + Double.toHexString(value) + ")";
    }

    static String intLiteral(int value) {
        return value == Integer.MIN_VALUE ? "(-2147483647-1)" : value < 0 ? "(" + value + ")" : Integer.toString(value);
    }

    static String longLiteral(long value) {
        return value == Long.MIN_VALUE ? "(-9223372036854775807L-1L)" : value < 0 ? "(" + value + "L)" : value + "L";
    }

    /**
     * @param expression a value of type {@code from}
     * @param from its type
     * @param to the wanted type
     * @return the expression converted with the library's rounding rules
     */
    static String convert(String expression, CType from, CType to) {
        if (from == to) {
            return expression;
        }
        return switch (to) {
            case DOUBLE -> "(double)(" + expression + ")";
            case FLOAT -> "(float)(" + expression + ")";
            case INT -> switch (from) {
                case FLOAT -> "ein_f2i(" + expression + ")";
                case DOUBLE -> "ein_d2i(" + expression + ")";
                case LONG -> "as_int((uint)as_ulong(" + expression + "))";
                default -> "(int)(" + expression + ")";
            };
            case LONG -> switch (from) {
                case FLOAT -> "ein_f2l(" + expression + ")";
                case DOUBLE -> "ein_d2l(" + expression + ")";
                default -> "(long)(" + expression + ")";
            };
            case UCHAR -> "(uchar)((" + expression + ") != 0)";
        };
    }
}
