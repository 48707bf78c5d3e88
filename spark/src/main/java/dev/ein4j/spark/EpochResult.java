package dev.ein4j.spark;

import java.io.Serializable;

/**
 * What one worker's task returns to the driver at the end of an epoch: a few numbers, never tensors.
 *
 * @param worker the rank
 * @param lossSum Σ over its steps of (the share's mean loss × the share's size)
 * @param examples the examples it trained on
 * @param exchangedNumbers the numbers it summed with its peers per step (gradients, flags, buffers)
 */
record EpochResult(int worker, double lossSum, long examples, int exchangedNumbers) implements Serializable {
}
