package dev.ein4j.nn.io;

import dev.ein4j.ir.DType;

/**
 * The element types the readers understand, named by their safetensors codes, with their width in
 * bytes and the tensor type they are read into: small integers widen to int32, 64-bit and unsigned
 * 32-bit integers narrow to int32 when every value fits, half floats widen to float32.
 */
enum ElementType {
    BOOL(1, DType.BOOL, 'b'),
    U8(1, DType.INT32, 'u'),
    I8(1, DType.INT32, 'i'),
    I16(2, DType.INT32, 'i'),
    U16(2, DType.INT32, 'u'),
    I32(4, DType.INT32, 'i'),
    U32(4, DType.INT32, 'u'),
    I64(8, DType.INT32, 'i'),
    U64(8, DType.INT32, 'u'),
    F16(2, DType.FLOAT32, 'f'),
    BF16(2, DType.FLOAT32, '\0'),
    F32(4, DType.FLOAT32, 'f'),
    F64(8, DType.FLOAT64, 'f');

    private final int bytes;
    private final DType target;
    private final char numpyKind;

    ElementType(int bytes, DType target, char numpyKind) {
        this.bytes = bytes;
        this.target = target;
        this.numpyKind = numpyKind;
    }

    /** @return the width of one element in bytes */
    int bytes() {
        return bytes;
    }

    /** @return the tensor type this element type is read into */
    DType target() {
        return target;
    }

    /** @return the safetensors dtype code (BOOL, U8, ..., F64) */
    String code() {
        return name();
    }

    /**
     * @param code a safetensors dtype code
     * @return the type, or null if the code is unknown or unsupported
     */
    static ElementType ofCode(String code) {
        for (ElementType type : values()) {
            if (type.name().equals(code)) {
                return type;
            }
        }
        return null;
    }

    /**
     * @param kind a numpy kind character (b, i, u, f)
     * @param width the width in bytes
     * @return the type, or null if numpy's type is not one of these
     */
    static ElementType ofNumpy(char kind, int width) {
        for (ElementType type : values()) {
            if (type.numpyKind == kind && type.bytes == width) {
                return type;
            }
        }
        return null;
    }

    /**
     * @param dtype a tensor type
     * @return the element type a writer stores it as
     */
    static ElementType of(DType dtype) {
        return switch (dtype) {
            case BOOL -> BOOL;
            case INT32 -> I32;
            case FLOAT32 -> F32;
            case FLOAT64 -> F64;
        };
    }

    /** @return numpy's descr string when written little-endian: {@code <f4}, {@code |b1}, ... */
    String numpyDescr() {
        return (bytes == 1 ? "|" : "<") + numpyKind + bytes;
    }
}
