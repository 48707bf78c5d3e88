package dev.ein4j.examples;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ein4j.ir.DType;
import dev.ein4j.nn.Activation;
import dev.ein4j.nn.BatchNorm2d;
import dev.ein4j.nn.Conv2d;
import dev.ein4j.nn.ConvolutionOptions;
import dev.ein4j.nn.Functional;
import dev.ein4j.nn.Linear;
import dev.ein4j.nn.MaxPool2d;
import dev.ein4j.nn.Rearrange;
import dev.ein4j.nn.Sequential;
import dev.ein4j.nn.io.SafeTensors;
import dev.ein4j.nn.optim.AdamW;
import dev.ein4j.nn.optim.Optimizer;
import dev.ein4j.pattern.Operation;
import dev.ein4j.pattern.PatternParser;
import dev.ein4j.tensor.Axes;
import dev.ein4j.tensor.Ein;
import dev.ein4j.tensor.Generator;
import dev.ein4j.tensor.Tensor;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ExamplesTest {

    @Test
    void flagshipModelLearns() {
        BarsDataset train = BarsDataset.generate(60, 7);
        TinyAttentionClassifier model = new TinyAttentionClassifier(42);
        double first = Double.NaN;
        double last = Double.NaN;
        for (int step = 0; step < 40; step++) {
            Tensor loss = TinyAttentionClassifier.crossEntropy(model.logits(train.images()), train.oneHot());
            loss.backward();
            last = loss.item();
            first = step == 0 ? last : first;
            model.step(0.5);
        }
        assertThat(first).isBetween(0.9, 1.4); // about ln 3 at the start
        assertThat(last).isLessThan(first * 0.8);
    }

    @Test
    void readmeSnippetRunsWithTheShapesItClaims() {
        Tensor images = Tensor.randn(new Generator(42), 8, 3, 32, 32);
        Tensor patches = images.rearrange("b c (h p1) (w p2) -> b (h w) (p1 p2 c)", Axes.of("p1", 4, "p2", 4));
        assertThat(patches.shape()).containsExactly(8, 64, 48);
        Tensor pooled = images.reduce("b c (h 2) (w 2) -> b c h w", "max");
        assertThat(pooled.shape()).containsExactly(8, 3, 16, 16);
        Tensor q = Tensor.randn(new Generator(1), 2, 4, 5, 8);
        Tensor k = Tensor.randn(new Generator(2), 2, 4, 6, 8);
        assertThat(Ein.einsum("b h i d, b h j d -> b h i j", q, k).shape()).containsExactly(2, 4, 5, 6);
        Tensor kernels = Tensor.randn(new Generator(3), 16, 3, 3, 3);
        Tensor conv = Ein.einsum("b c (h + kh) (w + kw), o c kh kw -> b o h w", images, kernels);
        assertThat(conv.shape()).containsExactly(8, 16, 30, 30);
        Tensor w = Tensor.randn(new Generator(1), DType.FLOAT64, 48, 10).requireGrad();
        Tensor loss = Ein.einsum("b t p, p k -> b k", patches.cast(DType.FLOAT64), w).tanh().sum();
        loss.backward();
        assertThat(w.grad().shape()).containsExactly(48, 10);
    }

    /** The README's "Layers, training, weights" snippet, with a small batch. */
    @Test
    void readmeLayersSnippetTrainsAndRoundTripsItsWeights(@TempDir Path directory) {
        Tensor.manualSeed(11);
        Sequential model = new Sequential(
                new Conv2d(1, 32, 3, ConvolutionOptions.defaults().padding(1)), new BatchNorm2d(32), Activation.relu(),
                new MaxPool2d(2),
                new Rearrange("b c h w -> b (c h w)"),
                new Linear(32 * 14 * 14, 10));
        Tensor images = Tensor.randn(new Generator(4), 8, 1, 28, 28);
        Tensor labels = Tensor.of(new int[] {0, 1, 2, 3, 4, 5, 6, 7});
        Optimizer optimizer = new AdamW(model.parameters(), 1e-3);
        double first = Double.NaN;
        double last = Double.NaN;
        for (int step = 0; step < 6; step++) {
            optimizer.zeroGrad();
            Tensor loss = Functional.crossEntropy(model.forward(images), labels);
            loss.backward();
            optimizer.step();
            last = loss.item();
            first = step == 0 ? last : first;
        }
        assertThat(last).isLessThan(first);
        Path file = directory.resolve("model.safetensors");
        SafeTensors.write(file, model.stateDict());
        Map<String, Tensor> read = SafeTensors.read(file);
        assertThat(read.keySet()).contains("0.weight", "1.running_mean", "5.bias");
        model.loadStateDict(read);
        assertThat(model.stateDict().get("5.weight").toFloatArray()).containsExactly(read.get("5.weight").toFloatArray());
    }

    @Test
    void theVisionTransformerMapsImagesToTenLogitsAndTrains() {
        VisionTransformer model = new VisionTransformer(16, 2, 1, new Generator(2));
        Tensor images = Tensor.randn(new Generator(3), 4, 1, 28, 28);
        Tensor labels = Tensor.of(new int[] {0, 3, 7, 9});
        dev.ein4j.nn.optim.Adam adam = new dev.ein4j.nn.optim.Adam(model.parameters(), 1e-2);
        double first = Double.NaN;
        double last = Double.NaN;
        for (int step = 0; step < 8; step++) {
            adam.zeroGrad();
            Tensor loss = dev.ein4j.nn.Functional.crossEntropy(model.forward(images), labels);
            loss.backward();
            adam.step();
            last = loss.item();
            first = step == 0 ? last : first;
        }
        assertThat(model.forward(images).shape()).containsExactly(4, 10);
        assertThat(last).as("it fits four images").isLessThan(first * 0.5);
        assertThat(model.toString()).contains("MultiHeadAttention").contains("EinMix");
    }

    @Test
    void patternCliDescribesTheAxisStructure() {
        String text = PatternCli.describe(PatternParser.parse(Operation.REARRANGE, "b  (h w) -> b h w"));
        assertThat(text).startsWith("canonical: b (h w) -> b h w\n").contains("Composition (column 4)")
                .contains("output:");
    }
}
