package dev.ein4j.spark;

import java.io.Serializable;
import java.time.Duration;

/**
 * What every worker task needs, serialized with it: the model, optimizer and loss to train, how to
 * read examples, where checkpoints and failure reports go, and how long to wait for a peer.
 *
 * @param model makes the replica
 * @param optimizer makes its optimizer
 * @param loss the batch loss
 * @param columns how rows become tensors
 * @param store the checkpoint directory
 * @param run this fit's identifier (names its failure reports)
 * @param peerTimeout how long a worker waits for a peer before giving up
 */
record TrainingSpec(ModelSupplier model, OptimizerFactory optimizer, LossFunction loss, ExampleColumns columns,
        CheckpointStore store, String run, Duration peerTimeout) implements Serializable {
}
