package dev.ein4j.runtime;

import dev.ein4j.ir.Node;
import java.util.Map;
import java.util.WeakHashMap;

/**
 * The computed data of nodes: the runtime's side table, so that the IR stays a pure description
 * (the graph package knows nothing of buffers). An entry lives as long as its node is reachable;
 * leaves (user data) are bound when they are made, other nodes when a realization computes them.
 */
public final class Results {

    private static final Map<Node, Realized> TABLE = new WeakHashMap<>();

    private Results() {
    }

    /**
     * @param node a node
     * @return its computed data, or null if it is not computed (or not kept)
     */
    public static Realized get(Node node) {
        synchronized (TABLE) {
            return TABLE.get(node);
        }
    }

    /**
     * @param node a node
     * @return whether its data is computed
     */
    public static boolean isRealized(Node node) {
        return get(node) != null;
    }

    /**
     * Binds data to a node; the first binding wins (two threads realizing one node keep one result).
     *
     * @param node the node
     * @param data its data
     * @return the data now bound to the node
     */
    public static Realized bind(Node node, Realized data) {
        synchronized (TABLE) {
            Realized existing = TABLE.putIfAbsent(node, data);
            return existing != null ? existing : data;
        }
    }
}
