package dev.ein4j.spark;

import dev.ein4j.tensor.Tensor;
import java.io.Serializable;

/**
 * The training loss of one worker's share of a global batch; serialized to the executors. It must be
 * the mean over the batch (one number): each worker's gradient is weighted by its share of the batch
 * when gradients are averaged, which makes the average the gradient of the mean over the whole global
 * batch.
 *
 * <pre>{@code
 * LossFunction loss = Functional::crossEntropy;          // logits [b, classes], int32 labels [b]
 * LossFunction regression = Functional::mseLoss;         // [b, ...] against float32 targets [b, ...]
 * }</pre>
 */
@FunctionalInterface
public interface LossFunction extends Serializable {

    /**
     * @param output the model's output for the batch, [b, ...]
     * @param target the batch's targets: int32 [b, ...] for an integer target column, float32 otherwise
     * @return the batch's mean loss, one element
     */
    Tensor compute(Tensor output, Tensor target);
}
