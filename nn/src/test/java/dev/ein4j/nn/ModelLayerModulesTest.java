package dev.ein4j.nn;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.ein4j.autograd.Autograd;
import dev.ein4j.backend.Backend;
import dev.ein4j.backend.Backends;
import dev.ein4j.error.EinopsException;
import dev.ein4j.error.ShapeException;
import dev.ein4j.ir.DType;
import dev.ein4j.tensor.Axes;
import dev.ein4j.tensor.Generator;
import dev.ein4j.tensor.Tensor;
import dev.ein4j.testing.CountingBackend;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The modules of loaded checkpoints: state-dict names and shapes, printing, errors at the call, and
 * properties checked against independent computations (repeated key heads, the gradient of conv2d,
 * plain patterns).
 */
class ModelLayerModulesTest {

    private static Map<String, int[]> shapes(Module module) {
        Map<String, int[]> shapes = new java.util.LinkedHashMap<>();
        module.stateDict().forEach((name, tensor) -> shapes.put(name, tensor.shape()));
        return shapes;
    }

    private static Tensor random(long seed, int... shape) {
        return Tensor.randn(new Generator(seed), DType.FLOAT64, shape);
    }

    private static void assertSame(Tensor actual, Tensor expected, double tolerance, String what) {
        assertThat(actual.shape()).as(what + " shape").containsExactly(expected.shape());
        ModuleFixturesTest.assertClose(actual.toDoubleArray(), expected.toDoubleArray(), tolerance, what);
    }

    @Test
    void stateDictsHavePyTorchsAndHuggingFacesNames() {
        assertThat(shapes(new RmsNorm(4))).containsOnlyKeys("weight").containsEntry("weight", new int[] {4});
        assertThat(new RmsNorm(new int[] {4}, 1e-6, false).stateDict()).isEmpty();
        assertThat(shapes(new GroupNorm(2, 6))).containsOnlyKeys("weight", "bias").containsEntry("bias", new int[] {6});
        assertThat(new GroupNorm(2, 6, 1e-5, false).stateDict()).isEmpty();
        assertThat(shapes(LayerNorm.channelsFirst(3, 1e-6))).containsOnlyKeys("weight", "bias");
        assertThat(shapes(new GatedMlp(4, 6, false, Activation.silu())).keySet())
                .containsExactly("gate_proj.weight", "up_proj.weight", "down_proj.weight");
        assertThat(shapes(new GatedMlp(4, 6, true, Activation.silu()))).containsEntry("down_proj.weight", new int[] {4, 6})
                .containsEntry("up_proj.bias", new int[] {6}).hasSize(6);
        ConvTranspose2d up = new ConvTranspose2d(4, 6, 3, ConvTransposeOptions.defaults().groups(2));
        assertThat(shapes(up)).containsEntry("weight", new int[] {4, 3, 3, 3}).containsEntry("bias", new int[] {6});
        assertThat(new RotaryEmbedding(8, 1e4).stateDict()).isEmpty();
        assertThat(new AdaptiveAvgPool2d(2).stateDict()).isEmpty();
        assertThat(new Upsample(InterpolateOptions.scaleFactor(2)).stateDict()).isEmpty();
    }

    @Test
    void convTranspose2dInitializesAsPyTorchFromItsFanIn() {
        ConvTranspose2d up = new ConvTranspose2d(8, 6, new int[] {3, 2}, ConvTransposeOptions.defaults().groups(2), true,
                new Generator(12));
        double bound = 1 / Math.sqrt(3 * 3 * 2); // fan_in = out / groups · kh · kw of the weight [in, out / groups, kh, kw]
        double[] weight = up.weight().toDoubleArray();
        double[] bias = up.stateDict().get("bias").toDoubleArray();
        double largestWeight = java.util.Arrays.stream(weight).map(Math::abs).max().orElseThrow();
        double largestBias = java.util.Arrays.stream(bias).map(Math::abs).max().orElseThrow();
        assertThat(largestWeight).as("U(-bound, bound), spread over it").isLessThanOrEqualTo(bound).isGreaterThan(0.8 * bound);
        assertThat(largestBias).isLessThanOrEqualTo(bound);
    }

