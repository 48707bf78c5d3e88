package dev.ein4j.spark.examples;

import dev.ein4j.error.EinopsException;
import dev.ein4j.examples.fashion.FashionCnn;
import dev.ein4j.examples.fashion.FashionData;
import dev.ein4j.nn.Functional;
import dev.ein4j.nn.optim.Adam;
import dev.ein4j.spark.SparkTrainer;
import dev.ein4j.tensor.Generator;
import dev.ein4j.tensor.GradientMode;
import dev.ein4j.tensor.Tensor;
import dev.ein4j.tensor.TensorScope;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.api.java.function.MapFunction;
import org.apache.spark.broadcast.Broadcast;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Encoders;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;

/**
 * {@code fashion-mnist}: trains the flagship CNN ({@link FashionCnn}) data-parallel on Spark and
 * prints, after each epoch, the mean training loss, the test accuracy (evaluated on the driver from
 * the epoch's checkpoint), the epoch's time and the number of workers:
 *
 * <pre>
 * java --add-modules jdk.incubator.vector -jar spark/target/ein4j-spark-examples.jar fashion-mnist \
 *      --master local[2] --data embedded --epochs 2
 * epoch 1: loss 0.8123, test accuracy 74.10%, 14.2 s (2 workers)
 * </pre>
 *
 * The same model, optimizer (Adam, learning rate 2e-3), global batch (128) and seed as the
 * single-process {@code fashion-mnist} of the examples jar. Options: {@code --master} (else
 * spark-submit's, else {@code local[2]}), {@code --data embedded|DIR} (else Debian's directory when
 * installed, else the embedded subset), {@code --epochs N} (2), {@code --workers W} (the default
 * parallelism), {@code --batch N}, {@code --lr RATE}, {@code --seed N}, {@code --checkpoint DIR}
 * (a directory every executor reaches; a temporary one in local mode).
 */
public final class SparkFashionMnist {

    static final String USAGE = "usage: fashion-mnist [--master MASTER] [--data embedded|DIR] [--epochs N] [--workers W] "
            + "[--batch N] [--lr RATE] [--seed N] [--checkpoint DIR]";
    private static final StructType SCHEMA = new StructType()
            .add("features", DataTypes.createArrayType(DataTypes.FloatType, false), false)
            .add("label", DataTypes.IntegerType, false);
    private static final int PIXELS = 28 * 28;

    private SparkFashionMnist() {
    }

    /** @param args the options */
    public static void main(String[] args) {
        Options options;
        try {
            options = Options.parse(args);
        } catch (IllegalArgumentException bad) {
            if (!bad.getMessage().isEmpty()) {
                System.err.println(bad.getMessage());
            }
            System.err.println(USAGE);
            System.exit(bad.getMessage().isEmpty() ? 0 : 2);
            return;
        }
        SparkSession spark = session(options.master());
        try {
            run(spark, options);
        } catch (EinopsException failed) { // a bad --data directory, a failed epoch: one line, status 2
            System.err.println(failed.getMessage());
            spark.stop();
            System.exit(2);
        } finally {
            spark.stop();
        }
    }

    /**
     * Trains and evaluates.
     *
     * @param spark the session
     * @param options the options
     * @return the test accuracy after each epoch
     */
    static List<Double> run(SparkSession spark, Options options) {
        FashionData data = FashionData.load(options.data());
        long seed = options.seed();
        double learningRate = options.learningRate();
        FashionCnn evaluated = new FashionCnn(32, 64, 128, new Generator(seed));
        List<Double> accuracies = new ArrayList<>();
        SparkTrainer.Builder trainer = SparkTrainer.builder()
                .model(() -> new FashionCnn(32, 64, 128, new Generator(seed)))
                .optimizer(parameters -> new Adam(parameters, learningRate))
                .loss(Functional::crossEntropy)
                .inputColumn("features", 1, 28, 28)
                .targetColumn("label")
                .globalBatch(options.batch())
                .epochs(options.epochs())
                .seed(seed)
                .onEpoch(report -> accuracies.add(printEpoch(report.epoch(), report.meanLoss(), report.seconds(),
                        report.workers(), report.stateDict(), evaluated, data)));
        if (options.workers() > 0) {
            trainer.workers(options.workers());
        }
        if (options.checkpoint() != null) {
            trainer.checkpointDirectory(options.checkpoint());
        }
        trainer.fit(trainingRows(spark, data));
        return accuracies;
    }

