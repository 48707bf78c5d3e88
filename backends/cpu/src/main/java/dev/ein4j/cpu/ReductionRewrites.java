package dev.ein4j.cpu;

import dev.ein4j.kernel.Kernel;
import dev.ein4j.kernel.SmallReductions;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Which form of a reduce kernel the tiles run: a reduction over few positions (a 2 × 2 or 3 × 3
 * pooling window, its gradient's tie count) as the elementwise kernel {@link SmallReductions}
 * makes of it, since the tiles walk a reduction's rows and these rows are as short as the window
 * (cnn-step's pooling reductions ran at 2 GB/s). Rewrites are cached per kernel, so a replayed step
 * pays a map lookup.
 */
final class ReductionRewrites {

    /**
     * {@code -Dein4j.cpu.unrollReductions=N}: reductions over at most N positions are unrolled (0: none).
     * The default, 16, covers pooling windows up to 4 × 4; the prologue is copied once per position.
     */
    static final int MAX_POSITIONS = Integer.getInteger("ein4j.cpu.unrollReductions", 16);
    /** The most instructions an unrolled kernel may hold (as the scheduler's largest fused kernels). */
    private static final int MAX_INSTRUCTIONS = 256;
    private static final int CACHED = 512;

    private final Map<Kernel, Kernel> rewrites = new LinkedHashMap<>(64, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<Kernel, Kernel> eldest) {
            return size() > CACHED;
        }
    };

    /**
     * @param kernel an elementwise or reduce kernel
     * @return the kernel to run: its unrolled form, or the kernel itself
     */
    Kernel runnable(Kernel kernel) {
        if (kernel.kind() != Kernel.Kind.REDUCE || MAX_POSITIONS <= 0) {
            return kernel;
        }
        synchronized (rewrites) {
            Kernel known = rewrites.get(kernel);
            if (known == null) {
                Kernel unrolled = SmallReductions.unrolled(kernel, MAX_POSITIONS, MAX_INSTRUCTIONS);
                known = unrolled == null ? kernel : unrolled;
                rewrites.put(kernel, known);
            }
            return known;
        }
    }
}
