package dev.ein4j.runtime;

import dev.ein4j.error.EinopsException;
import dev.ein4j.ir.Node;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * One open scope of a thread: the nodes made on that thread while it is the innermost, closed
 * together when it ends, except those kept. Scopes nest and belong to the thread that opened them;
 * the tensor package's {@code TensorScope} is the public face.
 */
public final class Scope {

    private static final ThreadLocal<Scope> INNERMOST = new ThreadLocal<>();

    private final Thread owner = Thread.currentThread();
    private final Scope parent;
    private final List<Node> nodes = new ArrayList<>();
    private final Map<Node, Boolean> kept = new IdentityHashMap<>();
    private boolean closed;

    private Scope(Scope parent) {
        this.parent = parent;
    }

    /** @return a new scope on this thread, inside the current one if any */
    public static Scope open() {
        Scope scope = new Scope(INNERMOST.get());
        INNERMOST.set(scope);
        return scope;
    }

    /** @return this thread's innermost open scope, or null */
    static Scope current() {
        return INNERMOST.get();
    }

    /**
     * Runs code whose new nodes belong to no scope (state that outlives the step that makes it:
     * optimizer moments, a leaf's gradient).
     *
     * @param action what to run
     * @param <T> its result
     * @return the result
     */
    public static <T> T unscoped(java.util.function.Supplier<T> action) {
        Scope saved = INNERMOST.get();
        INNERMOST.remove();
        try {
            return action.get();
        } finally {
            INNERMOST.set(saved);
        }
    }

    void add(Node node, NodeState state) {
        nodes.add(node);
        state.scope = this;
    }

    /**
     * Moves a node out of this scope, to the enclosing one (or none); it is computed when this
     * scope ends if it has not been, so that it no longer needs what the scope closes.
     *
     * @param node a node
     */
    public void keep(Node node) {
        checkOwner("keep");
        if (closed) {
            throw new EinopsException("this tensor scope has ended; keep tensors before it closes");
        }
        NodeState state = Lifetimes.state(node);
        if (state.scope != this) {
            return; // made elsewhere: nothing of this scope's to keep
        }
        kept.put(node, Boolean.TRUE);
        state.scope = parent;
        if (parent != null) {
            parent.nodes.add(node);
        }
    }

    /** @return whether this scope has ended */
    public boolean isClosed() {
        return closed;
    }

    /**
     * Ends the scope: scopes opened inside it end first, kept nodes not yet computed are computed,
     * then every other node made in it is closed (its buffer released when no view shares it).
     */
    public void close() {
        if (closed) {
            return;
        }
        checkOwner("close");
        Scope innermost = INNERMOST.get();
        while (innermost != null && innermost != this) {
            innermost.close(); // an inner scope left open ends with its parent
            innermost = INNERMOST.get();
        }
        try {
            List<Node> pending = new ArrayList<>();
            for (Node node : kept.keySet()) {
                if (!Results.isRealized(node)) {
                    pending.add(node);
                }
            }
            if (!pending.isEmpty()) {
                Realizer.realize(pending);
            }
        } finally {
            closed = true;
            INNERMOST.set(parent);
            for (Node node : nodes) {
                NodeState state = (NodeState) node.attachment();
                if (state != null && state.scope == this) {
                    state.close();
                }
            }
            nodes.clear();
            kept.clear();
        }
    }

    private void checkOwner(String action) {
        if (Thread.currentThread() != owner) {
            throw new EinopsException("a tensor scope belongs to the thread that opened it (" + owner.getName()
                    + "); it cannot " + action + " on thread " + Thread.currentThread().getName());
        }
    }
}
