package dev.ein4j.nn;

import static dev.ein4j.nn.LayerGradientTest.check;
import static dev.ein4j.nn.LayerGradientTest.input;
import static org.assertj.core.api.Assertions.assertThat;

import dev.ein4j.autograd.GradCheck;
import dev.ein4j.ir.DType;
import dev.ein4j.tensor.Generator;
import dev.ein4j.tensor.Tensor;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Float64 finite-difference checks of the layers that loaded checkpoints need, gradients with
 * respect to every floating input (weights, biases, masks, cos and sin included), with
 * {@link LayerGradientTest}'s inputs and tolerance.
 */
class ModelLayerGradientTest {

    @Test
    void normalizations() {
        check("rms_norm with weight", in -> Functional.rmsNorm(in.get(0), new int[] {5}, in.get(1), 1e-6),
                input(1, 2, 3, 5), input(2, 5));
        check("rms_norm over two dimensions, default eps", in -> Functional.rmsNorm(in.get(0), new int[] {2, 3}, null),
                input(3, 4, 2, 3));
        check("group_norm", in -> Functional.groupNorm(in.get(0), 2, in.get(1), in.get(2), 1e-5),
                input(4, 2, 4, 3, 2), input(5, 4), input(6, 4));
        check("group_norm without affine, rank 3", in -> Functional.groupNorm(in.get(0), 3, 1e-3), input(7, 2, 6, 4));
        check("channels-first layer norm", in -> Functional.layerNormChannels(in.get(0), in.get(1), in.get(2), 1e-6),
                input(8, 2, 3, 2, 4), input(9, 3), input(10, 3));
        check("layer scale, channels last and first", in -> Functional.layerScale(in.get(0), in.get(1))
                .add(Functional.layerScale(in.get(0).rearrange("b h w c -> b c h w"), in.get(1), 1)
                        .rearrange("b c h w -> b h w c")), input(11, 2, 2, 3, 4), input(12, 4));
    }

    @Test
    void rotaryEmbeddingsAndGroupedAttention() {
        check("rotary, cos and sin as inputs", in -> Functional.applyRotaryEmbedding(in.get(0), in.get(1), in.get(2)),
                input(13, 2, 3, 4, 6), input(14, 2, 4, 6), input(15, 2, 4, 6));
        check("partial rotary", in -> Functional.applyRotaryEmbedding(in.get(0), in.get(1), in.get(2)),
                input(16, 1, 2, 3, 8), input(17, 1, 3, 4), input(18, 1, 3, 4));
        RotaryEmbedding.CosSin angles = new RotaryEmbedding(4, 10000.0)
                .cosSin(Tensor.of(new int[] {7, 8, 9}, 1, 3), DType.FLOAT64);
        check("rotary from position ids", in -> Functional.applyRotaryEmbedding(in.get(0), angles.cos(), angles.sin()),
                input(19, 1, 2, 3, 4));
        Tensor keep = Tensor.of(new boolean[] {true, false, true, true, true, false, true, false, true, true, false, true}, 3, 4);
        check("grouped-query attention with a bool mask", in -> Functional.scaledDotProductAttention(in.get(0), in.get(1),
                in.get(2), AttentionOptions.defaults().enableGqa(true).mask(keep)),
                input(20, 2, 4, 3, 5), input(21, 2, 2, 4, 5), input(22, 2, 2, 4, 3));
        check("multi-query causal attention", in -> Functional.scaledDotProductAttention(in.get(0), in.get(1), in.get(2),
                AttentionOptions.defaults().enableGqa(true).causal(true).scale(0.4)),
                input(23, 1, 3, 4, 2), input(24, 1, 1, 4, 2), input(25, 1, 1, 4, 2));
        check("grouped-query attention with an additive mask", in -> Functional.scaledDotProductAttention(in.get(0),
                in.get(1), in.get(2), AttentionOptions.defaults().enableGqa(true).mask(in.get(3))),
                input(26, 1, 4, 2, 3), input(27, 1, 2, 3, 3), input(28, 1, 1, 3, 3), input(29, 4, 2, 3));
        check("grouped-query attention with dropout from a fixed generator", in -> Functional.scaledDotProductAttention(
                in.get(0), in.get(1), in.get(2), AttentionOptions.defaults().enableGqa(true).dropout(0.3, new Generator(5))),
                input(49, 2, 4, 3, 2), input(50, 2, 2, 3, 2), input(51, 2, 2, 3, 2));
    }

