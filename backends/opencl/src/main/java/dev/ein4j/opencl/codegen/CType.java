package dev.ein4j.opencl.codegen;

import dev.ein4j.ir.DType;

/**
 * The OpenCL C scalar types generated code computes in: one per {@link DType} (bool as
 * {@code uchar} 0/1) plus {@code long}, the accumulator of integer reductions.
 */
enum CType {
    /** float32. */
    FLOAT("float"),
    /** float64 (cl_khr_fp64). */
    DOUBLE("double"),
    /** int32. */
    INT("int"),
    /** bool, 0 or 1. */
    UCHAR("uchar"),
    /** 64-bit integer accumulators. */
    LONG("long");

    private final String name;

    CType(String name) {
        this.name = name;
    }

    /** @return the OpenCL C spelling */
    String cName() {
        return name;
    }

    /** @return whether this is float or double */
    boolean isFloating() {
        return this == FLOAT || this == DOUBLE;
    }

    /**
     * @param dtype an element type
     * @return the type that stores it
     */
    static CType of(DType dtype) {
        return switch (dtype) {
            case FLOAT32 -> FLOAT;
            case FLOAT64 -> DOUBLE;
            case INT32 -> INT;
            case BOOL -> UCHAR;
        };
    }

    /** @return the bytes of one element in memory */
    int bytes() {
        return switch (this) {
            case FLOAT, INT -> 4;
            case DOUBLE, LONG -> 8;
            case UCHAR -> 1;
        };
    }
}
