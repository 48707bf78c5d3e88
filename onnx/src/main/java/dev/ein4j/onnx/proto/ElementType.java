package dev.ein4j.onnx.proto;

import dev.ein4j.ir.DType;

/**
 * The element types of ONNX tensors that ein4j's types map to, with {@code TensorProto.DataType}'s
 * numbers: ein4j's int32 internals meet ONNX's int64 where an operator needs indices or shapes.
 */
public enum ElementType {
    /** IEEE binary32, ein4j's float32. */
    FLOAT(1, 4),
    /** 32-bit integers, ein4j's int32. */
    INT32(6, 4),
    /** 64-bit integers: shapes, axes and indices of ONNX operators; token ids of served models. */
    INT64(7, 8),
    /** One byte per element, 0 or 1, ein4j's bool. */
    BOOL(9, 1),
    /** IEEE binary64, ein4j's float64. */
    DOUBLE(11, 8);

    private final int code;
    private final int bytes;

    ElementType(int code, int bytes) {
        this.code = code;
        this.bytes = bytes;
    }

    /** @return the {@code TensorProto.DataType} number */
    public int code() {
        return code;
    }

    /** @return bytes per element in {@code raw_data} */
    public int bytes() {
        return bytes;
    }

    /**
     * @param dtype an ein4j element type
     * @return the ONNX type holding the same values
     */
    public static ElementType of(DType dtype) {
        return switch (java.util.Objects.requireNonNull(dtype, "dtype")) {
            case FLOAT32 -> FLOAT;
            case FLOAT64 -> DOUBLE;
            case INT32 -> INT32;
            case BOOL -> BOOL;
        };
    }
}
