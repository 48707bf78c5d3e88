package dev.ein4j.onnx.proto;

import com.google.protobuf.CodedOutputStream;
import java.io.IOException;
import java.util.List;
import java.util.Objects;

/**
 * ONNX's {@code GraphProto}: {@code node} (1) in topological order, {@code name} (2),
 * {@code initializer} (5) (the weights), {@code input} (11) and {@code output} (12).
 *
 * @param name the graph's name
 * @param nodes the operators, each after the producers of its inputs
 * @param initializers constant tensors, referred to by name
 * @param inputs the values the caller feeds
 * @param outputs the values the caller reads
 */
public record Graph(String name, List<OperatorNode> nodes, List<TensorData> initializers, List<ValueInfo> inputs,
        List<ValueInfo> outputs) implements ProtoMessage {

    /** @throws NullPointerException if an argument is null */
    public Graph {
        Objects.requireNonNull(name, "name");
        nodes = List.copyOf(Objects.requireNonNull(nodes, "nodes"));
        initializers = List.copyOf(Objects.requireNonNull(initializers, "initializers"));
        inputs = List.copyOf(Objects.requireNonNull(inputs, "inputs"));
        outputs = List.copyOf(Objects.requireNonNull(outputs, "outputs"));
    }

    @Override
    public long serializedSize() {
        return ProtoMessage.nestedSize(1, nodes) + CodedOutputStream.computeStringSize(2, name)
                + ProtoMessage.nestedSize(5, initializers) + ProtoMessage.nestedSize(11, inputs)
                + ProtoMessage.nestedSize(12, outputs);
    }

    @Override
    public void writeTo(CodedOutputStream output) throws IOException {
        Objects.requireNonNull(output, "output");
        ProtoMessage.writeNested(output, 1, nodes);
        output.writeString(2, name);
        ProtoMessage.writeNested(output, 5, initializers);
        ProtoMessage.writeNested(output, 11, inputs);
        ProtoMessage.writeNested(output, 12, outputs);
    }
}
