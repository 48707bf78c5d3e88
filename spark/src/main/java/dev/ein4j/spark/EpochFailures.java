package dev.ein4j.spark;

import java.util.ArrayList;
import java.util.List;

/**
 * Explains on the driver why an attempt at an epoch failed, from the workers' {@link FailureReport}s
 * (Spark reports a failed barrier stage without the task's exception): the first worker that failed
 * of its own accord, else one that lost a peer, else Spark's own message (an executor lost without a
 * word). The answer says whether another attempt can help.
 */
final class EpochFailures {

    private EpochFailures() {
    }

    /** Why an attempt failed, and whether trying again can help. */
    record Diagnosis(SparkTrainingException failure, boolean retryable) {
    }

    /**
     * @param sparkFailure what the job threw
     * @param store where the reports are
     * @param run the fit's identifier
     * @param epoch the epoch
     * @param attempt the attempt
     * @param workers the number of workers
     * @return the diagnosis
     */
    static Diagnosis diagnose(Throwable sparkFailure, CheckpointStore store, String run, int epoch, int attempt, int workers) {
        List<FailureReport> reports = new ArrayList<>();
        for (int worker = 0; worker < workers; worker++) {
            byte[] bytes = readQuietly(store, FailureReport.fileName(run, epoch, attempt, worker));
            FailureReport report = bytes == null ? null : FailureReport.parse(bytes);
            if (report != null) {
                reports.add(report);
            }
        }
        FailureReport chosen = reports.stream().filter(FailureReport::primary).findFirst()
                .orElse(reports.isEmpty() ? null : reports.get(0));
        if (chosen != null) {
            return new Diagnosis(new SparkTrainingException(chosen.message(), epoch, chosen.worker(), chosen.step(),
                    sparkFailure), chosen.retryable());
        }
        return new Diagnosis(new SparkTrainingException("epoch " + epoch + ": the barrier stage failed without a report from "
                + "any worker (an executor was lost?): " + firstLine(sparkFailure.getMessage()), epoch, -1, 0, sparkFailure),
                true);
    }

    private static byte[] readQuietly(CheckpointStore store, String name) {
        try {
            return store.readReport(name);
        } catch (RuntimeException unreadable) {
            return null;
        }
    }

    /**
     * @param message a message, maybe of many lines (Spark's carry stack traces)
     * @return its first line
     */
    static String firstLine(String message) {
        if (message == null) {
            return "no message";
        }
        int end = message.indexOf('\n');
        return end < 0 ? message : message.substring(0, end);
    }
}
