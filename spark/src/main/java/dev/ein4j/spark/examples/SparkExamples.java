package dev.ein4j.spark.examples;

import java.util.Arrays;

/**
 * The Spark examples jar's entry point:
 * {@code java --add-modules jdk.incubator.vector -jar spark/target/ein4j-spark-examples.jar COMMAND [OPTIONS]},
 * or {@code spark-submit --class dev.ein4j.spark.examples.SparkExamples ... ein4j-spark-examples.jar COMMAND}.
 */
public final class SparkExamples {

    private SparkExamples() {
    }

    /**
     * @param args a command and its options
     * @throws Exception if the examples cannot start (Spark's jars missing)
     */
    public static void main(String[] args) throws Exception {
        if (!BundledSpark.present()) {
            BundledSpark.relaunch(SparkExamples.class, args);
            return;
        }
        if (args.length == 0 || !args[0].equals("fashion-mnist")) {
            if (args.length > 0) {
                System.err.println("unknown command " + args[0]);
            }
            System.err.println("ein4j Spark examples\n  fashion-mnist [--master MASTER] [--data embedded|DIR] [--epochs N] "
                    + "[--workers W]\n                  the flagship CNN trained data-parallel, one replica per worker");
            System.exit(args.length == 0 ? 0 : 2);
            return;
        }
        QuietLogging.unlessConfigured();
        SparkFashionMnist.main(Arrays.copyOfRange(args, 1, args.length));
    }
}
