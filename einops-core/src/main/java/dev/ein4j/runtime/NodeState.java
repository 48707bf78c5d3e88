package dev.ein4j.runtime;

import dev.ein4j.ir.Node;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * What the runtime keeps on a node ({@link Node#attachment()}): its computed data, whether it was
 * closed, the scope that owns it, and whether it is computed once and kept when first read (random
 * tensors). Lock-free: the data moves by compare-and-set, so that binding, closing and reading from
 * several threads release each storage reference exactly once.
 */
final class NodeState {

    private static final VarHandle DATA;

    static {
        try {
            DATA = MethodHandles.lookup().findVarHandle(NodeState.class, "data", Realized.class);
        } catch (ReflectiveOperationException impossible) {
            throw new ExceptionInInitializerError(impossible);
        }
    }

    @SuppressWarnings("unused") // through DATA
    private volatile Realized data;
    private volatile boolean closed;
    /** The scope that closes this node when it ends, or null. */
    volatile Scope scope;
    /** Computed once, on the first realization that reads it, and kept (a random tensor's values). */
    volatile boolean keepOnFirstUse;

    /** @return the computed data, or null */
    Realized data() {
        return data;
    }

    /** @return whether the node was closed (explicitly, or by the end of its scope) */
    boolean isClosed() {
        return closed;
    }

    /**
     * Binds data, taking a reference on its storage. The first binding wins; a node closed in the
     * meantime gives its reference back at once.
     *
     * @param realized the data
     * @return the data now bound
     */
    Realized bind(Realized realized) {
        realized.storage().retain();
        if (!DATA.compareAndSet(this, null, realized)) {
            realized.storage().release();
            Realized existing = data;
            return existing != null ? existing : realized;
        }
        if (closed && DATA.compareAndSet(this, realized, null)) {
            realized.storage().release();
        }
        return realized;
    }

    /** Marks the node closed and gives up its storage reference; a second call does nothing. */
    void close() {
        closed = true;
        dropData();
    }

    /** Gives up the storage reference (the node stays usable: it is recomputed or fails if it is a closed leaf). */
    void dropData() {
        Realized old = (Realized) DATA.getAndSet(this, null);
        if (old != null) {
            old.storage().release();
        }
    }
}
