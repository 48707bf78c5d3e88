package dev.ein4j.examples.fashion;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ein4j.error.EinopsException;
import dev.ein4j.nn.optim.Adam;
import dev.ein4j.tensor.Generator;
import dev.ein4j.tensor.Tensor;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FashionMnistTest {

    @Test
    void theEmbeddedSubsetHasTheDocumentedSizesAndAllTenClasses() {
        FashionData data = FashionData.load(FashionData.EMBEDDED);
        assertThat(data.trainSize()).isEqualTo(5000);
        assertThat(data.testSize()).isEqualTo(1000);
        assertThat(data.trainImages()).hasSize(5000 * 28 * 28);
        int[] counts = new int[10];
        for (int label : data.testLabels()) {
            counts[label]++;
        }
        assertThat(java.util.Arrays.stream(counts).min().getAsInt()).as("every class present").isGreaterThan(50);
        double mean = 0;
        for (float pixel : data.trainImages()) {
            mean += pixel;
        }
        assertThat(mean / data.trainImages().length).as("standardized").isBetween(-0.1, 0.1);
        assertThat(FashionData.class.getResource("/dev/ein4j/examples/fashion-mnist/NOTICE")).as("license notice").isNotNull();
    }

    @Test
    void aFewStepsOfTrainingLowerTheLossAndTheModelPredictsTenClasses() {
        FashionData data = FashionData.load(FashionData.EMBEDDED);
        FashionCnn model = new FashionCnn(8, 16, 32, new Generator(1));
        Training training = new Training(model, new Adam(model.parameters(), 3e-3), trimmed(data, 640), 64, 1);
        List<Double> first = training.epoch((done, loss) -> { });
        List<Double> second = training.epoch((done, loss) -> { });
        assertThat(first.get(0)).as("about ln 10 at the start").isBetween(1.8, 2.8);
        assertThat(second.get(second.size() - 1)).isLessThan(first.get(0) * 0.8);
        Tensor logits = model.eval().forward(data.testBatch(0, 4));
        assertThat(logits.shape()).containsExactly(4, 10);
        assertThat(training.testAccuracy()).isBetween(0.0, 1.0);
    }

    @Test
    void optionsAreParsedAndBadOnesRejected() {
        FashionMnist.Options options = FashionMnist.Options.parse(
                new String[] {"--epochs", "3", "--data", "embedded", "--plot", "out.png", "--batch", "64"});
        assertThat(options.epochs()).isEqualTo(3);
        assertThat(options.data()).isEqualTo("embedded");
        assertThat(options.plot()).isEqualTo(Path.of("out.png"));
        assertThat(options.batch()).isEqualTo(64);
        assertThatThrownBy(() -> FashionMnist.Options.parse(new String[] {"--epochs", "0"}))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("at least 1");
        assertThatThrownBy(() -> FashionMnist.Options.parse(new String[] {"--colour", "red"}))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("--colour");
        assertThatThrownBy(() -> FashionMnist.Options.parse(new String[] {"--epochs"}))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("missing");
    }

    @Test
    void aDirectoryWithoutTheFilesIsAClearError(@TempDir Path empty) {
        assertThatThrownBy(() -> FashionData.load(empty.toString())).isInstanceOf(EinopsException.class)
                .hasMessageContaining("train-images-idx3-ubyte");
    }

    @Test
    void thePlotIsAPng(@TempDir Path directory) throws Exception {
        Path file = directory.resolve("training.png");
        TrainingPlot.write(file, List.of(2.3, 1.5, 1.0, 0.8), List.of(0.7, 0.8), 2);
        byte[] bytes = Files.readAllBytes(file);
        assertThat(bytes).startsWith((byte) 0x89, (byte) 'P', (byte) 'N', (byte) 'G');
    }

    private static FashionData trimmed(FashionData data, int images) {
        float[] pixels = java.util.Arrays.copyOf(data.trainImages(), images * 28 * 28);
        int[] labels = java.util.Arrays.copyOf(data.trainLabels(), images);
        return new FashionData(pixels, labels, data.testImages(), data.testLabels(), "first " + images);
    }
}
