package dev.ein4j.onnx.proto;

import com.google.protobuf.CodedOutputStream;
import java.io.IOException;
import java.util.List;
import java.util.Objects;

/**
 * ONNX's {@code ValueInfoProto} for a tensor: {@code name} (1) and {@code type} (2), a
 * {@code TypeProto} whose {@code tensor_type} (1) holds {@code elem_type} (1) and {@code shape}
 * (2), a {@code TensorShapeProto} of {@code dim} (1) entries, each a {@code dim_value} (1), a
 * {@code dim_param} (2) (a symbolic length such as {@code "batch"}) or neither (unknown).
 *
 * @param name the value's name
 * @param type its element type
 * @param shape one entry per dimension
 */
public record ValueInfo(String name, ElementType type, List<Dimension> shape) implements ProtoMessage {

    /**
     * One dimension: a fixed length, a named symbolic length, or an unknown one.
     *
     * @param length the fixed length, or -1
     * @param symbol the symbolic name, or null
     */
    public record Dimension(long length, String symbol) implements ProtoMessage {

        /** @return a fixed length */
        public static Dimension of(long length) {
            return new Dimension(length, null);
        }

        /** @return a symbolic length, e.g. "batch" */
        public static Dimension symbolic(String symbol) {
            return new Dimension(-1, Objects.requireNonNull(symbol, "symbol"));
        }

        /** @return a length known only when the model runs */
        public static Dimension unknown() {
            return new Dimension(-1, null);
        }

        @Override
        public long serializedSize() {
            return (length >= 0 ? CodedOutputStream.computeInt64Size(1, length) : 0)
                    + (symbol != null ? CodedOutputStream.computeStringSize(2, symbol) : 0);
        }

        @Override
        public void writeTo(CodedOutputStream output) throws IOException {
            Objects.requireNonNull(output, "output");
            if (length >= 0) {
                output.writeInt64(1, length);
            }
            if (symbol != null) {
                output.writeString(2, symbol);
            }
        }

        @Override
        public String toString() {
            return length >= 0 ? Long.toString(length) : symbol != null ? symbol : "?";
        }
    }

    /** @throws NullPointerException if an argument is null */
    public ValueInfo {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(type, "type");
        shape = List.copyOf(Objects.requireNonNull(shape, "shape"));
    }

    /** The {@code TensorShapeProto}. */
    private ProtoMessage shapeMessage() {
        return new ProtoMessage() {
            @Override
            public long serializedSize() {
                return ProtoMessage.nestedSize(1, shape);
            }

            @Override
            public void writeTo(CodedOutputStream output) throws IOException {
                Objects.requireNonNull(output, "output");
                ProtoMessage.writeNested(output, 1, shape);
            }
        };
    }

    /** The {@code TypeProto.Tensor}. */
    private ProtoMessage tensorTypeMessage() {
        ProtoMessage shapeMessage = shapeMessage();
        return new ProtoMessage() {
            @Override
            public long serializedSize() {
                return CodedOutputStream.computeInt32Size(1, type.code()) + ProtoMessage.nestedSize(2, shapeMessage);
            }

            @Override
            public void writeTo(CodedOutputStream output) throws IOException {
                Objects.requireNonNull(output, "output");
                output.writeInt32(1, type.code());
                ProtoMessage.writeNested(output, 2, shapeMessage);
            }
        };
    }

    /** The {@code TypeProto}. */
    private ProtoMessage typeMessage() {
        ProtoMessage tensorType = tensorTypeMessage();
        return new ProtoMessage() {
            @Override
            public long serializedSize() {
                return ProtoMessage.nestedSize(1, tensorType);
            }

            @Override
            public void writeTo(CodedOutputStream output) throws IOException {
                Objects.requireNonNull(output, "output");
                ProtoMessage.writeNested(output, 1, tensorType);
            }
        };
    }

    @Override
    public long serializedSize() {
        return CodedOutputStream.computeStringSize(1, name) + ProtoMessage.nestedSize(2, typeMessage());
    }

    @Override
    public void writeTo(CodedOutputStream output) throws IOException {
        Objects.requireNonNull(output, "output");
        output.writeString(1, name);
        ProtoMessage.writeNested(output, 2, typeMessage());
    }
}
