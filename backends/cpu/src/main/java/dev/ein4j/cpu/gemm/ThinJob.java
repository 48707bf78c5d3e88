package dev.ein4j.cpu.gemm;

/** One thin product for {@link ThinSplit}, which cuts C into ranges of columns of one batch entry. */
interface ThinJob {

    /**
     * Computes C[b, all rows, from .. to] and tells the listener of it, on the calling thread.
     *
     * @param b the batch entry
     * @param from the first column (inclusive)
     * @param to the end column (exclusive)
     */
    void run(int b, int from, int to);

    /** @return the bytes of one element of B, to turn the elements a task reads into bytes */
    int elementBytes();
}
