package dev.ein4j.runtime;

import dev.ein4j.ir.Node;

/**
 * The computed data of nodes, kept on each node by the runtime ({@link Lifetimes}): the IR stays a
 * description, and a node's data goes when the node is closed, its scope ends, or nothing can reach
 * it any more. Leaves (user data) are bound when they are made, other nodes when a realization
 * computes them.
 */
public final class Results {

    private Results() {
    }

    /**
     * @param node a node
     * @return its computed data, or null if it is not computed (or not kept, or closed)
     */
    public static Realized get(Node node) {
        return Lifetimes.data(node);
    }

    /**
     * @param node a node
     * @return whether its data is computed
     */
    public static boolean isRealized(Node node) {
        return Lifetimes.data(node) != null;
    }

    /**
     * Binds data to a node; the first binding wins (two threads realizing one node keep one result).
     *
     * @param node the node
     * @param data its data
     * @return the data now bound to the node
     */
    public static Realized bind(Node node, Realized data) {
        return Lifetimes.bind(node, data);
    }
}
