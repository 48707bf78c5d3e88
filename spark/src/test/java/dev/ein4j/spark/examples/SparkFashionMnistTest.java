package dev.ein4j.spark.examples;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ein4j.examples.fashion.FashionCnn;
import dev.ein4j.examples.fashion.FashionData;
import dev.ein4j.tensor.Generator;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/**
 * The example's options and its per-epoch line (the training itself is the trainer's tests' business:
 * two epochs of the flagship take minutes on two cores).
 */
class SparkFashionMnistTest {

    @Test
    void optionsHaveTheDocumentedDefaultsAndRejectBadValues() {
        SparkFashionMnist.Options defaults = SparkFashionMnist.Options.parse(new String[0]);
        assertThat(defaults).isEqualTo(new SparkFashionMnist.Options(null, null, 2, 0, 128, 2e-3, 7, null));
        SparkFashionMnist.Options given = SparkFashionMnist.Options.parse(new String[] {"--master", "local[2]", "--data",
                "embedded", "--epochs", "3", "--workers", "2", "--checkpoint", "/tmp/c"});
        assertThat(given).isEqualTo(new SparkFashionMnist.Options("local[2]", "embedded", 3, 2, 128, 2e-3, 7, "/tmp/c"));
        assertThatThrownBy(() -> SparkFashionMnist.Options.parse(new String[] {"--epochs", "0"}))
                .hasMessage("--epochs needs a whole number of at least 1, got 0");
        assertThatThrownBy(() -> SparkFashionMnist.Options.parse(new String[] {"--workers", "two"}))
                .hasMessage("--workers needs a number, got two");
        assertThatThrownBy(() -> SparkFashionMnist.Options.parse(new String[] {"--epochs"}))
                .hasMessage("missing value after --epochs");
        assertThatThrownBy(() -> SparkFashionMnist.Options.parse(new String[] {"--plot", "x.png"}))
                .hasMessage("unknown option --plot");
    }

    @Test
    void eachEpochIsOneLineInTheDocumentedForm() {
        FashionData data = FashionData.load(FashionData.EMBEDDED);
        FashionCnn trained = new FashionCnn(32, 64, 128, new Generator(3));
        PrintStream standardOutput = System.out;
        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        System.setOut(new PrintStream(printed, true, StandardCharsets.UTF_8));
        double accuracy;
        try {
            accuracy = SparkFashionMnist.printEpoch(1, 0.61234, 12.345, 2, trained.stateDict(),
                    new FashionCnn(32, 64, 128, new Generator(4)), data);
        } finally {
            System.setOut(standardOutput);
        }
        assertThat(printed.toString(StandardCharsets.UTF_8))
                .isEqualTo(String.format(java.util.Locale.ROOT, "epoch 1: loss 0.6123, test accuracy %.2f%%, 12.3 s (2 workers)%n", 100 * accuracy));
        assertThat(accuracy).as("the untrained model evaluated with the given state: about chance")
                .isEqualTo(SparkFashionMnist.testAccuracy(trained, data)).isBetween(0.0, 0.4);
    }
}