    /**
     * Evaluates an epoch's state and prints its line.
     *
     * @param epoch the epoch
     * @param loss its mean training loss
     * @param seconds its wall time
     * @param workers the number of workers
     * @param state the model's state after it
     * @param model a model to evaluate the state with
     * @param data the test images
     * @return the test accuracy
     */
    static double printEpoch(int epoch, double loss, double seconds, int workers, Map<String, Tensor> state,
            FashionCnn model, FashionData data) {
        model.loadStateDict(state);
        double accuracy = testAccuracy(model, data);
        System.out.printf(Locale.ROOT, "epoch %d: loss %.4f, test accuracy %.2f%%, %.1f s (%d workers)%n", epoch, loss,
                100 * accuracy, seconds, workers);
        return accuracy;
    }

    /** The fraction of test images classified correctly, in evaluation mode, on the driver. */
    @SuppressWarnings("try") // a tensor scope is opened for what its close releases
    static double testAccuracy(FashionCnn model, FashionData data) {
        model.eval();
        int correct = 0;
        int chunk = 500;
        for (int start = 0; start < data.testSize(); start += chunk) {
            int first = start;
            int count = Math.min(chunk, data.testSize() - start);
            try (TensorScope batch = Tensor.scope()) {
                int[] predicted = GradientMode.noGrad(() -> model.forward(data.testBatch(first, count)).argmax(1, false)
                        .toIntArray());
                for (int i = 0; i < count; i++) {
                    correct += predicted[i] == data.testLabels()[first + i] ? 1 : 0;
                }
            }
        }
        return correct / (double) data.testSize();
    }

    /**
     * The training images as rows (features: 784 floats, label: int), in slices of about 2,000 rows.
     * The arrays go to the executors once, as a broadcast, and each slice makes its rows from it: rows
     * made on the driver would travel inside every task that reads them, for every stage.
     */
    static Dataset<Row> trainingRows(SparkSession spark, FashionData data) {
        JavaSparkContext context = JavaSparkContext.fromSparkContext(spark.sparkContext());
        Broadcast<float[]> images = context.broadcast(data.trainImages());
        Broadcast<int[]> labels = context.broadcast(data.trainLabels());
        int slices = Math.max(context.defaultParallelism(), data.trainSize() / 2000);
        return spark.range(0, data.trainSize(), 1, slices).map((MapFunction<Long, Row>) index -> {
            int i = Math.toIntExact(index);
            float[] image = new float[PIXELS];
            System.arraycopy(images.value(), i * PIXELS, image, 0, PIXELS);
            return RowFactory.create(image, labels.value()[i]);
        }, Encoders.row(SCHEMA));
    }

    /**
     * A session: the given master, else the one spark-submit set, else {@code local[2]}. Local
     * sessions listen on the loopback interface only and show no UI.
     */
    static SparkSession session(String master) {
        SparkSession.Builder builder = SparkSession.builder().appName("ein4j fashion-mnist")
                .config("spark.ui.showConsoleProgress", "false");
        String chosen = master != null ? master : System.getProperty("spark.master", "local[2]");
        builder.master(chosen);
        if (chosen.startsWith("local")) {
            builder.config("spark.driver.host", "127.0.0.1").config("spark.driver.bindAddress", "127.0.0.1")
                    .config("spark.ui.enabled", "false");
        }
        return builder.getOrCreate();
    }

    /** Parsed command-line options. */
    record Options(String master, String data, int epochs, int workers, int batch, double learningRate, long seed,
            String checkpoint) {

        static Options parse(String[] args) {
            String master = null;
            String data = null;
            int epochs = 2;
            int workers = 0;
            int batch = 128;
            double learningRate = 2e-3;
            long seed = 7;
            String checkpoint = null;
            for (int i = 0; i < args.length; i++) {
                String flag = args[i];
                if (flag.equals("--help") || flag.equals("-h")) {
                    throw new IllegalArgumentException("");
                }
                if (i + 1 >= args.length) {
                    throw new IllegalArgumentException("missing value after " + flag);
                }
                String value = args[++i];
                switch (flag) {
                    case "--master" -> master = value;
                    case "--data" -> data = value;
                    case "--epochs" -> epochs = positive(value, flag);
                    case "--workers" -> workers = positive(value, flag);
                    case "--batch" -> batch = positive(value, flag);
                    case "--lr" -> learningRate = number(value, flag);
                    case "--seed" -> seed = (long) number(value, flag);
                    case "--checkpoint" -> checkpoint = value;
                    default -> throw new IllegalArgumentException("unknown option " + flag);
                }
            }
            return new Options(master, data, epochs, workers, batch, learningRate, seed, checkpoint);
        }

        private static int positive(String value, String flag) {
            double parsed = number(value, flag);
            if (parsed < 1 || parsed != Math.rint(parsed) || parsed > Integer.MAX_VALUE) {
                throw new IllegalArgumentException(flag + " needs a whole number of at least 1, got " + value);
            }
            return (int) parsed;
        }

        private static double number(String value, String flag) {
            try {
                return Double.parseDouble(value);
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException(flag + " needs a number, got " + value);
            }
        }
    }
}
