package dev.ein4j.examples.fashion;

import dev.ein4j.backend.Backends;
import dev.ein4j.nn.optim.Adam;
import dev.ein4j.tensor.Generator;
import dev.ein4j.tensor.Tensor;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code fashion-mnist}: trains {@link FashionCnn} on Fashion-MNIST and prints the test accuracy
 * after every epoch.
 *
 * <pre>
 * java --add-modules jdk.incubator.vector -jar examples/target/ein4j-examples.jar fashion-mnist
 *      [--epochs N] [--data DIR|embedded] [--plot FILE.png] [--backend NAME] [--batch N] [--seed N]
 * </pre>
 *
 * Backend: {@code --backend NAME} ({@code opencl} for a GPU, {@code reference} for the interpreter),
 * else {@code -Dein4j.backend} or {@code EIN4J_BACKEND}, else {@code cpu}; other backends' drivers
 * are never loaded.
 * Data: {@code --data DIR} (the four IDX files), else Debian's {@value FashionData#DEBIAN_DIRECTORY}
 * when installed, else the subset embedded in the jar ({@code --data embedded} forces it).
 * Training: Adam (learning rate 2e-3), batches of 128, a fixed seed for weights, shuffling and
 * dropout, so a run is reproducible on a backend.
 */
public final class FashionMnist {

    private FashionMnist() {
    }

    /** Parsed command-line options. */
    record Options(int epochs, String data, Path plot, String backend, int batch, long seed, double learningRate) {

        static Options parse(String[] args) {
            int epochs = 5;
            String data = null;
            Path plot = null;
            String backend = null;
            int batch = 128;
            long seed = 7;
            double learningRate = 2e-3;
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
                    case "--epochs" -> epochs = positive(value, flag);
                    case "--data" -> data = value;
                    case "--plot" -> plot = Path.of(value);
                    case "--backend" -> backend = value;
                    case "--batch" -> batch = positive(value, flag);
                    case "--seed" -> seed = Long.parseLong(value);
                    case "--lr" -> learningRate = Double.parseDouble(value);
                    default -> throw new IllegalArgumentException("unknown option " + flag);
                }
            }
            return new Options(epochs, data, plot, backend, batch, seed, learningRate);
        }

        private static int positive(String value, String flag) {
            int parsed;
            try {
                parsed = Integer.parseInt(value);
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException(flag + " needs a whole number, got " + value);
            }
            if (parsed < 1) {
                throw new IllegalArgumentException(flag + " must be at least 1, got " + value);
            }
            return parsed;
        }
    }

    static final String USAGE = "usage: fashion-mnist [--epochs N] [--data DIR|embedded] [--plot FILE.png] "
            + "[--backend NAME] [--batch N] [--seed N] [--lr RATE]";

    /**
     * @param args the options
     */
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
        run(options);
    }

    /**
     * Trains and evaluates.
     *
     * @param options the options
     * @return the test accuracy after each epoch
     */
    static List<Double> run(Options options) {
        if (options.backend() != null) {
            Backends.use(options.backend());
        } else {
            Backends.useConfiguredOr("cpu");
        }
        FashionData data = FashionData.load(options.data());
        Tensor.manualSeed(options.seed());
        FashionCnn model = new FashionCnn(32, 64, 128, new Generator(options.seed()));
        Adam optimizer = new Adam(model.parameters(), options.learningRate());
        Training training = new Training(model, optimizer, data, options.batch(), options.seed());
        System.out.printf("Fashion-MNIST from %s: %,d training and %,d test images%n", data.source(), data.trainSize(),
                data.testSize());
        System.out.printf("backend %s, %d threads; model %s, %,d parameters; batch %d, Adam lr %s%n",
                Backends.current().name(), Runtime.getRuntime().availableProcessors(), model.extraRepresentation(),
                model.parameterCount(), options.batch(), options.learningRate());
        List<Double> losses = new ArrayList<>();
        List<Double> accuracies = new ArrayList<>();
        for (int epoch = 1; epoch <= options.epochs(); epoch++) {
            long start = System.nanoTime();
            List<Double> epochLosses;
            try (Progress progress = Progress.start("epoch " + epoch + "/" + options.epochs(), data.trainSize())) {
                epochLosses = training.epoch(progress::update);
            }
            double seconds = (System.nanoTime() - start) / 1e9;
            losses.addAll(epochLosses);
            double accuracy = training.testAccuracy();
            accuracies.add(accuracy);
            double meanLoss = epochLosses.stream().mapToDouble(Double::doubleValue).average().orElse(Double.NaN);
            System.out.printf("epoch %d: loss %.4f, test accuracy %.2f%%, %.1f s (%,.0f images/s)%n", epoch, meanLoss,
                    100 * accuracy, seconds, epochLosses.size() * options.batch() / seconds);
        }
        if (options.plot() != null) {
            TrainingPlot.write(options.plot(), losses, accuracies, data.trainSize() / options.batch());
            System.out.println("plot written to " + options.plot());
        }
        return accuracies;
    }
}
