package dev.ein4j.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ein4j.backend.Backends;
import dev.ein4j.error.ShapeException;
import dev.ein4j.ir.DType;
import dev.ein4j.ir.Op;
import dev.ein4j.kernel.Kernel;
import dev.ein4j.tensor.Reduction;
import dev.ein4j.reference.ReferenceBackend;
import dev.ein4j.tensor.Ein;
import dev.ein4j.tensor.Generator;
import dev.ein4j.tensor.Tensor;
import dev.ein4j.tensor.TensorScope;
import dev.ein4j.tensor.internal.TensorInternals;
import dev.ein4j.testing.CountingBackend;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** How programs of common shapes are cut into kernels, and how many buffers they take. */
class FusionTest {

    private CountingBackend counting;
    private TensorScope scope;

    @BeforeEach
    void useCountingBackend() {
        counting = (CountingBackend) Backends.use(CountingBackend.NAME);
        counting.reset();
        scope = Tensor.scope(); // each test's buffers go back when it ends, not when a collector runs in a later test
    }

    @AfterEach
    void restoreReference() {
        scope.close();
        assertThat(counting.doubleReleases()).as("buffers released twice").isZero();
        Backends.use(ReferenceBackend.NAME);
    }

    private static Tensor data(long seed, int... shape) {
        return Tensor.rand(new Generator(seed), shape).sub(0.5).realize();
    }

    @Test
    void reluOfAnAffineMapIsOneKernelAndOneBuffer() {
        Tensor x = data(1, 1000, 1000);
        Tensor w = data(2, 1000, 1000);
        Tensor b = data(3, 1000);
        counting.reset();
        Tensor y = x.mul(w).add(b).relu().realize();
        assertThat(counting.kernels()).hasSize(1);
        assertThat(counting.allocations()).as("only the result").isEqualTo(1);
        assertThat(counting.peakBytes() - counting.liveBytes()).as("no transient buffer").isZero();
        float[] xs = x.toFloatArray();
        float[] ws = w.toFloatArray();
        float[] bs = b.toFloatArray();
        float[] ys = y.toFloatArray();
        for (int i = 0; i < ys.length; i += 997) {
            float expected = Math.max(0f, xs[i] * ws[i] + bs[i % 1000]);
            assertThat(ys[i]).isEqualTo(expected);
        }
    }

    @Test
    void aBroadcastReadThroughAReshapeIsIteratedInTheSplitShapeNotCopied() {
        Tensor pooled = data(11, 2, 3, 4, 5);
        Tensor x = data(12, 2, 3, 8, 10);
        counting.reset();
        // a max pool's gradient: the pooled values repeated over each 2 x 2 window
        Tensor repeated = pooled.repeat("b c h w -> b c (h 2) (w 2)");
        Tensor y = x.mul(repeated).add(pooled.reshape(2, 3, 4, 1, 5, 1).expand(2, 3, 4, 2, 5, 2).reshape(2, 3, 8, 10))
                .realize();
        assertThat(counting.kernels()).as("no copy of the repeated values").hasSize(1);
        assertThat(counting.kernels().get(0).outputShape()).as("iterated over the window axes")
                .containsExactly(2, 3, 4, 2, 5, 2);
        assertThat(y.shape()).containsExactly(2, 3, 8, 10);
        float[] p = pooled.toFloatArray();
        float[] xs = x.toFloatArray();
        float[] ys = y.toFloatArray();
        for (int b = 0; b < 2; b++) {
            for (int c = 0; c < 3; c++) {
                for (int i = 0; i < 8; i++) {
                    for (int j = 0; j < 10; j++) {
                        int at = ((b * 3 + c) * 8 + i) * 10 + j;
                        float value = p[((b * 3 + c) * 4 + i / 2) * 5 + j / 2];
                        assertThat(ys[at]).as("element %d", at).isEqualTo(xs[at] * value + value);
                    }
                }
            }
        }
    }

    @Test
    void aReshapedBroadcastWithoutACommonSplitIsStillCopiedAndCorrect() {
        Tensor column = data(13, 4, 1);
        Tensor x = data(14, 6, 4);
        counting.reset();
        // [4, 1] -> [4, 6] -> [6, 4]: the axes 4 | 6 and 6 | 4 have no common split, so the broadcast is copied first
        Tensor y = x.add(column.expand(4, 6).reshape(6, 4)).realize();
        assertThat(counting.kernels()).hasSize(2);
        float[] c = column.toFloatArray();
        float[] xs = x.toFloatArray();
        float[] ys = y.toFloatArray();
        for (int at = 0; at < 24; at++) {
            assertThat(ys[at]).isEqualTo(xs[at] + c[at / 6]);
        }
    }

