package dev.ein4j.cpu.gemm;

/**
 * A float micro-kernel: one MR × NR tile of C from an MR-row sliver of packed A and an NR-column sliver
 * of packed B (see {@link FloatPacking} for the layouts). Implementations must not touch anything
 * outside the tile, and must not load {@code jdk.incubator.vector} unless they are the vector ones.
 */
interface FloatKernel {

    /** @return the tile's rows */
    int mr();

    /** @return the tile's columns */
    int nr();

    /**
     * Computes the tile {@code Σ_p A[r, p] · B[p, j]} over {@code kc} steps and stores it to C.
     *
     * @param kc the number of K steps (at least 1)
     * @param ap packed A; row r of the sliver is at {@code aOff + r·kc}, {@code kc} values long
     * @param aOff the sliver's start in {@code ap}
     * @param bp packed B; step p of the sliver is at {@code bOff + p·NR}, NR values long
     * @param bOff the sliver's start in {@code bp}
     * @param c the output array
     * @param rowIdx the index in {@code c} of each row's column 0 (the row must be contiguous in C)
     * @param rowAt where the tile's first row is in {@code rowIdx}
     * @param col the tile's first column, added to each row's index
     * @param add whether to add to C (a later K block) rather than overwrite it (the first)
     */
    void tile(int kc, float[] ap, int aOff, float[] bp, int bOff, float[] c, int[] rowIdx, int rowAt, int col,
            boolean add);
}
