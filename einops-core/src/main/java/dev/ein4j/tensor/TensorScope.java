package dev.ein4j.tensor;

import dev.ein4j.runtime.Scope;

/**
 * The tensors made on one thread while this scope is open, closed together when it closes
 * ({@link Tensor#scope()}): their buffers go back to the backend deterministically, with no
 * garbage collector involved. Scopes nest and belong to the thread that opened them; closing one
 * closes the scopes opened inside it first.
 *
 * <pre>{@code
 * Tensor kept;
 * try (TensorScope scope = Tensor.scope()) {
 *     Tensor h = x.mul(w).relu();             // closed with the scope
 *     kept = scope.keep(h.sum());             // moved to the enclosing scope (or none)
 * }
 * double total = kept.item();
 * }</pre>
 *
 * <p>A kept tensor that is not computed yet is computed when the scope closes, so that it no longer
 * needs what the scope releases; differentiate inside the scope (a kept loss can be read after it,
 * not differentiated).
 */
public final class TensorScope implements AutoCloseable {

    private final Scope scope;

    TensorScope(Scope scope) {
        this.scope = scope;
    }

    /**
     * Moves a tensor made in this scope out of it: to the enclosing scope, or to none.
     *
     * @param tensor a tensor
     * @return the same tensor
     */
    public Tensor keep(Tensor tensor) {
        Arguments.notNull(tensor, "tensor");
        scope.keep(tensor.node());
        return tensor;
    }

    /**
     * Runs code whose tensors belong to no scope, whatever scopes are open on this thread: state that
     * outlives the step that makes it (an optimizer's moments made on its first step, a cache).
     *
     * @param action what to run
     * @param <T> its result
     * @return the result
     */
    public static <T> T unscoped(java.util.function.Supplier<T> action) {
        Arguments.notNull(action, "action");
        return Scope.unscoped(action);
    }

    /** @return whether this scope has closed */
    public boolean isClosed() {
        return scope.isClosed();
    }

    /** Closes the scopes opened inside this one, computes kept tensors, and closes every other tensor made in it. */
    @Override
    public void close() {
        scope.close();
    }
}
