package dev.ein4j.spark;

import org.apache.spark.Partitioner;

/** Sends the example at an epoch position (the key) to the worker whose share of the batch holds it. */
final class WorkerPartitioner extends Partitioner {

    private static final long serialVersionUID = 1L;

    private final BatchSplit split;

    /** @param split the split of each global batch among the workers */
    WorkerPartitioner(BatchSplit split) {
        this.split = split;
    }

    @Override
    public int numPartitions() {
        return split.workers();
    }

    @Override
    public int getPartition(Object key) {
        return split.workerOf((int) ((Long) key % split.globalBatch()));
    }
}
