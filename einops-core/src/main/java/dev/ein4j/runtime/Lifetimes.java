package dev.ein4j.runtime;

import dev.ein4j.error.ClosedTensorException;
import dev.ein4j.ir.Movement;
import dev.ein4j.ir.Node;
import dev.ein4j.ir.Op;
import dev.ein4j.ir.View;

/**
 * Who owns a node's data and when it goes. Every node the tensor API makes is {@link #adopt adopted}:
 * it joins the innermost {@link Scope} of its thread (if any), and a movement of computed data is
 * bound at once as a view of the same storage (so views share storage and keep it alive). A node's
 * data holds one reference on its {@link Storage}; {@link #close closing} the node, or the end of
 * its scope, gives it up, and the storage's last reference releases the buffer.
 *
 * <p>Closing is final for the node: using it afterwards is a {@link ClosedTensorException}. A node
 * that is not a leaf and was closed only because its scope ended is still a description of a
 * value; a realization that meets it while computing something else recomputes it.
 */
public final class Lifetimes {

    private Lifetimes() {
    }

    /** @return the node's state, attached on first use */
    static NodeState state(Node node) {
        Object attached = node.attachment();
        return attached != null ? (NodeState) attached : (NodeState) node.attach(new NodeState());
    }

    /**
     * Registers a newly made node: with this thread's innermost scope, and, for a movement of
     * computed data that one view can express, as that view of the same storage.
     *
     * @param node a node just made
     * @return the node
     */
    public static Node adopt(Node node) {
        Scope scope = Scope.current();
        if (scope != null) {
            scope.add(node, state(node));
        }
        if (node.op().group() == Op.Group.MOVEMENT || node.op() == Op.DETACH) {
            Realized source = data(node.source(0));
            if (source != null) {
                View view = node.op() == Op.DETACH ? source.view() : Movement.apply(node, source.view());
                if (view != null) {
                    state(node).bind(new Realized(source.storage(), view));
                }
            }
        }
        return node;
    }

    /**
     * Makes a node that belongs to no scope (a leaf's gradient, an optimizer's state), whatever
     * scope is open.
     *
     * @param node a node just made, not adopted
     * @return the node
     */
    public static Node adoptUnscoped(Node node) {
        return Scope.unscoped(() -> adopt(node));
    }

    /**
     * @param node a node
     * @return its computed data, or null
     */
    public static Realized data(Node node) {
        Object attached = node.attachment();
        return attached == null ? null : ((NodeState) attached).data();
    }

    /**
     * Binds computed data to a node (a reference on its storage); the first binding wins.
     *
     * @param node the node
     * @param data its data
     * @return the data now bound
     */
    public static Realized bind(Node node, Realized data) {
        Realized bound = state(node).bind(data);
        if (bound == data) {
            LiveMemory.describe(data.storage().backend(), data.storage().buffer(), node.shape());
        }
        return bound;
    }

    /**
     * Closes a node: its storage reference is given up now (the buffer is released once no view
     * shares it, and after the kernels already submitted that read it). A second call does nothing.
     *
     * @param node the node
     */
    public static void close(Node node) {
        state(node).close();
    }

    /**
     * Gives up a node's data without closing it (an intermediate result nobody reads any more).
     *
     * @param node the node
     */
    public static void forget(Node node) {
        Object attached = node.attachment();
        if (attached != null) {
            ((NodeState) attached).dropData();
        }
    }

    /**
     * @param node a node
     * @return whether it was closed
     */
    public static boolean isClosed(Node node) {
        Object attached = node.attachment();
        return attached != null && ((NodeState) attached).isClosed();
    }

    /**
     * @param node a node about to be used
     * @param operation what uses it, for the message
     * @throws ClosedTensorException if it was closed
     */
    public static void requireOpen(Node node, String operation) {
        if (isClosed(node)) {
            throw ClosedTensorException.of(node.dtype().numpyName(), node.shape(), operation);
        }
    }

    /**
     * Marks a node to be computed once, by the first realization that reads it, and kept: a random
     * tensor then has one set of values however many graphs read it.
     *
     * @param node a node just made
     */
    public static void keepOnFirstUse(Node node) {
        state(node).keepOnFirstUse = true;
    }

    /** @return whether the node is computed once and kept when first read */
    static boolean isKeptOnFirstUse(Node node) {
        Object attached = node.attachment();
        return attached != null && ((NodeState) attached).keepOnFirstUse;
    }
}
