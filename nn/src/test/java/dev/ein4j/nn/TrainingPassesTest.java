package dev.ein4j.nn;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.ein4j.backend.Backend;
import dev.ein4j.backend.Backends;
import dev.ein4j.ir.Op;
import dev.ein4j.kernel.Kernel;
import dev.ein4j.tensor.Generator;
import dev.ein4j.tensor.Reduction;
import dev.ein4j.tensor.Tensor;
import dev.ein4j.tensor.TensorScope;
import dev.ein4j.testing.CountingBackend;
import java.util.Arrays;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * How often a training step reads its batch-sized tensors: batch norm's statistics take one pass,
 * and a max pool's backward reuses the max its forward computed instead of reducing the input again.
 */
class TrainingPassesTest {

    private Backend previous;
    private CountingBackend counting;
    private TensorScope scope;

    @BeforeEach
    void useCountingBackend() {
        previous = Backends.current();
        counting = (CountingBackend) Backends.use(CountingBackend.NAME);
        scope = Tensor.scope();
    }

    @AfterEach
    void restore() {
        scope.close();
        assertThat(counting.doubleReleases()).isZero();
        Backends.use(previous.name());
    }

    @Test
    void batchNormStatisticsAreOnePassOverTheBatch() {
        int[] shape = {16, 4, 6, 6};
        Tensor x = Tensor.randn(new Generator(3), shape).mul(2.0).add(5.0).realize();
        BatchNorm2d norm = new BatchNorm2d(4);
        counting.reset();
        Tensor y = norm.forward(x).realize();
        long passes = counting.kernels().stream()
                .filter(kernel -> kernel.kind() == Kernel.Kind.REDUCE && Arrays.equals(kernel.reductionSourceShape(), shape))
                .count();
        assertThat(passes).as("the mean and the variance in one kernel").isEqualTo(1);
        float[] xs = x.toFloatArray();
        float[] ys = y.toFloatArray();
        int plane = 36;
        for (int channel = 0; channel < 4; channel++) {
            double sum = 0;
            double squares = 0;
            for (int b = 0; b < 16; b++) {
                for (int i = 0; i < plane; i++) {
                    double v = xs[(b * 4 + channel) * plane + i];
                    sum += v;
                    squares += v * v;
                }
            }
            double mean = sum / (16 * plane);
            double variance = squares / (16 * plane) - mean * mean;
            for (int b = 0; b < 16; b += 5) {
                int at = (b * 4 + channel) * plane + 7;
                assertThat((double) ys[at]).isCloseTo((xs[at] - mean) / Math.sqrt(variance + 1e-5), within(1e-4));
            }
        }
    }

    @Test
    void batchNormBackwardTakesOnePassForItsPerChannelSums() {
        int[] shape = {16, 4, 6, 6};
        Tensor x = Tensor.randn(new Generator(5), shape).realize().requireGrad();
        Tensor upstream = Tensor.randn(new Generator(6), shape).realize();
        BatchNorm2d norm = new BatchNorm2d(4);
        Tensor y = norm.forward(x);
        counting.reset();
        y.mul(upstream).sum().backward();
        long passes = counting.kernels().stream()
                .filter(kernel -> kernel.kind() == Kernel.Kind.REDUCE && Arrays.equals(kernel.reductionSourceShape(), shape)
                        && Arrays.stream(kernel.outputShape()).reduce(1, (a, b) -> a * b) == 4)
                .count();
        assertThat(passes).as("one pass for the per-channel sums Σdy·(x − mean) and Σdy (the bias's and the mean's)")
                .isEqualTo(1);
        // against the closed form (γ = 1): dβ = Σdy, dγ = Σdy·x̂, dx = (dy − mean(dy) − x̂·mean(dy·x̂)) / σ
        float[] weightGradient = norm.parameters().get(0).grad().toFloatArray();
        float[] biasGradient = norm.parameters().get(1).grad().toFloatArray();
        float[] inputGradient = x.grad().toFloatArray();
        float[] xs = x.toFloatArray();
        float[] dy = upstream.toFloatArray();
        int plane = 36;
        int count = 16 * plane;
        for (int channel = 0; channel < 4; channel++) {
            double sum = 0;
            double squares = 0;
            for (int b = 0; b < 16; b++) {
                for (int i = 0; i < plane; i++) {
                    double v = xs[(b * 4 + channel) * plane + i];
                    sum += v;
                    squares += v * v;
                }
            }
            double mean = sum / count;
            double sigma = Math.sqrt(squares / count - mean * mean + 1e-5);
            double dySum = 0;
            double dyNormalized = 0;
            for (int b = 0; b < 16; b++) {
                for (int i = 0; i < plane; i++) {
                    int at = (b * 4 + channel) * plane + i;
                    dySum += dy[at];
                    dyNormalized += dy[at] * (xs[at] - mean) / sigma;
                }
            }
            assertThat((double) biasGradient[channel]).isCloseTo(dySum, within(1e-4));
            assertThat((double) weightGradient[channel]).isCloseTo(dyNormalized, within(1e-4));
            for (int b = 0; b < 16; b += 3) {
                int at = (b * 4 + channel) * plane + 11;
                double expected = (dy[at] - dySum / count - (xs[at] - mean) / sigma * dyNormalized / count) / sigma;
                assertThat((double) inputGradient[at]).as("dx at %d", at).isCloseTo(expected, within(1e-4));
            }
        }
    }

    @Test
    void aMaxPoolBackwardReadsTheMaxItsForwardComputed() {
        Tensor x = Tensor.randn(new Generator(4), 8, 4, 6, 6).realize().requireGrad();
        Tensor pooled = x.reduce("b c (h 2) (w 2) -> b c h w", Reduction.MAX).realize();
        counting.reset();
        pooled.square().sum().backward();
        Tensor gradient = x.grad().realize();
        assertThat(counting.computed(Op.REDUCE_MAX)).as("the forward's max is kept, not computed again").isZero();
        float[] xs = x.toFloatArray();
        float[] ps = pooled.toFloatArray();
        float[] gs = gradient.toFloatArray();
        for (int i = 0; i < xs.length; i++) {
            int w = i % 6;
            int h = i / 6 % 6;
            int plane = i / 36;
            float max = ps[plane * 9 + h / 2 * 3 + w / 2];
            assertThat(gs[i]).isEqualTo(xs[i] == max ? 2 * max : 0f); // random normals: no ties
        }
    }
}
