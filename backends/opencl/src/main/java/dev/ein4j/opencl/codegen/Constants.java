package dev.ein4j.opencl.codegen;

import java.util.ArrayList;
import java.util.List;

/**
 * Where the numbers of a kernel's structure (lengths, strides, offsets, mask bounds, pad values) go
 * in generated code: baked into the source as literals, or read from a parameter table {@code p},
 * a {@code __constant long*} argument filled when the kernel is first run. A launch's own numbers
 * (CONST values, RAND seeds) are not here: they arrive with every launch, as {@link #launch()} says.
 *
 * <p>Baked code is the fastest (divisions by constant lengths become multiplications) but is a new
 * program for every shape; parameterised code is one program for every kernel of the same
 * structure, so a stream of kernels that differ only in shapes compiles once. Every call here
 * appends a new parameter: values are never shared between calls, since sharing equal values would
 * make the source depend on them.
 */
final class Constants {

    /** The parameter table's name in generated kernels. */
    static final String TABLE = "p";

    private final boolean baked;
    private final LaunchArguments launch;
    private final List<Long> values = new ArrayList<>();

    private Constants(boolean baked, LaunchArguments launch) {
        this.baked = baked;
        this.launch = launch;
    }

    /**
     * @param launch how the kernel's launch values arrive
     * @return numbers written into the source
     */
    static Constants baked(LaunchArguments launch) {
        return new Constants(true, launch);
    }

    /**
     * @param launch how the kernel's launch values arrive
     * @return numbers read from the parameter table
     */
    static Constants parameters(LaunchArguments launch) {
        return new Constants(false, launch);
    }

    /** @return how the kernel's CONST values and RAND seeds arrive */
    LaunchArguments launch() {
        return launch;
    }

    /** @return whether numbers are literals (so code may also specialise on them, skipping length-1 axes, say) */
    boolean isBaked() {
        return baked;
    }

    /**
     * @param value a number used in 32-bit arithmetic
     * @return an int expression
     */
    String integer(long value) {
        return baked ? CExpressions.intLiteral((int) value) : "((int)" + slot(value) + ")";
    }

    /**
     * @param value a number used in 64-bit arithmetic
     * @return a long expression
     */
    String wide(long value) {
        return baked ? CExpressions.longLiteral(value) : slot(value);
    }

    /**
     * @param value a number
     * @param wide whether 64-bit arithmetic is wanted
     * @return {@link #wide} or {@link #integer}
     */
    String number(long value, boolean wide) {
        return wide ? wide(value) : integer(value);
    }

    /**
     * @param type the value's type
     * @param value a value representable in it
     * @return an expression of that type with exactly that value
     */
    String typed(CType type, double value) {
        if (baked) {
            return CExpressions.literal(type, value);
        }
        return switch (type) {
            case FLOAT -> "as_float((int)" + slot(Float.floatToRawIntBits((float) value)) + ")";
            case DOUBLE -> "as_double(" + slot(Double.doubleToRawLongBits(value)) + ")";
            case INT -> "((int)" + slot((int) value) + ")";
            case UCHAR -> "((uchar)" + slot(value != 0.0 ? 1 : 0) + ")";
            case LONG -> slot((long) value);
        };
    }

    /**
     * @param text a description of sizes, for a comment
     * @return the text when baked, "" when the source must not depend on sizes
     */
    String describe(String text) {
        return baked ? text : "";
    }

    /** @return the parameter table's contents, in order */
    long[] values() {
        return values.stream().mapToLong(Long::longValue).toArray();
    }

    private String slot(long value) {
        values.add(value);
        return TABLE + "[" + (values.size() - 1) + "]";
    }
}