    @Test
    void aPaddedReadThatCannotBeSplitKeepsTheCopy() {
        Tensor pooled = data(15, 3, 4);
        Tensor image = data(16, 6, 6);
        counting.reset();
        // the padded image is read fine in [6, 8], but a padded axis does not split: the broadcast keeps its copy
        Tensor padded = image.pad(new int[] {0, 1}, new int[] {0, 1}, 0.0);
        Tensor y = padded.add(pooled.reshape(3, 1, 4, 1).expand(3, 2, 4, 2).reshape(6, 8)).realize();
        assertThat(counting.kernels()).hasSize(2);
        float[] p = pooled.toFloatArray();
        float[] im = image.toFloatArray();
        float[] ys = y.toFloatArray();
        for (int i = 0; i < 6; i++) {
            for (int j = 0; j < 8; j++) {
                float inside = j >= 1 && j <= 6 ? im[i * 6 + j - 1] : 0f;
                assertThat(ys[i * 8 + j]).isEqualTo(inside + p[(i / 2) * 4 + j / 2]);
            }
        }
    }

    @Test
    void scalarConstantExpressionsAreRecomputedThroughBroadcastsNotRealized() {
        Tensor x = data(5, 64, 64);
        counting.reset();
        Tensor y = x.div(3.0).add(Tensor.scalar(2.0).exp()).realize();
        assertThat(counting.kernels()).as("no kernel for 1/3 or e^2 alone").hasSize(1);
        assertThat(y.toFloatArray()[7]).isCloseTo(x.toFloatArray()[7] / 3f + (float) Math.exp(2), org.assertj.core.data.Offset.offset(1e-5f));
    }

    @Test
    void aValueScaledByALongPerChannelExpressionIsRecomputedByItsTwoReadersNotStored() {
        Tensor x = data(6, 32, 8, 10, 10);
        Tensor perChannel = data(7, 1, 8, 1, 1);
        counting.reset();
        // ten operations per channel: realized (read through a broadcast), so y costs its readers two
        Tensor scale = perChannel.abs().add(1.0).sqrt().reciprocal().mul(3.0).exp().log().add(0.5).square().sqrt();
        Tensor y = x.mul(scale).add(1.0);
        Tensor positive = y.relu();
        Tensor total = y.sum(new int[] {0, 2, 3}, true);
        Tensor.realizeAll(positive, total);
        long batchSized = counting.kernels().stream()
                .filter(kernel -> kernel.kind() != Kernel.Kind.REDUCE && Arrays.equals(kernel.outputShape(), x.shape()))
                .count();
        assertThat(batchSized).as("only the relu writes a tensor of x's size").isEqualTo(1);
        float[] xs = x.toFloatArray();
        float[] scales = scale.toFloatArray();
        float[] relus = positive.toFloatArray();
        for (int i = 0; i < xs.length; i += 37) {
            float expected = Math.max(0f, xs[i] * scales[i / 100 % 8] + 1f);
            assertThat(relus[i]).isCloseTo(expected, org.assertj.core.data.Offset.offset(1e-5f));
        }
    }

    @Test
    void softmaxOverRowsIsAtMostThreeKernelsWithNoInputSizedIntermediate() {
        Tensor x = data(4, 64, 300);
        counting.reset();
        Tensor max = x.reduce(Reduction.MAX, new int[] {1}, true);
        Tensor e = x.sub(max).exp();
        Tensor softmax = e.div(e.reduce(Reduction.SUM, new int[] {1}, true)).realize();
        assertThat(counting.kernels()).hasSizeLessThanOrEqualTo(3);
        long rowBytes = 64L * 4;
        assertThat(counting.peakBytes() - counting.liveBytes()).as("only row-sized intermediates").isLessThanOrEqualTo(2 * rowBytes);
        float[] values = softmax.toFloatArray();
        for (int row = 0; row < 64; row++) {
            double sum = 0;
            for (int c = 0; c < 300; c++) {
                sum += values[row * 300 + c];
            }
            assertThat(sum).isCloseTo(1.0, org.assertj.core.data.Offset.offset(1e-5));
        }
    }

