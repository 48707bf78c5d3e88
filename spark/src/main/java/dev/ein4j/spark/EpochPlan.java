package dev.ein4j.spark;

import java.io.Serializable;
import java.util.SplittableRandom;

/**
 * Which examples an epoch trains on, in what order, and on which worker: the examples are put in an
 * order (a seeded random permutation of their indices, or their own order), cut into
 * {@link #steps()} global batches of n (the last, partial batch is dropped, as the single-process
 * loop does), and each batch is split among the workers by {@link BatchSplit}. Step s of the epoch
 * is then the batch at positions [s·n, (s+1)·n) on every worker: the same examples a single process
 * taking batches of n in that order would see.
 */
final class EpochPlan implements Serializable {

    private static final long serialVersionUID = 1L;

    private final BatchSplit split;
    private final int steps;
    private final int[] positions; // index -> position; null: the data set's own order

    private EpochPlan(BatchSplit split, int steps, int[] positions) {
        this.split = split;
        this.steps = steps;
        this.positions = positions;
    }

    /**
     * @param examples the number of examples, at least one global batch
     * @param split the batch and its split among workers
     * @param shuffle whether to visit the examples in a random order
     * @param seed the seed of the order
     * @param epoch the epoch (from 1): each epoch has its own order
     * @return the plan
     */
    static EpochPlan create(long examples, BatchSplit split, boolean shuffle, long seed, int epoch) {
        int steps = Math.toIntExact(examples / split.globalBatch());
        return new EpochPlan(split, steps, shuffle ? permutation(Math.toIntExact(examples), seed, epoch) : null);
    }

    /** @return the global batches of the epoch */
    int steps() {
        return steps;
    }

    /** @return the split of each batch among the workers */
    BatchSplit split() {
        return split;
    }

    /**
     * @param index an example's index in the data set's order
     * @return its position in the epoch's order, or -1 if it falls in the dropped partial batch
     */
    long position(long index) {
        long position = positions == null ? index : positions[Math.toIntExact(index)];
        return position < (long) steps * split.globalBatch() ? position : -1;
    }

    /**
     * A uniformly random permutation (Fisher–Yates) from a seed mixed with the epoch. It is used as
     * index → position; the inverse of a uniform permutation is uniform, so it need not be inverted.
     */
    private static int[] permutation(int size, long seed, int epoch) {
        SplittableRandom random = new SplittableRandom(seed * 0x9E3779B97F4A7C15L + epoch);
        int[] order = new int[size];
        for (int i = 0; i < size; i++) {
            order[i] = i;
        }
        for (int i = size - 1; i > 0; i--) {
            int j = random.nextInt(i + 1);
            int swap = order[i];
            order[i] = order[j];
            order[j] = swap;
        }
        return order;
    }
}
