package dev.ein4j.tensor;

import java.util.function.Supplier;

/**
 * Whether new tensors record that gradients flow through them, per thread. Inside
 * {@link #noGrad(Supplier)} every tensor made is cut off from the gradient graph, as if detached:
 * use it for evaluation and for optimizer updates.
 */
public final class GradientMode {

    private static final ThreadLocal<int[]> DISABLED_DEPTH = ThreadLocal.withInitial(() -> new int[1]);

    private GradientMode() {
    }

    /** @return whether tensors made now on this thread track gradients */
    public static boolean isEnabled() {
        return DISABLED_DEPTH.get()[0] == 0;
    }

    /**
     * Runs code with gradient tracking off on this thread; scopes nest.
     *
     * @param body the code
     * @param <T> its result type
     * @return its result
     */
    public static <T> T noGrad(Supplier<T> body) {
        Arguments.notNull(body, "body");
        int[] depth = DISABLED_DEPTH.get();
        depth[0]++;
        try {
            return body.get();
        } finally {
            depth[0]--;
        }
    }

    /**
     * Runs code with gradient tracking off on this thread; scopes nest.
     *
     * @param body the code
     */
    public static void noGrad(Runnable body) {
        Arguments.notNull(body, "body");
        noGrad(() -> {
            body.run();
            return null;
        });
    }
}
