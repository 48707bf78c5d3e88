package dev.ein4j.runtime;

import dev.ein4j.error.ClosedTensorException;
import dev.ein4j.ir.Movement;
import dev.ein4j.ir.Node;
import dev.ein4j.ir.Op;
import dev.ein4j.ir.View;

/**
 * Who owns a node's data and when it goes. Every node the tensor API makes is {@link #adopt adopted}:
 * it joins the innermost {@link Scope} of its thread (if any). A node's data holds one reference on
 * its {@link Storage} (a realized view of another node's data shares that storage and holds a
 * reference of its own); {@link #close closing} the node, or the end of its scope, gives it up, and
 * the storage's last reference releases the buffer. Nodes that are never realized hold nothing, so
 * the intermediate movements a pattern makes of its operands never keep their buffers alive.
 *
 * <p>Closing is final for the node: using it afterwards, directly or through a graph made before it
 * was closed that still needs its values, is a {@link ClosedTensorException}; nothing is silently
 * recomputed.
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
     * Registers a newly made node with this thread's innermost scope, if any.
     *
     * @param node a node just made
     * @return the node
     */
    public static Node adopt(Node node) {
        Scope scope = Scope.current();
        if (scope != null) {
            scope.add(node, state(node));
        }
        return node;
    }

    /**
     * The data of a node that is a chain of movements (and DETACH) over computed data, as a view of
     * that data, without binding anything: reading {@code x.slice(...)} or {@code x.get(i)} then
     * costs no kernel and keeps no reference.
     *
     * @param node a node
     * @return its data as a view of the chain's base, or null if it is not such a chain or one
     *     strided view cannot express it
     */
    static Realized viewOf(Node node) {
        java.util.ArrayDeque<Node> moves = new java.util.ArrayDeque<>();
        Node base = node;
        while (data(base) == null && (base.op().group() == Op.Group.MOVEMENT || base.op() == Op.DETACH) && !isClosed(base)) {
            moves.push(base);
            base = base.source(0);
        }
        Realized data = data(base);
        if (data == null || isClosed(base)) {
            return null;
        }
        View view = data.view();
        while (!moves.isEmpty() && view != null) {
            Node move = moves.pop();
            view = move.op() == Op.DETACH ? view : Movement.apply(move, view);
        }
        return view == null ? null : new Realized(data.storage(), view);
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
