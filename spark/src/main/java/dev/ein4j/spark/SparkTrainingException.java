package dev.ein4j.spark;

import dev.ein4j.error.EinopsException;

/**
 * Distributed training failed: a worker's step threw, a worker was lost, or every attempt at an epoch
 * failed. The message names the epoch, the worker (its barrier task) and the step where known, and
 * what went wrong there; the cause is the worker's own exception when the driver could recover it.
 *
 * <pre>{@code
 * try {
 *     trainer.fit(rows);
 * } catch (SparkTrainingException failed) {
 *     // "epoch 2, worker 1 of 2, step 7: the loss function must return one number ..."
 *     System.err.println(failed.getMessage() + " (epoch " + failed.epoch() + ")");
 * }
 * }</pre>
 */
public class SparkTrainingException extends EinopsException {

    private static final long serialVersionUID = 1L;

    private final int epoch;
    private final int worker;
    private final int step;

    /**
     * @param message the complete, user-facing message
     * @param epoch the epoch (from 1), or 0 before training began
     * @param worker the worker's rank (its barrier task's partition), or -1 when no one worker failed
     * @param step the step within the epoch (from 1), or 0 when not inside a step
     * @param cause the lower-level failure, or null
     */
    public SparkTrainingException(String message, int epoch, int worker, int step, Throwable cause) {
        super(message, cause);
        this.epoch = epoch;
        this.worker = worker;
        this.step = step;
    }

    /** @return the epoch (from 1), or 0 before training began */
    public int epoch() {
        return epoch;
    }

    /** @return the failing worker's rank, or -1 when no one worker failed */
    public int worker() {
        return worker;
    }

    /** @return the step within the epoch (from 1), or 0 when the failure was outside a step */
    public int step() {
        return step;
    }
}
