package dev.ein4j.opencl.codegen;

/**
 * What every generated program starts with: no contraction of a·b + c into fused multiply-adds
 * (the interpreter rounds each instruction), float64 where the device has it, and the helpers that
 * give OpenCL C the library's semantics where its built-ins differ: float to int conversion (Java's
 * saturating truncation, NaN to 0, then wrapping), max with NaN winning and +0 above −0 (OpenCL's
 * {@code fmax} drops NaN), and {@link dev.ein4j.kernel.CounterRandom}'s SplitMix64 bits.
 */
final class Preamble {

    private Preamble() {
    }

    private static final String PRAGMAS = """
            #pragma OPENCL FP_CONTRACT OFF
            """;

    private static final String COMMON = """
            int ein_f2i(float x) { return isnan(x) ? 0 : as_int((uint)as_ulong(convert_long_sat_rtz(x))); }
            long ein_f2l(float x) { return isnan(x) ? 0L : convert_long_sat_rtz(x); }
            float ein_maxf(float x, float y) {
                if (isnan(x) || isnan(y)) return NAN;
                return x > y ? x : x < y ? y : signbit(x) ? y : x;
            }
            ulong ein_mix(ulong z) {
                z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9UL;
                z = (z ^ (z >> 27)) * 0x94D049BB133111EBUL;
                return z ^ (z >> 31);
            }
            ulong ein_random_bits(ulong mixed_seed, long position) {
                return ein_mix(mixed_seed ^ ((ulong)position * 0xD1B54A32D192ED03UL));
            }
            """;

    private static final String DOUBLE = """
            #pragma OPENCL EXTENSION cl_khr_fp64 : enable
            int ein_d2i(double x) { return isnan(x) ? 0 : as_int((uint)as_ulong(convert_long_sat_rtz(x))); }
            long ein_d2l(double x) { return isnan(x) ? 0L : convert_long_sat_rtz(x); }
            double ein_maxd(double x, double y) {
                if (isnan(x) || isnan(y)) return (double)NAN;
                return x > y ? x : x < y ? y : signbit(x) ? y : x;
            }
            """;

    /** Index errors are recorded with a 64-bit atomic minimum ({@link IndexChecks}). */
    private static final String ATOMICS = """
            #pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable
            #pragma OPENCL EXTENSION cl_khr_int64_extended_atomics : enable
            """;

    /**
     * @param fp64 whether the device has float64
     * @param indexChecks whether the kernel checks indices (and needs 64-bit atomics)
     * @return the preamble's source
     */
    static String source(boolean fp64, boolean indexChecks) {
        return PRAGMAS + (fp64 ? DOUBLE : "") + (indexChecks ? ATOMICS : "") + COMMON;
    }

    /**
     * @param seed RAND's seed
     * @return the seed's half of {@link dev.ein4j.kernel.CounterRandom#bits}, computed once per launch on the host
     */
    static long mixedSeed(long seed) {
        return mix(seed + 0x9E3779B97F4A7C15L);
    }

    private static long mix(long z) {
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }
}
