package dev.ein4j.onnx;

import dev.ein4j.ir.Node;
import dev.ein4j.ir.Op;
import java.util.Arrays;
import java.util.List;

/** How messages name IR nodes: primitive, id, type and shape, argument, and the nodes it reads. */
final class NodeDescription {

    private NodeDescription() {
    }

    /** @return e.g. {@code CONTRACT#81 float32[2, 4, 8, 8, 1] (axes [4]) reading PAD#73, RESHAPE#79} */
    static String of(Node node) {
        StringBuilder text = new StringBuilder(brief(node));
        if (node.argument() != null) {
            text.append(" (").append(node.argument()).append(')');
        }
        if (node.sourceCount() > 0) {
            text.append(" reading ");
            for (int i = 0; i < node.sourceCount(); i++) {
                text.append(i == 0 ? "" : ", ").append(brief(node.source(i)));
            }
        }
        if (node.op() == Op.RAND) {
            text.append(" [random numbers drawn in the traced call: Tensor.rand, or dropout in training mode]");
        }
        return text.toString();
    }

    /** @return e.g. {@code PAD#73 float32[2, 3, 10, 10]} */
    static String brief(Node node) {
        return node.op() + "#" + node.id() + " " + node.dtype().numpyName() + Arrays.toString(node.shape());
    }

    /**
     * @param node the node at fault
     * @param graph its graph
     * @param reason what is wrong
     * @return the exception: the node, the outputs it feeds, the reason
     */
    static OnnxExportException error(Node node, TracedGraph graph, String reason) {
        List<String> fed = graph.outputsFed(node);
        return new OnnxExportException(of(node) + (fed.isEmpty() ? "" : ", which feeds output" + (fed.size() > 1 ? "s " : " ")
                + String.join(", ", fed.stream().map(name -> "'" + name + "'").toList())) + ": " + reason);
    }
}
