package dev.ein4j.onnx;

import dev.ein4j.ir.Node;
import dev.ein4j.ir.Op;
import dev.ein4j.runtime.Lifetimes;
import java.util.List;

/**
 * What becomes of each node of a traced graph: a graph input, a constant (an initializer whose
 * values ein4j computes now), or operators. A node is a constant when it does not depend on the
 * inputs, its shape is fixed, and it is small or already computed, and it does not merely
 * rearrange a named weight (a transposed weight stays a Transpose of the weight, so the weight
 * keeps its name). Only the nodes that some output needs are translated.
 */
final class Plan {

    /** Constant subgraphs up to this many elements are computed and written as one initializer. */
    static final long FOLD_LIMIT = 1 << 16;

    /** What a node becomes. */
    enum Mode {
        /** A graph input. */
        INPUT,
        /** An initializer with the node's values. */
        CONSTANT,
        /** Operators computing it from its sources. */
        OPERATORS
    }

    private final TracedGraph graph;
    private final Mode[] modes;
    private final boolean[] needed;
    private final boolean[] random;

    Plan(TracedGraph graph) {
        this.graph = graph;
        List<Node> order = graph.order();
        int count = order.size();
        modes = new Mode[count];
        needed = new boolean[count];
        random = new boolean[count];
        boolean[] dynamic = new boolean[count];
        boolean[] readsWeight = new boolean[count];
        for (int i = 0; i < count; i++) {
            Node node = order.get(i);
            boolean computed = Lifetimes.data(node) != null;
            boolean isInput = graph.inputs().contains(node);
            dynamic[i] = isInput;
            readsWeight[i] = graph.weightName(node) != null;
            random[i] = node.op() == Op.RAND && !computed;
            if (!isInput) {
                for (int j = 0; j < node.sourceCount(); j++) {
                    int source = graph.position(node.source(j));
                    dynamic[i] |= dynamic[source];
                    readsWeight[i] |= readsWeight[source];
                    random[i] |= random[source] && !computed;
                }
            }
            modes[i] = isInput ? Mode.INPUT : decide(node, dynamic[i], readsWeight[i], computed, random[i]);
        }
        for (Node output : graph.outputs()) {
            needed[graph.position(output)] = true;
        }
        for (int i = count - 1; i >= 0; i--) {
            if (needed[i] && modes[i] == Mode.OPERATORS) {
                Node node = order.get(i);
                for (int j = 0; j < node.sourceCount(); j++) {
                    needed[graph.position(node.source(j))] = true;
                }
            }
        }
    }

    private Mode decide(Node node, boolean dynamic, boolean readsWeight, boolean computed, boolean random) {
        boolean fixedShape = isFixed(graph.batch(node));
        if (dynamic || !fixedShape) {
            return Mode.OPERATORS;
        }
        if (graph.weightName(node) != null || computed || random) {
            return Mode.CONSTANT; // random numbers are frozen whole (or refused), never drawn by the model
        }
        if (readsWeight || node.size() > FOLD_LIMIT) {
            return Mode.OPERATORS;
        }
        return Mode.CONSTANT;
    }

    private static boolean isFixed(int[] batch) {
        for (int factor : batch) {
            if (factor != 0) {
                return false;
            }
        }
        return true;
    }

    /** @return what the node becomes */
    Mode mode(Node node) {
        return modes[graph.position(node)];
    }

    /** @return whether some output needs the node translated */
    boolean isNeeded(Node node) {
        return needed[graph.position(node)];
    }

    /** @return whether the node's values depend on random numbers drawn in the call and not yet computed */
    boolean isRandom(Node node) {
        return random[graph.position(node)];
    }
}