    @Test
    void modulesPrintLikeTheirPyTorchCounterparts() {
        assertThat(new GroupNorm(2, 6).toString()).isEqualTo("GroupNorm(2, 6, eps=1.0E-5, affine=true)");
        assertThat(new RmsNorm(8).toString()).isEqualTo("RmsNorm([8], eps=None, elementwise_affine=true)");
        assertThat(new GatedMlp(4, 6, false, Activation.silu()).toString()).contains("(gate_proj): Linear(in_features=4")
                .contains("(down_proj): Linear(in_features=6, out_features=4").contains("(act_fn): SiLU()");
        assertThat(Activation.named("gelu_new").toString()).isEqualTo("GELU(approximate='tanh')");
        assertThat(new AdaptiveAvgPool2d(3, 2).toString()).isEqualTo("AdaptiveAvgPool2d(output_size=(3, 2))");
        assertThat(new Upsample(InterpolateOptions.size(4, 5).mode(InterpolationMode.BILINEAR).alignCorners(true)).toString())
                .isEqualTo("Upsample(size=[4, 5], mode='bilinear', align_corners=true)");
        assertThat(LayerNorm.channelsFirst(3, 1e-6).toString()).contains("data_format=channels_first");
    }

    @Test
    void theWorkedExamplesOfTheJavadocHold() {
        assertThat(Functional.relu6(Tensor.of(new double[] {-1, 3, 7})).toDoubleArray()).containsExactly(0, 3, 6);
        assertThat(Functional.hardswish(Tensor.of(new double[] {-4, 0, 1, 4})).toDoubleArray())
                .containsExactly(new double[] {-0.0, 0, 2.0 / 3, 4}, within(1e-15));
        assertThat(Functional.hardsigmoid(Tensor.of(new double[] {-4, 0, 1.5, 4})).toDoubleArray())
                .containsExactly(new double[] {0, 0.5, 0.75, 1}, within(1e-15));
        assertThat(Functional.rmsNorm(Tensor.of(new double[] {3, 4}), new int[] {2}, null, 0.0).toDoubleArray())
                .containsExactly(new double[] {3 / Math.sqrt(12.5), 4 / Math.sqrt(12.5)}, within(1e-15));
        Tensor transposed = Functional.convTranspose2d(Tensor.ones(1, 8, 5, 5), Tensor.ones(8, 4, 3, 3),
                Tensor.zeros(4), ConvTransposeOptions.defaults().stride(2).padding(1).outputPadding(1));
        assertThat(transposed.shape()).containsExactly(1, 4, 10, 10);
        assertThat(Functional.adaptiveAvgPool2d(Tensor.arange(DType.FLOAT64, 25).reshape(1, 1, 5, 5), 3, 3).toDoubleArray())
                .as("bins [0, 2), [1, 4), [3, 5)").containsExactly(3, 4.5, 6, 10.5, 12, 13.5, 18, 19.5, 21);
    }

    @Test
    void groupedQueryAttentionEqualsAttentionOverRepeatedKeyAndValueHeads() {
        Tensor q = random(1, 2, 6, 3, 4).requireGrad();
        Tensor k = random(2, 2, 2, 5, 4).requireGrad();
        Tensor v = random(3, 2, 2, 5, 3).requireGrad();
        Tensor keep = Tensor.rand(new Generator(4), 2, 1, 3, 5).ge(0.3).logicalOr(Tensor.arange(5).eq(0));
        AttentionOptions options = AttentionOptions.defaults().mask(keep).scale(0.7);
        Tensor grouped = Functional.scaledDotProductAttention(q, k, v, options.enableGqa(true));
        Axes three = Axes.of("g", 3);
        Tensor repeated = Functional.scaledDotProductAttention(q, k.repeat("b h s e -> b (h g) s e", three),
                v.repeat("b h s e -> b (h g) s e", three), options);
        assertSame(grouped, repeated, 1e-13, "values");
        Tensor upstream = random(5, 2, 6, 3, 3);
        List<Tensor> viaGroups = Autograd.grad(grouped.mul(upstream).sum(), List.of(q, k, v));
        List<Tensor> viaCopies = Autograd.grad(repeated.mul(upstream).sum(), List.of(q, k, v));
        for (int i = 0; i < 3; i++) {
            assertSame(viaGroups.get(i), viaCopies.get(i), 1e-12, "gradient " + i);
        }
    }

