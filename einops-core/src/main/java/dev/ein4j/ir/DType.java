package dev.ein4j.ir;

/**
 * Element types, ordered by promotion: {@code BOOL < INT32 < FLOAT32 < FLOAT64}. An operation on
 * two types gives the greater one (PyTorch's rule: an int32 with a float32 gives float32).
 *
 * <p>Every value of every type is exact in a Java {@code double}, which is how the core and the
 * reference interpreter carry them. {@link #round(double)} is the one definition of "store this
 * value in this type": float32 rounds to nearest, int32 truncates toward zero and wraps modulo
 * 2<sup>32</sup> (NaN gives 0), bool is {@code value != 0} (NaN gives true, as numpy).
 */
public enum DType {
    /** true or false, stored as 0 and 1. */
    BOOL(1, "bool"),
    /** Two's-complement 32-bit integers; arithmetic wraps. */
    INT32(4, "int32"),
    /** IEEE 754 binary32. */
    FLOAT32(4, "float32"),
    /** IEEE 754 binary64, the type of gradient checks. */
    FLOAT64(8, "float64");

    private final int bytes;
    private final String numpyName;

    DType(int bytes, String numpyName) {
        this.bytes = bytes;
        this.numpyName = numpyName;
    }

    /** @return bytes per element in host transfers (bool: one byte) */
    public int bytes() {
        return bytes;
    }

    /** @return whether this is float32 or float64: the types gradients flow through */
    public boolean isFloating() {
        return this == FLOAT32 || this == FLOAT64;
    }

    /**
     * Rounds a double to this type.
     *
     * @param value any double
     * @return the value this type stores for it, as a double
     */
    public double round(double value) {
        return switch (this) {
            case FLOAT64 -> value;
            case FLOAT32 -> (float) value;
            case INT32 -> (int) (long) value; // truncate, then wrap modulo 2^32 (Java's long cast maps NaN to 0)
            case BOOL -> value != 0.0 ? 1.0 : 0.0;
        };
    }

    /**
     * The type of an operation on two operands: the greater of the two.
     *
     * @param other the other operand's type
     * @return the promoted type
     */
    public DType promote(DType other) {
        return compareTo(other) >= 0 ? this : other;
    }

    /** @return the numpy name: {@code bool}, {@code int32}, {@code float32} or {@code float64} */
    public String numpyName() {
        return numpyName;
    }

    /**
     * @param name a numpy name
     * @return the type
     * @throws IllegalArgumentException for any other name
     */
    public static DType fromNumpyName(String name) {
        for (DType type : values()) {
            if (type.numpyName.equals(name)) {
                return type;
            }
        }
        throw new IllegalArgumentException("unknown dtype '" + name + "' (bool, int32, float32 or float64)");
    }
}
