package dev.ein4j.onnx.proto;

import com.google.protobuf.CodedOutputStream;
import java.io.IOException;
import java.util.List;
import java.util.Objects;

/**
 * ONNX's {@code NodeProto}: one operator application, {@code input} (1) and {@code output} (2)
 * value names, {@code name} (3), {@code op_type} (4), {@code attribute} (5). An empty input name
 * is an omitted optional input, as the specification defines.
 *
 * @param opType the operator, e.g. {@code "MatMul"}
 * @param inputs the names of the values it reads, in the operator's order
 * @param outputs the names of the values it defines
 * @param name a name unique in the graph (for diagnostics)
 * @param attributes its attributes
 */
public record OperatorNode(String opType, List<String> inputs, List<String> outputs, String name,
        List<Attribute> attributes) implements ProtoMessage {

    /** @throws NullPointerException if an argument is null */
    public OperatorNode {
        Objects.requireNonNull(opType, "opType");
        inputs = List.copyOf(Objects.requireNonNull(inputs, "inputs"));
        outputs = List.copyOf(Objects.requireNonNull(outputs, "outputs"));
        Objects.requireNonNull(name, "name");
        attributes = List.copyOf(Objects.requireNonNull(attributes, "attributes"));
    }

    @Override
    public long serializedSize() {
        return ProtoMessage.stringsSize(1, inputs) + ProtoMessage.stringsSize(2, outputs)
                + CodedOutputStream.computeStringSize(3, name) + CodedOutputStream.computeStringSize(4, opType)
                + ProtoMessage.nestedSize(5, attributes);
    }

    @Override
    public void writeTo(CodedOutputStream output) throws IOException {
        Objects.requireNonNull(output, "output");
        ProtoMessage.writeStrings(output, 1, inputs);
        ProtoMessage.writeStrings(output, 2, outputs);
        output.writeString(3, name);
        output.writeString(4, opType);
        ProtoMessage.writeNested(output, 5, attributes);
    }

    /**
     * @param attributeName an attribute's name
     * @return the attribute, or null
     */
    public Attribute attribute(String attributeName) {
        Objects.requireNonNull(attributeName, "attributeName");
        for (Attribute attribute : attributes) {
            if (attribute.name().equals(attributeName)) {
                return attribute;
            }
        }
        return null;
    }
}