    @Test
    void multiQueryAttentionNeverHoldsACopyOfTheKeysPerQueryHead() {
        Backend previous = Backends.current();
        CountingBackend counting = (CountingBackend) Backends.use(CountingBackend.NAME);
        try {
            int heads = 16;
            Tensor q = Tensor.randn(new Generator(1), 1, heads, 4, 64).realize().requireGrad();
            Tensor k = Tensor.randn(new Generator(2), 1, 1, 256, 64).realize().requireGrad();
            Tensor v = Tensor.randn(new Generator(3), 1, 1, 256, 64).realize().requireGrad();
            long keyBytes = 4L * 256 * 64;
            counting.reset();
            long before = counting.liveBytes();
            Tensor y = Functional.scaledDotProductAttention(q, k, v, AttentionOptions.defaults().enableGqa(true));
            y.square().sum().backward();
            long peak = counting.peakBytes() - before;
            assertThat(k.grad().shape()).containsExactly(1, 1, 256, 64);
            assertThat(peak).as("peak bytes beside keys repeated per query head, %d", heads * keyBytes)
                    .isLessThan(heads * keyBytes / 2);
            assertThat(counting.doubleReleases()).isZero();
        } finally {
            Backends.use(previous.name());
        }
    }

    @Test
    void transposedConvolutionIsTheInputGradientOfConvolution() {
        int[][] settings = {{2, 1, 1, 1}, {2, 0, 1, 2}, {3, 2, 2, 1}, {1, 1, 2, 2}}; // stride, padding, dilation, groups
        for (int[] setting : settings) {
            int stride = setting[0];
            int padding = setting[1];
            int dilation = setting[2];
            int groups = setting[3];
            Tensor z = random(6, 2, 4, 9, 8).requireGrad();
            Tensor w = random(7, 6, 4 / groups, 3, 3);
            ConvolutionOptions forward = ConvolutionOptions.defaults().stride(stride).padding(padding).dilation(dilation)
                    .groups(groups);
            Tensor y = Functional.conv2d(z, w, forward);
            Tensor x = random(8, y.shape());
            Tensor expected = Autograd.grad(y.mul(x).sum(), List.of(z)).get(0);
            int[] outputPadding = new int[2];
            for (int i = 0; i < 2; i++) {
                int reach = (y.length(2 + i) - 1) * stride - 2 * padding + dilation * 2 + 1;
                outputPadding[i] = z.length(2 + i) - reach;
            }
            Tensor actual = Functional.convTranspose2d(x, w, ConvTransposeOptions.defaults().stride(stride).padding(padding)
                    .dilation(dilation).groups(groups).outputPadding(outputPadding));
            assertSame(actual, expected, 1e-12, "stride " + stride + ", padding " + padding + ", dilation " + dilation
                    + ", groups " + groups);
        }
    }

    @Test
    void resamplingAgreesWithPlainPatternsWhereSizesDivide() {
        Tensor x = random(9, 2, 3, 6, 4);
        assertSame(Functional.interpolate(x, InterpolateOptions.scaleFactor(2, 3)),
                x.repeat("b c h w -> b c (h 2) (w 3)"), 0, "nearest by whole factors");
        assertSame(Functional.adaptiveAvgPool2d(x, 3, 2), Functional.avgPool2d(x, 2), 1e-15, "adaptive by whole factors");
        assertSame(Functional.adaptiveAvgPool2d(x, 1, 1), x.mean(new int[] {2, 3}, true), 1e-15, "global average");
        assertSame(Functional.interpolate(x, InterpolateOptions.size(6, 4).mode(InterpolationMode.BILINEAR)), x, 0,
                "bilinear to the same size");
        assertSame(new Upsample(InterpolateOptions.size(5, 7).mode(InterpolationMode.BILINEAR)).forward(x),
                Functional.interpolate(x, InterpolateOptions.size(5, 7).mode(InterpolationMode.BILINEAR)), 0, "Upsample");
        assertSame(new AdaptiveAvgPool2d(4, 3).forward(x), Functional.adaptiveAvgPool2d(x, 4, 3), 0, "AdaptiveAvgPool2d");
        Tensor corners = Functional.interpolate(x, InterpolateOptions.size(11, 7).mode(InterpolationMode.BILINEAR)
                .alignCorners(true));
        for (int[] corner : new int[][] {{0, 0, 0, 0}, {0, 0, 5, 3}, {1, 2, 0, 3}, {1, 2, 5, 0}}) {
            int[] out = {corner[0], corner[1], corner[2] * 2, corner[3] * 2};
            assertThat(corners.get(out)).as("aligned corner").isCloseTo(x.get(corner), within(1e-14));
        }
    }