    @Test
    void piecewiseActivationsAwayFromTheirKinks() {
        Tensor x = Tensor.of(new double[] {-7.1, -3.4, -2.6, -1.2, -0.3, 0.4, 1.7, 2.8, 3.3, 5.2, 6.5, 9.0}, 3, 4);
        check("relu6", in -> Functional.relu6(in.get(0)), x);
        check("hardswish", in -> Functional.hardswish(in.get(0)), x);
        GradCheck.Result hardsigmoid = GradCheck.check(in -> Functional.hardsigmoid(in.get(0)), List.of(x));
        // PyTorch's float64 slope is the float 1/6, 3e-8 from the finite differences' 1/6
        assertThat(hardsigmoid.passed(1e-7)).as("hardsigmoid: " + hardsigmoid).isTrue();
        check("gelu (tanh) and silu modules", in -> Activation.geluTanh().forward(in.get(0))
                .add(Activation.named("quick_gelu").forward(in.get(0))).add(Activation.named("gelu_fast").forward(in.get(0))), x);
    }

    @Test
    void resampling() {
        check("adaptive_avg_pool2d, overlapping bins", in -> Functional.adaptiveAvgPool2d(in.get(0), 3, 2), input(30, 2, 2, 5, 5));
        check("adaptive_avg_pool2d, divisible and larger", in -> Functional.adaptiveAvgPool2d(in.get(0), 2, 7),
                input(31, 1, 2, 6, 4));
        check("nearest by 2", in -> Functional.interpolate(in.get(0), InterpolateOptions.scaleFactor(2)), input(32, 1, 2, 3, 2));
        check("nearest to 5x3", in -> Functional.interpolate(in.get(0), InterpolateOptions.size(5, 3)), input(33, 1, 2, 3, 4));
        check("bilinear", in -> Functional.interpolate(in.get(0), InterpolateOptions.size(5, 7)
                .mode(InterpolationMode.BILINEAR)), input(34, 2, 1, 3, 4));
        check("bilinear, corners aligned, down", in -> Functional.interpolate(in.get(0), InterpolateOptions.scaleFactor(0.6)
                .mode(InterpolationMode.BILINEAR).alignCorners(true)), input(35, 1, 2, 6, 5));
        check("trilinear", in -> Functional.interpolate(in.get(0), InterpolateOptions.size(3, 2, 4)
                .mode(InterpolationMode.TRILINEAR)), input(36, 1, 1, 2, 3, 2));
    }

    @Test
    void transposedConvolutions() {
        check("conv_transpose2d stride 2, padding 1, output padding 1", in -> Functional.convTranspose2d(in.get(0),
                in.get(1), in.get(2), ConvTransposeOptions.defaults().stride(2).padding(1).outputPadding(1)),
                input(37, 2, 3, 3, 3), input(38, 3, 2, 3, 3), input(39, 2));
        check("conv_transpose2d groups, dilation, rectangular", in -> Functional.convTranspose2d(in.get(0), in.get(1),
                ConvTransposeOptions.defaults().stride(2, 1).dilation(1, 2).groups(2).padding(0, 1)),
                input(40, 1, 4, 3, 2), input(41, 4, 3, 2, 3));
        check("conv_transpose2d padding past the kernel", in -> Functional.convTranspose2d(in.get(0), in.get(1),
                ConvTransposeOptions.defaults().stride(3).padding(3).outputPadding(2)), input(42, 1, 2, 3, 3), input(43, 2, 1, 3, 3));
        check("conv_transpose1d unbatched", in -> Functional.convTranspose1d(in.get(0), in.get(1), in.get(2),
                ConvTransposeOptions.defaults().stride(2)), input(44, 2, 4), input(45, 2, 3, 3), input(46, 3));
    }

    @Test
    void modules() {
        GatedMlp mlp = new GatedMlp(4, 6, true, Activation.silu(), new Generator(3));
        mlp.cast(DType.FLOAT64);
        check("gated MLP", in -> mlp.forward(in.get(0)), input(47, 2, 3, 4));
        ConvTranspose2d up = new ConvTranspose2d(2, 3, new int[] {2, 3}, ConvTransposeOptions.defaults().stride(2), true,
                new Generator(4));
        up.cast(DType.FLOAT64);
        check("ConvTranspose2d", in -> up.forward(in.get(0)), input(48, 1, 2, 3, 3));
    }
}
