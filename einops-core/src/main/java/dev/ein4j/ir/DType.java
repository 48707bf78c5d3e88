package dev.ein4j.ir;

/** Element types. Every backend stores and computes both. */
public enum DType {
    /** IEEE 754 binary32. */
    FLOAT32(4),
    /** IEEE 754 binary64, the type of gradient checks. */
    FLOAT64(8);

    private final int bytes;

    DType(int bytes) {
        this.bytes = bytes;
    }

    /** @return bytes per element */
    public int bytes() {
        return bytes;
    }

    /**
     * Rounds a double to this type: identity for FLOAT64, round-to-nearest float for FLOAT32.
     *
     * @param value any double
     * @return the nearest value representable in this type, as a double
     */
    public double round(double value) {
        return this == FLOAT32 ? (double) (float) value : value;
    }

    /**
     * The type of an operation on two operands: the wider one (numpy's promotion for floats).
     *
     * @param other the other operand's type
     * @return FLOAT64 if either is FLOAT64
     */
    public DType promote(DType other) {
        return this == FLOAT64 || other == FLOAT64 ? FLOAT64 : FLOAT32;
    }

    /** @return the numpy name, {@code "float32"} or {@code "float64"} */
    public String numpyName() {
        return this == FLOAT32 ? "float32" : "float64";
    }
}
