package dev.ein4j.onnx.proto;

import com.google.protobuf.CodedOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.Objects;

/**
 * ONNX's {@code TensorProto}: a named constant tensor (an initializer, or a {@code Constant}'s
 * value) with {@code dims} (1), {@code data_type} (2), {@code name} (8) and the elements as
 * {@code raw_data} (9), little-endian in row-major order, as the specification requires of raw
 * data whatever the machine.
 *
 * <pre>{@code
 * TensorData scale = TensorData.ofFloats("scale", new long[] {2}, new float[] {0.5f, 2f});
 * }</pre>
 *
 * @param name the name graph nodes refer to it by (may be empty inside an attribute)
 * @param type the element type
 * @param dims the shape (empty for a scalar)
 * @param rawData the elements, {@code type.bytes()} each; not copied
 */
public record TensorData(String name, ElementType type, long[] dims, byte[] rawData) implements ProtoMessage {

    /**
     * @throws NullPointerException if an argument is null
     * @throws IllegalArgumentException if the data does not hold one element per position of the shape
     */
    public TensorData {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(dims, "dims");
        Objects.requireNonNull(rawData, "rawData");
        long size = 1;
        for (long dim : dims) {
            size *= dim;
        }
        if (size * type.bytes() != rawData.length) {
            throw new IllegalArgumentException("tensor '" + name + "' of shape " + Arrays.toString(dims) + " needs "
                    + size * type.bytes() + " bytes of " + type + ", got " + rawData.length);
        }
    }

    /** @return float32 elements */
    public static TensorData ofFloats(String name, long[] dims, float[] values) {
        Objects.requireNonNull(values, "values");
        ByteBuffer bytes = buffer(values.length, 4);
        bytes.asFloatBuffer().put(values);
        return new TensorData(name, ElementType.FLOAT, dims, bytes.array());
    }

    /** @return float64 elements */
    public static TensorData ofDoubles(String name, long[] dims, double[] values) {
        Objects.requireNonNull(values, "values");
        ByteBuffer bytes = buffer(values.length, 8);
        bytes.asDoubleBuffer().put(values);
        return new TensorData(name, ElementType.DOUBLE, dims, bytes.array());
    }

    /** @return int32 elements */
    public static TensorData ofInts(String name, long[] dims, int[] values) {
        Objects.requireNonNull(values, "values");
        ByteBuffer bytes = buffer(values.length, 4);
        bytes.asIntBuffer().put(values);
        return new TensorData(name, ElementType.INT32, dims, bytes.array());
    }

    /** @return int64 elements */
    public static TensorData ofLongs(String name, long[] dims, long[] values) {
        Objects.requireNonNull(values, "values");
        ByteBuffer bytes = buffer(values.length, 8);
        bytes.asLongBuffer().put(values);
        return new TensorData(name, ElementType.INT64, dims, bytes.array());
    }

    /** @return bool elements, one byte each */
    public static TensorData ofBooleans(String name, long[] dims, boolean[] values) {
        Objects.requireNonNull(values, "values");
        byte[] bytes = new byte[values.length];
        for (int i = 0; i < values.length; i++) {
            bytes[i] = (byte) (values[i] ? 1 : 0);
        }
        return new TensorData(name, ElementType.BOOL, dims, bytes);
    }

    private static ByteBuffer buffer(int elements, int bytesEach) {
        return ByteBuffer.allocate(Math.multiplyExact(elements, bytesEach)).order(ByteOrder.LITTLE_ENDIAN);
    }

    /** @return the number of elements */
    public long size() {
        return rawData.length / type.bytes();
    }

    /**
     * @param newName a name
     * @return the same data under that name (shared, not copied)
     */
    public TensorData named(String newName) {
        Objects.requireNonNull(newName, "newName");
        return new TensorData(newName, type, dims, rawData);
    }

    @Override
    public long serializedSize() {
        return ProtoMessage.packedSize(1, dims) + CodedOutputStream.computeInt32Size(2, type.code())
                + (name.isEmpty() ? 0 : CodedOutputStream.computeStringSize(8, name))
                + CodedOutputStream.computeTagSize(9) + CodedOutputStream.computeUInt64SizeNoTag(rawData.length)
                + rawData.length;
    }

    @Override
    public void writeTo(CodedOutputStream output) throws IOException {
        Objects.requireNonNull(output, "output");
        ProtoMessage.writePacked(output, 1, dims);
        output.writeInt32(2, type.code());
        if (!name.isEmpty()) {
            output.writeString(8, name);
        }
        output.writeByteArray(9, rawData);
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof TensorData that && name.equals(that.name) && type == that.type
                && Arrays.equals(dims, that.dims) && Arrays.equals(rawData, that.rawData);
    }

    @Override
    public int hashCode() {
        return Objects.hash(name, type, Arrays.hashCode(dims), Arrays.hashCode(rawData));
    }

    @Override
    public String toString() {
        return "TensorData[" + name + " " + type + Arrays.toString(dims) + "]";
    }
}
