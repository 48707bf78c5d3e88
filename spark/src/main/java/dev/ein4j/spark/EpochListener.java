package dev.ein4j.spark;

import java.io.PrintStream;
import java.util.Objects;

/**
 * Told on the driver after every epoch, and when an attempt at an epoch failed and is restarted from
 * the previous checkpoint.
 *
 * <pre>{@code
 * .onEpoch(report -> model.loadStateDict(report.stateDict()))    // evaluate between epochs
 * }</pre>
 */
@FunctionalInterface
public interface EpochListener {

    /** @param report the finished epoch */
    void afterEpoch(EpochReport report);

    /**
     * @param epoch the epoch
     * @param failedAttempt the attempt that failed, from 1
     * @param failure why
     */
    default void retrying(int epoch, int failedAttempt, SparkTrainingException failure) {
    }

    /**
     * @param out where to print
     * @return a listener printing each report ({@link EpochReport#toString()}) and each restart, a line each
     */
    static EpochListener printingTo(PrintStream out) {
        Objects.requireNonNull(out, "out");
        return new EpochListener() {
            @Override
            public void afterEpoch(EpochReport report) {
                out.println(Objects.requireNonNull(report, "report"));
            }

            @Override
            public void retrying(int epoch, int failedAttempt, SparkTrainingException failure) {
                Objects.requireNonNull(failure, "failure");
                out.println("epoch " + epoch + ", attempt " + failedAttempt + " failed (" + failure.getMessage()
                        + "); restarting it from the checkpoint of epoch " + (epoch - 1));
            }
        };
    }
}
