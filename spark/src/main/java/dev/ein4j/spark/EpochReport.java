package dev.ein4j.spark;

import dev.ein4j.tensor.Tensor;
import java.util.Locale;
import java.util.Map;
import java.util.function.Supplier;

/**
 * What the driver learns when an epoch has finished on every worker: the mean training loss, the
 * examples and steps, the wall time of the epoch's Spark job (shuffling the examples to the workers,
 * restoring the replicas, the steps, the checkpoint), how many attempts it took, and its checkpoint,
 * which {@link #stateDict()} reads on the driver (to evaluate the model, say).
 *
 * <pre>{@code
 * .onEpoch(report -> System.out.println(report))   // epoch 1/2: loss 0.6021, 4,992 examples in 12.3 s (2 workers)
 * }</pre>
 */
public final class EpochReport {

    private final int epoch;
    private final int epochs;
    private final double meanLoss;
    private final long examples;
    private final int steps;
    private final double seconds;
    private final int workers;
    private final int attempts;
    private final String checkpoint;
    private final Supplier<Map<String, Tensor>> state;

    EpochReport(int epoch, int epochs, double meanLoss, long examples, int steps, double seconds, int workers, int attempts,
            String checkpoint, Supplier<Map<String, Tensor>> state) {
        this.epoch = epoch;
        this.epochs = epochs;
        this.meanLoss = meanLoss;
        this.examples = examples;
        this.steps = steps;
        this.seconds = seconds;
        this.workers = workers;
        this.attempts = attempts;
        this.checkpoint = checkpoint;
        this.state = state;
    }

    /** @return the epoch, from 1 */
    public int epoch() {
        return epoch;
    }

    /** @return the number of epochs of the fit */
    public int epochs() {
        return epochs;
    }

    /** @return the mean of the workers' batch losses, each weighted by its share: the mean loss of the epoch's steps */
    public double meanLoss() {
        return meanLoss;
    }

    /** @return the examples trained on (the steps times the global batch) */
    public long examples() {
        return examples;
    }

    /** @return the global steps */
    public int steps() {
        return steps;
    }

    /** @return the epoch's wall time on the driver, in seconds (of its successful attempt) */
    public double seconds() {
        return seconds;
    }

    /** @return examples per second over the whole epoch */
    public double examplesPerSecond() {
        return examples / seconds;
    }

    /** @return the number of workers */
    public int workers() {
        return workers;
    }

    /** @return 1, or more when failed attempts were restarted from the previous checkpoint */
    public int attempts() {
        return attempts;
    }

    /** @return where this epoch's checkpoint is */
    public String checkpoint() {
        return checkpoint;
    }

    /**
     * Reads the model's state after this epoch from its checkpoint (on the driver; each call reads the file).
     *
     * @return the state dict by the model's names, ready for {@code Module.loadStateDict}
     */
    public Map<String, Tensor> stateDict() {
        return state.get();
    }

    @Override
    public String toString() {
        return String.format(Locale.ROOT, "epoch %d/%d: loss %.4f, %,d examples in %.1f s (%d workers)%s", epoch, epochs,
                meanLoss, examples, seconds, workers, attempts > 1 ? ", " + attempts + " attempts" : "");
    }
}
