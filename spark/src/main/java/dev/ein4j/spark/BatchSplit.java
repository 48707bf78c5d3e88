package dev.ein4j.spark;

import java.io.Serializable;

/**
 * How one global batch of n examples is cut among W workers: worker w takes positions
 * [⌊w·n/W⌋, ⌊(w+1)·n/W⌋) of every batch, so shares differ by at most one example (n = 128, W = 3:
 * 42, 43 and 43).
 */
final class BatchSplit implements Serializable {

    private static final long serialVersionUID = 1L;

    private final int globalBatch;
    private final int workers;

    /**
     * @param globalBatch n, at least W
     * @param workers W
     */
    BatchSplit(int globalBatch, int workers) {
        this.globalBatch = globalBatch;
        this.workers = workers;
    }

    /** @return n, the examples of one step over all workers */
    int globalBatch() {
        return globalBatch;
    }

    /** @return W */
    int workers() {
        return workers;
    }

    /**
     * @param worker a rank
     * @return the first position of its share within a batch
     */
    int offset(int worker) {
        return (int) ((long) worker * globalBatch / workers);
    }

    /**
     * @param worker a rank
     * @return how many examples of each batch it takes
     */
    int share(int worker) {
        return offset(worker + 1) - offset(worker);
    }

    /**
     * @param position a position within a batch, in [0, n)
     * @return the rank whose share holds it
     */
    int workerOf(int position) {
        // the largest w with offset(w) <= position; offset is non-decreasing, so a binary search
        int low = 0;
        int high = workers - 1;
        while (low < high) {
            int middle = (low + high + 1) >>> 1;
            if (offset(middle) <= position) {
                low = middle;
            } else {
                high = middle - 1;
            }
        }
        return low;
    }
}
