package dev.ein4j.spark;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Properties;

/**
 * What a failing worker leaves in the checkpoint directory for the driver: Spark reports a failed
 * barrier stage without the task's exception, so the worker writes where it was, what went wrong,
 * whether it is a consequence of another worker's failure (a lost peer: not primary), and whether
 * running the epoch again can help (not for the library's own errors, such as a loss of the wrong
 * shape, which would fail again). Plain text (a properties file), never a serialized object.
 *
 * @param epoch the epoch
 * @param attempt the epoch's attempt, from 1
 * @param worker the worker's rank
 * @param step the step, or 0 outside the steps
 * @param primary false for a lost peer or a failed rendezvous
 * @param retryable whether another attempt can succeed
 * @param message the user-facing message
 */
record FailureReport(int epoch, int attempt, int worker, int step, boolean primary, boolean retryable, String message) {

    /**
     * @param run the fit's identifier
     * @param epoch the epoch
     * @param attempt the attempt
     * @param worker the rank
     * @return the report's file name
     */
    static String fileName(String run, int epoch, int attempt, int worker) {
        return run + "-epoch-" + epoch + "-attempt-" + attempt + "-worker-" + worker + ".properties";
    }

    /** @return the report as a properties file */
    byte[] toBytes() {
        Properties properties = new Properties();
        properties.setProperty("epoch", Integer.toString(epoch));
        properties.setProperty("attempt", Integer.toString(attempt));
        properties.setProperty("worker", Integer.toString(worker));
        properties.setProperty("step", Integer.toString(step));
        properties.setProperty("primary", Boolean.toString(primary));
        properties.setProperty("retryable", Boolean.toString(retryable));
        properties.setProperty("message", message);
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try {
            properties.store(bytes, "ein4j-spark worker failure");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return bytes.toByteArray();
    }

    /**
     * @param bytes a file written by {@link #toBytes()}
     * @return the report, or null if it cannot be read as one
     */
    static FailureReport parse(byte[] bytes) {
        Properties properties = new Properties();
        try {
            properties.load(new ByteArrayInputStream(bytes));
            return new FailureReport(Integer.parseInt(properties.getProperty("epoch")),
                    Integer.parseInt(properties.getProperty("attempt")), Integer.parseInt(properties.getProperty("worker")),
                    Integer.parseInt(properties.getProperty("step")), Boolean.parseBoolean(properties.getProperty("primary")),
                    Boolean.parseBoolean(properties.getProperty("retryable")),
                    properties.getProperty("message"));
        } catch (IOException | RuntimeException unreadable) {
            return null;
        }
    }
}
