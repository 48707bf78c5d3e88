package dev.ein4j.cpu.gemm;

import java.util.Locale;

/**
 * How many vector registers the machine has, which picks the Vector API micro-tile: the Vector API does
 * not say, so it is inferred from the architecture and the preferred species' width. x86 has 32 with
 * AVX-512 (a 512-bit preferred species) and 16 without (SSE, AVX2); ARM (NEON, SVE) has 32; anything else
 * is taken to have 16, which only costs speed where it has more. The system property
 * {@value #PROPERTY} forces the count (16 or 32).
 */
final class VectorRegisters {

    /** The system property that forces the register count. */
    static final String PROPERTY = "ein4j.cpu.gemm.vectorRegisters";

    private VectorRegisters() {
    }

    /**
     * @param architecture the {@code os.arch} system property
     * @param preferredBits the preferred species' width in bits
     * @param forced the {@value #PROPERTY} property, or null
     * @return 16 or 32
     */
    static int count(String architecture, int preferredBits, String forced) {
        if (forced != null && !forced.isBlank()) {
            try {
                return Integer.parseInt(forced.trim()) >= 32 ? 32 : 16;
            } catch (NumberFormatException e) {
                // fall through to the inferred count
            }
        }
        String arch = architecture == null ? "" : architecture.toLowerCase(Locale.ROOT);
        if (arch.equals("aarch64") || arch.equals("arm64")) {
            return 32;
        }
        boolean x86 = arch.equals("amd64") || arch.equals("x86_64") || arch.equals("x86") || arch.equals("i386");
        return x86 && preferredBits >= 512 ? 32 : 16;
    }

    /**
     * @param registers 16 or more
     * @return whether the 5 × 4-vector tile fits: 20 accumulators, 4 loads of B and 5 broadcasts of A
     *     (C2 issues them all before the FMAs) need 29; else the 3 × 3 tile, which needs 15
     */
    static boolean fitsLargeTile(int registers) {
        return registers >= 5 * 4 + 4 + 5;
    }
}
