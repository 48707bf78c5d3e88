package dev.ein4j.tensor;

import dev.ein4j.kernel.CounterRandom;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A source of random tensors, like PyTorch's {@code torch.Generator}: the same seed and the same
 * sequence of draws give the same numbers, on every backend and every thread count.
 *
 * <p>Generation is counter-based: each draw takes the next key of this generator's stream
 * ({@link CounterRandom#bits(long, long)} of the seed and a draw counter) and makes a lazy RAND node
 * with it; element i of that node is a pure function of (key, i). Nothing is computed until the
 * tensor is read, and no state is shared with the backend. Thread-safe.
 *
 * <pre>{@code
 * Generator generator = new Generator(42);
 * Tensor w = Tensor.randn(generator, 784, 256);       // the same values at every run
 * Tensor.manualSeed(7);                               // reseeds the global generator
 * Tensor noise = Tensor.rand(8, 3, 32, 32);           // drawn from the global generator
 * }</pre>
 */
public final class Generator {

    /** The global generator's seed until {@link Tensor#manualSeed(long)} changes it (PyTorch's default). */
    public static final long DEFAULT_SEED = 67280421310721L;

    private static volatile Generator global = new Generator(DEFAULT_SEED);

    private final long seed;
    private final AtomicLong draws = new AtomicLong();

    /** @param seed the seed: equal seeds give equal streams */
    public Generator(long seed) {
        this.seed = seed;
    }

    /** @return the seed this generator started from */
    public long seed() {
        return seed;
    }

    /** @return the number of draws made so far */
    public long draws() {
        return draws.get();
    }

    /** @return the key of the next draw (advances the stream) */
    long nextKey() {
        return CounterRandom.bits(seed, draws.getAndIncrement());
    }

    /** @return the generator that {@code Tensor.rand(shape)} and friends draw from */
    public static Generator global() {
        return global;
    }

    /** @param seed the new seed of the global generator (a fresh stream) */
    static void reseedGlobal(long seed) {
        global = new Generator(seed);
    }

    @Override
    public String toString() {
        return "Generator(seed " + seed + ", " + draws.get() + " draws)";
    }
}