    @Test
    void rotaryEmbeddingsFollowThePositionIdsAndKeepEachPairsLength() {
        RotaryEmbedding rotary = new RotaryEmbedding(8, 10000.0);
        RotaryEmbedding.CosSin all = rotary.cosSin(Tensor.arange(12).unsqueeze(0));
        RotaryEmbedding.CosSin later = rotary.cosSin(Tensor.of(new int[] {9, 10, 11}, 1, 3));
        assertThat(later.cos().toDoubleArray()).as("a cached decoder's positions 9-11")
                .containsExactly(all.cos().slice(1, 9, 12).toDoubleArray());
        assertThat(later.sin().toDoubleArray()).containsExactly(all.sin().slice(1, 9, 12).toDoubleArray());
        Tensor x = random(10, 2, 3, 12, 8);
        RotaryEmbedding.CosSin angles = rotary.cosSin(Tensor.arange(12), DType.FLOAT64);
        Tensor rotated = Functional.applyRotaryEmbedding(x, angles.cos(), angles.sin());
        assertSame(rotary.forward(x), rotated, 0, "forward: positions 0..t-1");
        Tensor pairs = x.rearrange("b h t (r f) -> b h t r f", Axes.of("r", 2)).square().sum(-2);
        Tensor rotatedPairs = rotated.rearrange("b h t (r f) -> b h t r f", Axes.of("r", 2)).square().sum(-2);
        assertSame(rotatedPairs, pairs, 1e-12, "feature i and i + d/2 rotate as a pair");
        Tensor partial = Functional.applyRotaryEmbedding(x, angles.cos().slice(-1, 0, 4), angles.sin().slice(-1, 0, 4));
        assertThat(partial.slice(-1, 4, 8).toDoubleArray()).as("features past the rotary dimension pass")
                .containsExactly(x.slice(-1, 4, 8).toDoubleArray());
    }

