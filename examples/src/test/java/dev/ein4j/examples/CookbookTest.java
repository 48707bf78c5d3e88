package dev.ein4j.examples;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.ein4j.ir.DType;
import dev.ein4j.nn.ConvolutionOptions;
import dev.ein4j.nn.Functional;
import dev.ein4j.nn.PoolingOptions;
import dev.ein4j.tensor.Generator;
import dev.ein4j.tensor.Tensor;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** Every cookbook recipe against an independent computation, and docs/cookbook.md against the code. */
class CookbookTest {

    private static Tensor random(long seed, int... shape) {
        return Tensor.randn(new Generator(seed), DType.FLOAT64, shape).realize();
    }

    private static void assertClose(Tensor actual, Tensor expected) {
        assertThat(actual.shape()).containsExactly(expected.shape());
        double[] a = actual.toDoubleArray();
        double[] e = expected.toDoubleArray();
        for (int i = 0; i < e.length; i++) {
            assertThat(a[i]).as("element %d", i).isCloseTo(e[i], within(1e-9 * Math.max(1, Math.abs(e[i]))));
        }
    }

    @Test
    void everySnippetOfTheCookbookPageIsInTheCode() throws Exception {
        String page = Files.readString(Path.of("../docs/cookbook.md"));
        String code = Files.readString(Path.of("src/main/java/dev/ein4j/examples/Cookbook.java"));
        Matcher blocks = Pattern.compile("```java\\n(.*?)```", Pattern.DOTALL).matcher(page);
        int count = 0;
        while (blocks.find()) {
            for (String line : blocks.group(1).split("\\n")) {
                assertThat(code).as("snippet line of docs/cookbook.md").contains(line.strip());
            }
            count++;
        }
        assertThat(count).isGreaterThanOrEqualTo(15);
    }

    @Test
    void rearrangements() {
        Tensor x = random(1, 2, 4, 6, 3);
        Tensor first = Cookbook.channelsFirst(x);
        assertThat(first.get(1, 2, 3, 5)).isEqualTo(x.get(1, 3, 5, 2));
        Tensor images = random(2, 2, 3, 4, 6);
        assertThat(Cookbook.flatten(images).get(1, 2 * 24 + 3 * 6 + 5)).isEqualTo(images.get(1, 2, 3, 5));
        Tensor depth = Cookbook.spaceToDepth(images);
        assertThat(depth.shape()).containsExactly(2, 12, 2, 3);
        // channel (h2 w2 c) = (1, 0, 2) at (h, w) = (1, 2) holds pixel (2·1 + 1, 2·2 + 0) of channel 2
        assertThat(depth.get(1, 1 * 6 + 0 * 3 + 2, 1, 2)).isEqualTo(images.get(1, 2, 3, 4));
        Tensor patches = Cookbook.patches(random(3, 1, 3, 32, 48));
        assertThat(patches.shape()).containsExactly(1, 6, 16 * 16 * 3);
    }

    @Test
    void reductionsAndUpsampling() {
        Tensor images = random(4, 2, 3, 6, 6);
        assertClose(Cookbook.globalAveragePool(images), images.mean(new int[] {2, 3}, false));
        assertClose(Cookbook.maxPool(images), Functional.maxPool2d(images, 2));
        assertClose(Cookbook.overlappingMaxPool(images), Functional.maxPool2d(images, PoolingOptions.kernel(3).stride(2)));
        Tensor up = Cookbook.upsample(images);
        assertThat(up.get(1, 2, 5, 3)).isEqualTo(images.get(1, 2, 2, 1));
    }

    @Test
    void contractions() {
        Tensor a = random(5, 2, 3, 4);
        Tensor b = random(6, 2, 4, 5);
        Tensor product = Cookbook.batchedMatmul(a, b);
        double expected = 0;
        for (int k = 0; k < 4; k++) {
            expected += a.get(1, 2, k) * b.get(1, k, 3);
        }
        assertThat(product.get(1, 2, 3)).isCloseTo(expected, within(1e-12));
        Tensor q = random(7, 2, 5, 8);
        Tensor k = random(8, 2, 6, 8);
        Tensor scores = Cookbook.attentionScores(q, k, 2);
        double score = 0;
        for (int d = 0; d < 4; d++) {
            score += q.get(1, 3, 4 + d) * k.get(1, 2, 4 + d); // head 1 is features 4..7
        }
        assertThat(scores.get(1, 1, 3, 2)).isCloseTo(score, within(1e-12));
        Tensor square = random(9, 4, 4);
        List<Tensor> traceAndDiagonal = Cookbook.traceAndDiagonal(square);
        double trace = square.get(0, 0) + square.get(1, 1) + square.get(2, 2) + square.get(3, 3);
        assertThat(traceAndDiagonal.get(0).item()).isCloseTo(trace, within(1e-12));
        assertThat(traceAndDiagonal.get(1).get(2)).isEqualTo(square.get(2, 2));
    }

    @Test
    void convolutionsAndUnfold() {
        Tensor images = random(10, 2, 3, 7, 7);
        Tensor kernels = random(11, 4, 3, 3, 3);
        assertClose(Cookbook.convolution(images, kernels),
                Functional.conv2d(images, kernels, ConvolutionOptions.defaults().stride(2).padding(1)));
        Tensor depthwise = random(12, 3, 1, 3, 3);
        assertClose(Cookbook.depthwiseConvolution(images, depthwise),
                Functional.conv2d(images, depthwise, ConvolutionOptions.defaults().groups(3)));
        Tensor columns = Cookbook.unfold(images);
        assertThat(columns.shape()).containsExactly(2, 27, 25);
        // column (c, kh, kw) = (2, 1, 0) at position (h, w) = (3, 4) reads pixel (3 + 1, 4 + 0)
        assertThat(columns.get(1, 2 * 9 + 1 * 3 + 0, 3 * 5 + 4)).isEqualTo(images.get(1, 2, 4, 4));
    }

    @Test
    void packingAndGradients() {
        Tensor token = random(13, 2, 1, 4);
        Tensor patches = random(14, 2, 6, 4);
        List<Tensor> parts = Cookbook.packAndUnpack(token.reshape(2, 4), patches);
        assertClose(parts.get(0), token.reshape(2, 4).mul(2));
        assertClose(parts.get(1), patches.mul(2));
        Tensor weights = random(15, 3, 4);
        Tensor inputs = random(16, 5, 4);
        Tensor gradient = Cookbook.gradientOfASum(weights, inputs);
        // d/dw Σ tanh(x·wᵀ) = (1 − tanh²(x·wᵀ))ᵀ · x
        Tensor y = inputs.matmul(weights.transpose(0, 1)).tanh();
        assertClose(gradient, y.square().neg().add(1).transpose(0, 1).matmul(inputs));
    }
}
