package dev.ein4j.onnx.proto;

import com.google.protobuf.CodedOutputStream;
import java.io.IOException;
import java.util.Arrays;
import java.util.Objects;

/**
 * ONNX's {@code AttributeProto}: a named operator attribute, {@code name} (1), {@code type} (20)
 * and one value field: {@code f} (2), {@code i} (3), {@code s} (4), {@code t} (5) or {@code ints} (8).
 *
 * <pre>{@code
 * Attribute.ofInts("perm", 0, 2, 1, 3);        // Transpose
 * Attribute.ofInt("keepdims", 1);               // ReduceSum
 * }</pre>
 */
public final class Attribute implements ProtoMessage {

    /** {@code AttributeProto.AttributeType} numbers of the kinds written here. */
    public static final int FLOAT = 1;
    /** An int64. */
    public static final int INT = 2;
    /** UTF-8 bytes. */
    public static final int STRING = 3;
    /** A tensor. */
    public static final int TENSOR = 4;
    /** int64s. */
    public static final int INTS = 7;

    private final String name;
    private final int type;
    private final long valueSize;
    private final Writer value;
    private final long[] ints;
    private final String text;

    private Attribute(String name, int type, long valueSize, Writer value, long[] ints, String text) {
        this.name = Objects.requireNonNull(name, "name");
        this.type = type;
        this.valueSize = valueSize;
        this.value = value;
        this.ints = ints;
        this.text = text;
    }

    /** @return an int64 attribute */
    public static Attribute ofInt(String name, long value) {
        return new Attribute(name, INT, CodedOutputStream.computeInt64Size(3, value), out -> out.writeInt64(3, value),
                new long[] {value}, Long.toString(value));
    }

    /** @return an int64s attribute, written packed */
    public static Attribute ofInts(String name, long... values) {
        long[] copy = Objects.requireNonNull(values, "values").clone();
        return new Attribute(name, INTS, ProtoMessage.packedSize(8, copy), out -> ProtoMessage.writePacked(out, 8, copy),
                copy, Arrays.toString(copy));
    }

    /** @return an int64s attribute */
    public static Attribute ofInts(String name, int[] values) {
        return ofInts(name, Arrays.stream(Objects.requireNonNull(values, "values")).asLongStream().toArray());
    }

    /** @return a float attribute */
    public static Attribute ofFloat(String name, float value) {
        return new Attribute(name, FLOAT, CodedOutputStream.computeFloatSize(2, value), out -> out.writeFloat(2, value),
                null, Float.toString(value));
    }

    /** @return a string attribute */
    public static Attribute ofString(String name, String value) {
        Objects.requireNonNull(value, "value");
        return new Attribute(name, STRING, CodedOutputStream.computeStringSize(4, value), out -> out.writeString(4, value),
                null, value);
    }

    /** @return a tensor attribute */
    public static Attribute ofTensor(String name, TensorData value) {
        Objects.requireNonNull(value, "value");
        return new Attribute(name, TENSOR, ProtoMessage.nestedSize(5, value), out -> ProtoMessage.writeNested(out, 5, value),
                null, value.toString());
    }

    /** Writes the one value field of an attribute. */
    @FunctionalInterface
    private interface Writer {
        void write(CodedOutputStream output) throws IOException;
    }

    /** @return the attribute's name */
    public String name() {
        return name;
    }

    /** @return its {@code AttributeType} number */
    public int type() {
        return type;
    }

    /** @return the int64 values of an int or ints attribute (a copy), or null for another kind */
    public long[] ints() {
        return ints == null ? null : ints.clone();
    }

    @Override
    public long serializedSize() {
        return CodedOutputStream.computeStringSize(1, name) + valueSize + CodedOutputStream.computeInt32Size(20, type);
    }

    @Override
    public void writeTo(CodedOutputStream output) throws IOException {
        Objects.requireNonNull(output, "output");
        output.writeString(1, name);
        value.write(output);
        output.writeInt32(20, type);
    }

    @Override
    public String toString() {
        return name + "=" + text;
    }
}