    @Test
    void matmulWithBiasAndReluIsOneContractionKernel() {
        Tensor x = data(5, 32, 64);
        Tensor w = data(6, 16, 64);
        Tensor b = data(7, 16);
        counting.reset();
        Tensor y = Ein.einsum("b i, o i -> b o", x, w).add(b).relu().realize();
        assertThat(counting.kernels()).hasSize(1);
        Kernel kernel = counting.kernels().get(0);
        assertThat(kernel.kind()).isEqualTo(Kernel.Kind.CONTRACT);
        assertThat(kernel.hasEpilogue()).isTrue();
        assertThat(kernel.leftOperand()).as("x is read in place").isNotNull();
        assertThat(kernel.rightOperand()).as("w is read in place, transposed by its view").isNotNull();
        assertThat(kernel.contractSpec().m()).containsExactly(32);
        assertThat(kernel.contractSpec().n()).containsExactly(16);
        assertThat(kernel.contractSpec().k()).containsExactly(64);
        float[] xs = x.toFloatArray();
        float[] ws = w.toFloatArray();
        float[] bs = b.toFloatArray();
        float[] ys = y.toFloatArray();
        for (int i = 0; i < 32; i++) {
            for (int o = 0; o < 16; o++) {
                double sum = 0;
                for (int k = 0; k < 64; k++) {
                    sum += (double) xs[i * 64 + k] * ws[o * 64 + k];
                }
                assertThat((double) ys[i * 16 + o]).isCloseTo(Math.max(0, sum + bs[o]), org.assertj.core.data.Offset.offset(1e-5));
            }
        }
    }

    @Test
    void aMixedPrecisionMatmulCastsTheOperandsNotTheirBroadcast() {
        Tensor a = data(8, 128, 128);
        Tensor b = data(9, 128, 128).cast(DType.FLOAT64).realize();
        counting.reset();
        Tensor product = Ein.einsum("i j, j k -> i k", a, b).realize();
        assertThat(product.dtype()).isEqualTo(DType.FLOAT64);
        assertThat(counting.peakBytes() - counting.liveBytes()).as("at most a float64 copy of a, never 128^3 elements")
                .isLessThanOrEqualTo(128L * 128 * 8);
        assertThat(counting.kernels()).hasSize(1);
    }

    @Test
    void twentyLayersRealizedAtOnceHoldAtMostThreeActivationBuffers() {
        int batch = 32;
        int width = 64;
        Tensor x = data(10, batch, width);
        Tensor[] weights = new Tensor[20];
        Tensor[] biases = new Tensor[20];
        for (int layer = 0; layer < 20; layer++) {
            weights[layer] = data(100 + layer, width, width).mul(0.3).realize();
            biases[layer] = data(200 + layer, width);
        }
        Tensor h = x;
        for (int layer = 0; layer < 20; layer++) {
            h = Ein.einsum("b i, o i -> b o", h, weights[layer]).add(biases[layer]).relu();
        }
        counting.reset();
        h.realize();
        long activation = (long) batch * width * 4;
        assertThat(counting.kernels()).as("one contraction kernel per layer").hasSize(20);
        assertThat(counting.peakBytes() - counting.liveBytes() + activation)
                .as("activation buffers held at once, the result included").isLessThanOrEqualTo(3 * activation);
        assertThat(counting.allocations()).as("buffers reused by liveness").isLessThanOrEqualTo(3);
        assertThat(counting.liveBytes()).as("after the realization only the result is new")
                .isLessThanOrEqualTo(counting.peakBytes());
    }

    @Test
    void aBufferLargerThanTheBackendHoldsFailsBeforeAnythingRuns() {
        Tensor x = data(11, 20, 30);
        counting.reset();
        counting.limitBuffers(500);
        Tensor y = x.exp().transpose(0, 1).contiguous();
        assertThatThrownBy(y::realize).isInstanceOf(ShapeException.class)
                .hasMessageContaining("[30, 20]").hasMessageContaining("600").hasMessageContaining("500")
                .hasMessageContaining(CountingBackend.NAME);
        assertThat(counting.kernels()).as("nothing ran").isEmpty();
        assertThat(counting.allocations()).as("nothing allocated").isZero();
        counting.reset();
        assertThat(y.realize().toFloatArray()).hasSize(600);
    }

