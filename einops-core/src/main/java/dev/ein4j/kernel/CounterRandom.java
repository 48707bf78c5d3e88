package dev.ein4j.kernel;

/**
 * The definition of RAND, shared by every backend so that the same seed gives the same bits
 * everywhere: element i of a RAND tensor with seed s is {@code uniform(s, i)}.
 *
 * <p>The generator is counter-based (no state): two rounds of the SplitMix64 finaliser over the
 * seed and the index. The top 24 bits make a float32 in [0, 1), the top 53 bits a float64 in [0, 1).
 */
public final class CounterRandom {

    private CounterRandom() {
    }

    /**
     * @param seed the seed of the RAND node
     * @param index the element's flat row-major index
     * @return 64 random bits
     */
    public static long bits(long seed, long index) {
        return mix(mix(seed + 0x9E3779B97F4A7C15L) ^ (index * 0xD1B54A32D192ED03L));
    }

    /**
     * @param seed the seed
     * @param index the element's flat index
     * @return a float32 value in [0, 1), as a double
     */
    public static double uniformFloat(long seed, long index) {
        return (bits(seed, index) >>> 40) * 0x1.0p-24;
    }

    /**
     * @param seed the seed
     * @param index the element's flat index
     * @return a float64 value in [0, 1)
     */
    public static double uniformDouble(long seed, long index) {
        return (bits(seed, index) >>> 11) * 0x1.0p-53;
    }

    private static long mix(long z) {
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }
}
