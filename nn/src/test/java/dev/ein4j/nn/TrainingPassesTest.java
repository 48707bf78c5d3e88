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

    private static final int BATCH = 16;
    private static final int CHANNELS = 4;
    private static final int PLANE = 36;

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
        int[] shape = {BATCH, CHANNELS, 6, 6};
        Tensor x = Tensor.randn(new Generator(3), shape).mul(2.0).add(5.0).realize();
        BatchNorm2d norm = new BatchNorm2d(CHANNELS);
        counting.reset();
        Tensor y = norm.forward(x).realize();
        assertThat(perChannelPasses(shape)).as("the mean and the variance in one kernel").isEqualTo(1);
        float[] xs = x.toFloatArray();
        float[] ys = y.toFloatArray();
        for (int channel = 0; channel < CHANNELS; channel++) {
            double[] statistics = meanAndDeviation(xs, channel);
            for (int b = 0; b < BATCH; b += 5) {
                int at = (b * CHANNELS + channel) * PLANE + 7;
                assertThat((double) ys[at]).isCloseTo((xs[at] - statistics[0]) / statistics[1], within(1e-4));
            }
        }
    }

    @Test
    void batchNormBackwardTakesOnePassForItsPerChannelSums() {
        int[] shape = {BATCH, CHANNELS, 6, 6};
        Tensor x = Tensor.randn(new Generator(5), shape).realize().requireGrad();
        Tensor upstream = Tensor.randn(new Generator(6), shape).realize();
        BatchNorm2d norm = new BatchNorm2d(CHANNELS);
        Tensor y = norm.forward(x);
        counting.reset();
        y.mul(upstream).sum().backward();
        assertThat(perChannelPasses(shape)).as("one pass for the per-channel sums Σdy·(x − mean) and Σdy (the bias's and the mean's)")
                .isEqualTo(1);
        // against the closed form (γ = 1): dβ = Σdy, dγ = Σdy·x̂, dx = (dy − mean(dy) − x̂·mean(dy·x̂)) / σ
        float[] weightGradient = norm.parameters().get(0).grad().toFloatArray();
        float[] biasGradient = norm.parameters().get(1).grad().toFloatArray();
        float[] inputGradient = x.grad().toFloatArray();
        float[] xs = x.toFloatArray();
        float[] dy = upstream.toFloatArray();
        int count = BATCH * PLANE;
        for (int channel = 0; channel < CHANNELS; channel++) {
            double[] statistics = meanAndDeviation(xs, channel);
            double mean = statistics[0];
            double sigma = statistics[1];
            double dySum = 0;
            double dyNormalized = 0;
            for (int b = 0; b < BATCH; b++) {
                for (int i = 0; i < PLANE; i++) {
                    int at = (b * CHANNELS + channel) * PLANE + i;
                    dySum += dy[at];
                    dyNormalized += dy[at] * (xs[at] - mean) / sigma;
                }
            }
            assertThat((double) biasGradient[channel]).isCloseTo(dySum, within(1e-4));
            assertThat((double) weightGradient[channel]).isCloseTo(dyNormalized, within(1e-4));
            for (int b = 0; b < BATCH; b += 3) {
                int at = (b * CHANNELS + channel) * PLANE + 11;
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

    /** @return the kernels since the last reset that reduce a batch of this shape to one value per channel */
    private long perChannelPasses(int[] shape) {
        return counting.kernels().stream()
                .filter(kernel -> kernel.kind() == Kernel.Kind.REDUCE && Arrays.equals(kernel.reductionSourceShape(), shape)
                        && Arrays.stream(kernel.outputShape()).reduce(1, (a, b) -> a * b) == CHANNELS)
                .count();
    }

    /** @return a channel's mean and √(biased variance + 1e-5) over [BATCH, CHANNELS, PLANE] values, in double */
    private static double[] meanAndDeviation(float[] xs, int channel) {
        double sum = 0;
        double squares = 0;
        for (int b = 0; b < BATCH; b++) {
            for (int i = 0; i < PLANE; i++) {
                double v = xs[(b * CHANNELS + channel) * PLANE + i];
                sum += v;
                squares += v * v;
            }
        }
        double mean = sum / (BATCH * PLANE);
        return new double[] {mean, Math.sqrt(squares / (BATCH * PLANE) - mean * mean + 1e-5)};
    }
}