    @Test
    void badArgumentsAreTheLibrarysErrorsNamingTheShapes() {
        Tensor q = Tensor.ones(1, 4, 3, 2);
        Tensor k = Tensor.ones(1, 3, 3, 2);
        assertThatThrownBy(() -> Functional.scaledDotProductAttention(q, k, k, AttentionOptions.defaults().enableGqa(true)))
                .isInstanceOf(ShapeException.class).hasMessageContaining("[1, 4, 3, 2]").hasMessageContaining("[1, 3, 3, 2]");
        assertThatThrownBy(() -> Functional.scaledDotProductAttention(Tensor.ones(3, 2), Tensor.ones(3, 2), Tensor.ones(3, 2),
                AttentionOptions.defaults().enableGqa(true))).isInstanceOf(ShapeException.class);
        assertThatThrownBy(() -> Functional.convTranspose2d(Tensor.ones(1, 2, 3, 3), Tensor.ones(2, 2, 3, 3),
                ConvTransposeOptions.defaults().stride(2).outputPadding(2))).isInstanceOf(EinopsException.class)
                .hasMessageContaining("output_padding");
        assertThatThrownBy(() -> Functional.convTranspose2d(Tensor.ones(1, 3, 3, 3), Tensor.ones(2, 2, 3, 3),
                ConvTransposeOptions.defaults())).isInstanceOf(ShapeException.class).hasMessageContaining("3 channels");
        assertThatThrownBy(() -> Functional.convTranspose2d(Tensor.ones(1, 2, 2, 2), Tensor.ones(2, 2, 1, 1),
                ConvTransposeOptions.defaults().padding(1))).isInstanceOf(ShapeException.class).hasMessageContaining("output length");
        assertThatThrownBy(() -> Functional.rmsNorm(Tensor.ones(2, 5), new int[] {4}, null))
                .isInstanceOf(ShapeException.class).hasMessageContaining("[2, 5]");
        assertThatThrownBy(() -> Functional.groupNorm(Tensor.ones(2, 6, 3), 4, 1e-5)).isInstanceOf(ShapeException.class)
                .hasMessageContaining("divide the 6 channels");
        assertThatThrownBy(() -> Functional.applyRotaryEmbedding(Tensor.ones(1, 2, 3, 4), Tensor.ones(1, 3, 3),
                Tensor.ones(1, 3, 3))).as("an odd rotary dimension").isInstanceOf(ShapeException.class);
        assertThatThrownBy(() -> Functional.applyRotaryEmbedding(Tensor.ones(1, 2, 3, 4), Tensor.ones(1, 5, 4),
                Tensor.ones(1, 5, 4))).as("other positions").isInstanceOf(ShapeException.class).hasMessageContaining("broadcast");
        assertThatThrownBy(() -> new RotaryEmbedding(8, 1e4).cosSin(Tensor.ones(1, 3))).isInstanceOf(ShapeException.class)
                .hasMessageContaining("int32");
        assertThatThrownBy(() -> new RotaryEmbedding(7, 1e4)).isInstanceOf(EinopsException.class);
        assertThatThrownBy(() -> Functional.interpolate(Tensor.ones(1, 1, 3, 3), InterpolateOptions.size(4).alignCorners(true)))
                .isInstanceOf(EinopsException.class).hasMessageContaining("align_corners");
        assertThatThrownBy(() -> Functional.interpolate(Tensor.ones(1, 2, 5), InterpolateOptions.size(3)
                .mode(InterpolationMode.BILINEAR))).isInstanceOf(ShapeException.class).hasMessageContaining("4-d");
        assertThatThrownBy(() -> Functional.interpolate(Tensor.ones(1, 1, 3, 3), InterpolateOptions.scaleFactor(0.2)))
                .isInstanceOf(EinopsException.class).hasMessageContaining("output lengths");
        assertThatThrownBy(() -> Functional.adaptiveAvgPool2d(Tensor.ones(4, 4), 2, 2)).isInstanceOf(ShapeException.class);
        assertThatThrownBy(() -> Functional.layerScale(Tensor.ones(2, 3), Tensor.ones(2))).isInstanceOf(ShapeException.class);
        assertThatThrownBy(() -> new GatedMlp(4, 6, false, Activation.silu()).forward(Tensor.ones(2, 5)))
                .isInstanceOf(ShapeException.class).hasMessageContaining("4 features");
        assertThatThrownBy(() -> new GroupNorm(4, 6)).isInstanceOf(EinopsException.class);
        assertThatThrownBy(() -> Activation.named("gelu_bogus")).isInstanceOf(EinopsException.class)
                .hasMessageContaining("gelu_bogus").hasMessageContaining("gelu_new");
        assertThatThrownBy(() -> InterpolationMode.of("cubic")).isInstanceOf(EinopsException.class)
                .hasMessageContaining("cubic");
        assertThatThrownBy(() -> Functional.relu6(Tensor.of(new int[] {1, 2}))).isInstanceOf(ShapeException.class);
    }

    @Test
    void namedActivationsAreTheFunctionsTheyName() {
        Tensor x = random(11, 3, 4);
        assertSame(Activation.named("gelu_pytorch_tanh").forward(x), x.geluTanh(), 0, "gelu_pytorch_tanh");
        assertSame(Activation.named("gelu").forward(x), x.gelu(), 0, "gelu");
        assertSame(Activation.named("swish").forward(x), x.silu(), 0, "swish");
        assertSame(Activation.named("quick_gelu").forward(x), x.mul(x.mul(1.702).sigmoid()), 1e-15, "quick_gelu");
        assertSame(Activation.named("gelu_fast").forward(x), x.geluTanh(), 1e-10, "gelu_fast (a rounded constant)");
        assertSame(Activation.named("relu6").forward(x.mul(5)), x.mul(5).clamp(0, 6), 0, "relu6");
        assertSame(Activation.named("linear").forward(x), x, 0, "linear");
    }
}