    @Test
    void explainListsEachKernelWithItsInputsOutputAndSize() {
        Tensor x = data(12, 8, 100);
        Tensor max = x.reduce(Reduction.MAX, new int[] {1}, true);
        Tensor e = x.sub(max).exp();
        Tensor softmax = e.div(e.reduce(Reduction.SUM, new int[] {1}, true));
        String plan = softmax.explain();
        assertThat(plan).startsWith("3 kernels");
        assertThat(plan).contains("1. reduce -> ").contains("2. reduce -> ").contains("3. elementwise -> ")
                .contains("float32[8,100] (3.1 KiB)").contains("reduce_max").contains("exp").contains("reciprocal");
        counting.reset();
        assertThat(counting.kernels()).as("explain runs nothing").isEmpty();
        softmax.realize();
        assertThat(softmax.explain()).isEqualTo("0 kernels: already computed");
    }

    @Test
    void aSharedNodeReadThroughTwoDifferentViewsIsStoredOrRecomputedButCorrect() {
        Tensor x = data(13, 50, 50);
        Tensor y = x.exp().log().sin().exp().log().sin().exp().log().sin(); // nine primitives: too many to recompute
        Tensor z = y.mul(y.transpose(0, 1)).realize();
        assertThat(counting.computed(Op.SIN)).as("y computed once, then read twice").isEqualTo(3);
        float[] ys = y.toFloatArray();
        float[] zs = z.toFloatArray();
        for (int i = 0; i < 50; i += 7) {
            for (int j = 0; j < 50; j += 3) {
                assertThat(zs[i * 50 + j]).isEqualTo(ys[i * 50 + j] * ys[j * 50 + i]);
            }
        }
    }

    @Test
    void requestedViewsOfComputedValuesShareOneBuffer() {
        Tensor x = data(14, 6, 7);
        Tensor e = x.exp();
        Tensor t = e.transpose(0, 1);
        Tensor r = e.reshape(42);
        counting.reset();
        Tensor.realizeAll(t, r);
        assertThat(counting.kernels()).hasSize(1);
        assertThat(Results.get(TensorInternals.node(t)).storage()).isSameAs(Results.get(TensorInternals.node(r)).storage());
    }

    @Test
    void aConstantResultIsOneElementReadThroughZeroStrides() {
        Tensor c = Tensor.full(2.5, DType.FLOAT32, 1000, 1000);
        counting.reset();
        c.realize();
        assertThat(counting.allocations()).isEqualTo(1);
        assertThat(counting.peakBytes() - counting.liveBytes() + 4).isEqualTo(4);
        assertThat(c.sum().item()).isEqualTo(2.5e6);
    }

    @Test
    void chainsOfElementwiseOpsAreSplitIntoKernelsOfBoundedSize() {
        Tensor t = data(15, 3, 4);
        for (int i = 0; i < 1000; i++) {
            t = t.add(1.0);
        }
        counting.reset();
        t.realize();
        assertThat(counting.kernels().size()).isBetween(1000 / Scheduler.GROUP_CAPACITY, 1000 / Scheduler.GROUP_CAPACITY + 2);
        for (Kernel kernel : counting.kernels()) {
            // each add brings its constant: a generator (a parameter of the kernel) per fused node
            assertThat(kernel.size()).isLessThanOrEqualTo(2 * Scheduler.GROUP_CAPACITY + 4);
        }
        assertThat(counting.allocations()).as("a chain needs two buffers, reused").isLessThanOrEqualTo(3);
    }

    @Test
    void kernelsAreValuesUsableAsCacheKeys() {
        Tensor a = data(16, 10, 10);
        Tensor b = data(17, 10, 10);
        counting.reset();
        a.mul(2.0).exp().realize();
        b.mul(2.0).exp().realize();
        List<Kernel> ran = counting.kernels();
        assertThat(ran).hasSize(2);
        assertThat(ran.get(0)).as("same program on other buffers: one key").isEqualTo(ran.get(1));
        assertThat(ran.get(0).hashCode()).isEqualTo(ran.get(1).hashCode());
        a.mul(3.0).exp().realize();
        assertThat(counting.kernels().get(2)).as("numbers are parameters, not part of the kernel").isEqualTo(ran.get(0));
        a.mul(3.0).log().realize();
        assertThat(counting.kernels().get(3)).as("another program: another key").isNotEqualTo(ran.get(0));
        assertThat(a.mul(3.0).exp().toFloatArray()[7]).isEqualTo((float) Math.exp((float) (a.toFloatArray()[7] * 3.0f)));
    }
}
