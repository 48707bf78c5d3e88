package dev.ein4j.cpu.gemm;

/**
 * Told when a block of C is final, so that a caller can apply an epilogue (bias, activation, a cast)
 * while the block is still in cache.
 */
@FunctionalInterface
public interface BlockListener {

    /**
     * Called once C[batch, rowFrom..rowTo, colFrom..colTo] holds its final values (all of K summed).
     * May run on any worker thread, concurrently for disjoint blocks; every element of C is covered by
     * exactly one call.
     *
     * @param batch the batch index
     * @param rowFrom the first row (inclusive)
     * @param rowTo the end row (exclusive)
     * @param colFrom the first column (inclusive)
     * @param colTo the end column (exclusive)
     */
    void finished(int batch, int rowFrom, int rowTo, int colFrom, int colTo);
}
