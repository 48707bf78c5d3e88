package dev.ein4j.onnx;

import dev.ein4j.ir.GraphOrder;
import dev.ein4j.ir.Node;
import dev.ein4j.tensor.Tensor;
import dev.ein4j.tensor.internal.TensorInternals;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The IR graph of one traced call: the sample inputs' nodes (the graph inputs), the outputs'
 * nodes, every node between them in post-order (a node after its sources; the walk stops at the
 * inputs), the names of the named weights it reads and, with a dynamic batch, the batch factors of
 * every node.
 */
final class TracedGraph {

    private final List<Node> inputs;
    private final List<Node> outputs;
    private final List<Node> order;
    private final List<String> inputNames;
    private final List<String> outputNames;
    private final Map<Node, Integer> positions = new IdentityHashMap<>();
    private final Map<Node, String> weightNames = new IdentityHashMap<>();
    private final Map<Node, int[]> batchFactors = new IdentityHashMap<>();

    /**
     * @param inputs the graph inputs
     * @param outputs the graph outputs
     * @param namedWeights weights to name
     */
    TracedGraph(List<Node> inputs, List<Node> outputs, Map<String, Tensor> namedWeights, ExportOptions options) {
        this.inputs = List.copyOf(inputs);
        this.outputs = List.copyOf(outputs);
        this.inputNames = names(options.inputNames(), inputs.size(), "input");
        this.outputNames = names(options.outputNames(), outputs.size(), "output");
        Set<Node> inputSet = Collections.newSetFromMap(new IdentityHashMap<>());
        inputSet.addAll(inputs);
        this.order = GraphOrder.postOrder(outputs, node -> !inputSet.contains(node));
        for (int i = 0; i < order.size(); i++) {
            positions.put(order.get(i), i);
        }
        namedWeights.entrySet().stream().sorted(Map.Entry.comparingByKey())
                .forEach(entry -> weightNames.putIfAbsent(TensorInternals.node(entry.getValue()), entry.getKey()));
    }

    private static List<String> names(List<String> given, int count, String kind) {
        if (given.isEmpty()) {
            List<String> names = new ArrayList<>();
            for (int i = 0; i < count; i++) {
                names.add(kind + "_" + i);
            }
            return names;
        }
        if (given.size() != count) {
            throw new OnnxExportException(given.size() + " " + kind + " names " + given + " for " + count + " " + kind
                    + (count == 1 ? "" : "s") + " of the traced call");
        }
        return given;
    }

    /** @return the names of the graph inputs */
    List<String> inputNames() {
        return inputNames;
    }

    /** @return the names of the graph outputs */
    List<String> outputNames() {
        return outputNames;
    }

    /** @return the graph inputs, in the samples' order */
    List<Node> inputs() {
        return inputs;
    }

    /** @return the graph outputs, in the call's order */
    List<Node> outputs() {
        return outputs;
    }

    /** @return every node, sources first */
    List<Node> order() {
        return order;
    }

    /**
     * @param node a node of the graph
     * @return its index in {@link #order()}, or -1
     */
    int position(Node node) {
        Integer position = positions.get(node);
        return position == null ? -1 : position;
    }

    /**
     * @param node a node
     * @return the name of the named weight it is, or null
     */
    String weightName(Node node) {
        return weightNames.get(node);
    }

    /**
     * @param node a node
     * @return per dimension, the multiple of the batch size its length is (0: fixed)
     */
    int[] batch(Node node) {
        int[] factors = batchFactors.get(node);
        return factors == null ? new int[node.rank()] : factors;
    }

    /** Records a node's batch factors (from {@link BatchFactors}). */
    void setBatch(Node node, int[] factors) {
        batchFactors.put(node, factors);
    }

    /**
     * @param node a node of the graph
     * @return the names of the outputs it feeds, for messages
     */
    List<String> outputsFed(Node node) {
        List<String> fed = new ArrayList<>();
        for (int i = 0; i < outputs.size(); i++) {
            Set<Node> reached = Collections.newSetFromMap(new IdentityHashMap<>());
            for (Node reachable : GraphOrder.postOrder(List.of(outputs.get(i)), n -> position(n) >= 0 && !inputs.contains(n))) {
                reached.add(reachable);
            }
            if (reached.contains(node)) {
                fed.add(outputNames.get(i));
            }
        }
        return fed;
    }
}
