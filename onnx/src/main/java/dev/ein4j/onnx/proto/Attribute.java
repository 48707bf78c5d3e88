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
public sealed interface Attribute extends ProtoMessage {

    /** {@code AttributeProto.AttributeType} numbers of the kinds written here. */
    int FLOAT = 1;
    /** An int64. */
    int INT = 2;
    /** UTF-8 bytes. */
    int STRING = 3;
    /** A tensor. */
    int TENSOR = 4;
    /** int64s. */
    int INTS = 7;

    /** @return the attribute's name */
    String name();

    /** @return an int64 attribute */
    static Attribute ofInt(String name, long value) {
        return new IntValue(name, value);
    }

    /** @return an int64s attribute */
    static Attribute ofInts(String name, long... values) {
        return new IntsValue(name, Objects.requireNonNull(values, "values").clone());
    }

    /** @return an int64s attribute */
    static Attribute ofInts(String name, int[] values) {
        return new IntsValue(name, Arrays.stream(Objects.requireNonNull(values, "values")).asLongStream().toArray());
    }

    /** @return a float attribute */
    static Attribute ofFloat(String name, float value) {
        return new FloatValue(name, value);
    }

    /** @return a string attribute */
    static Attribute ofString(String name, String value) {
        return new StringValue(name, value);
    }

    /** @return a tensor attribute */
    static Attribute ofTensor(String name, TensorData value) {
        return new TensorValue(name, value);
    }

    /** Size of the name and type fields that every kind writes. */
    private static long headerSize(String name, int type) {
        return CodedOutputStream.computeStringSize(1, name) + CodedOutputStream.computeInt32Size(20, type);
    }

    /** An int64 value. */
    record IntValue(String name, long value) implements Attribute {
        /** @throws NullPointerException if the name is null */
        public IntValue {
            Objects.requireNonNull(name, "name");
        }

        @Override
        public long serializedSize() {
            return headerSize(name, INT) + CodedOutputStream.computeInt64Size(3, value);
        }

        @Override
        public void writeTo(CodedOutputStream output) throws IOException {
            Objects.requireNonNull(output, "output");
            output.writeString(1, name);
            output.writeInt64(3, value);
            output.writeInt32(20, INT);
        }
    }

    /** int64 values. */
    record IntsValue(String name, long[] values) implements Attribute {
        /** @throws NullPointerException if an argument is null */
        public IntsValue {
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(values, "values");
        }

        @Override
        public long serializedSize() {
            return headerSize(name, INTS) + ProtoMessage.packedSize(8, values);
        }

        @Override
        public void writeTo(CodedOutputStream output) throws IOException {
            Objects.requireNonNull(output, "output");
            output.writeString(1, name);
            ProtoMessage.writePacked(output, 8, values);
            output.writeInt32(20, INTS);
        }

        @Override
        public boolean equals(Object other) {
            return other instanceof IntsValue that && name.equals(that.name) && Arrays.equals(values, that.values);
        }

        @Override
        public int hashCode() {
            return 31 * name.hashCode() + Arrays.hashCode(values);
        }

        @Override
        public String toString() {
            return name + "=" + Arrays.toString(values);
        }
    }

    /** A float value. */
    record FloatValue(String name, float value) implements Attribute {
        /** @throws NullPointerException if the name is null */
        public FloatValue {
            Objects.requireNonNull(name, "name");
        }

        @Override
        public long serializedSize() {
            return headerSize(name, FLOAT) + CodedOutputStream.computeFloatSize(2, value);
        }

        @Override
        public void writeTo(CodedOutputStream output) throws IOException {
            Objects.requireNonNull(output, "output");
            output.writeString(1, name);
            output.writeFloat(2, value);
            output.writeInt32(20, FLOAT);
        }
    }

    /** A string value. */
    record StringValue(String name, String value) implements Attribute {
        /** @throws NullPointerException if an argument is null */
        public StringValue {
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(value, "value");
        }

        @Override
        public long serializedSize() {
            return headerSize(name, STRING) + CodedOutputStream.computeStringSize(4, value);
        }

        @Override
        public void writeTo(CodedOutputStream output) throws IOException {
            Objects.requireNonNull(output, "output");
            output.writeString(1, name);
            output.writeString(4, value);
            output.writeInt32(20, STRING);
        }
    }

    /** A tensor value. */
    record TensorValue(String name, TensorData value) implements Attribute {
        /** @throws NullPointerException if an argument is null */
        public TensorValue {
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(value, "value");
        }

        @Override
        public long serializedSize() {
            return headerSize(name, TENSOR) + ProtoMessage.nestedSize(5, value);
        }

        @Override
        public void writeTo(CodedOutputStream output) throws IOException {
            Objects.requireNonNull(output, "output");
            output.writeString(1, name);
            ProtoMessage.writeNested(output, 5, value);
            output.writeInt32(20, TENSOR);
        }
    }
}
