package dev.ein4j.nn;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ein4j.autograd.GradCheck;
import dev.ein4j.autograd.GradCheck.Domain;
import dev.ein4j.tensor.Axes;
import dev.ein4j.tensor.Generator;
import dev.ein4j.tensor.Tensor;
import java.util.List;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/** Float64 finite-difference checks of every layer function, gradients with respect to every floating input. */
class LayerGradientTest {

    static Tensor input(long seed, int... shape) {
        return GradCheck.randomInput(seed, Domain.ANY, shape);
    }

    static void check(String what, Function<List<Tensor>, Tensor> function, Tensor... inputs) {
        GradCheck.Result result = GradCheck.check(function, List.of(inputs));
        assertThat(result.passed(1e-6)).as(what + ": " + result).isTrue();
    }

    @Test
    void convolutions() {
        check("conv1d stride 2 padding 1 dilation 2", in -> Functional.conv1d(in.get(0), in.get(1), in.get(2),
                ConvolutionOptions.defaults().stride(2).padding(1).dilation(2)), input(1, 2, 3, 11), input(2, 4, 3, 3), input(3, 4));
        check("conv2d groups 2, same padding", in -> Functional.conv2d(in.get(0), in.get(1),
                ConvolutionOptions.defaults().samePadding().groups(2)), input(4, 1, 4, 5, 6), input(5, 6, 2, 2, 3));
        check("conv2d stride (2, 1) padding (1, 2) dilation (1, 2)", in -> Functional.conv2d(in.get(0), in.get(1), in.get(2),
                ConvolutionOptions.defaults().stride(2, 1).padding(1, 2).dilation(1, 2)), input(6, 2, 2, 7, 6),
                input(7, 3, 2, 3, 2), input(8, 3));
        check("depthwise conv2d, unbatched", in -> Functional.conv2d(in.get(0), in.get(1),
                ConvolutionOptions.defaults().groups(3).padding(1)), input(9, 3, 5, 5), input(10, 3, 1, 3, 3));
        check("conv3d", in -> Functional.conv3d(in.get(0), in.get(1), in.get(2), ConvolutionOptions.defaults().padding(1, 0, 1)),
                input(11, 1, 2, 3, 4, 4), input(12, 2, 2, 2, 2, 3), input(13, 2));
    }

    @Test
    void pooling() {
        Tensor tieFree = GradCheck.randomInput(14, Domain.TIE_FREE, 2, 2, 7, 7);
        check("max_pool2d kernel 3 stride 2 padding 1", in -> Functional.maxPool2d(in.get(0),
                PoolingOptions.kernel(3).stride(2).padding(1)), tieFree);
        check("max_pool2d dilated", in -> Functional.maxPool2d(in.get(0), PoolingOptions.kernel(2).stride(1).dilation(2)), tieFree);
        check("max_pool1d", in -> Functional.maxPool1d(in.get(0), PoolingOptions.kernel(3).stride(2)),
                GradCheck.randomInput(15, Domain.TIE_FREE, 2, 3, 9));
        check("avg_pool2d counting padding", in -> Functional.avgPool2d(in.get(0), PoolingOptions.kernel(3, 2).stride(2, 1).padding(1)),
                input(16, 1, 2, 6, 5));
        check("avg_pool2d not counting padding", in -> Functional.avgPool2d(in.get(0),
                PoolingOptions.kernel(3).stride(2).padding(1).countIncludePad(false)), input(17, 2, 1, 7, 6));
        check("avg_pool1d with divisor", in -> Functional.avgPool1d(in.get(0), PoolingOptions.kernel(2).divisorOverride(3)),
                input(18, 2, 2, 8));
    }

    @Test
    void normalizationEmbeddingAndLinear() {
        check("batch_norm training", in -> Functional.batchNorm(in.get(0), in.get(1), in.get(2), 1e-5),
                input(19, 4, 3, 2, 2), input(20, 3), input(21, 3));
        Tensor runningMean = Tensor.zeros(dev.ein4j.ir.DType.FLOAT64, 3).contiguous().realize();
        Tensor runningVar = Tensor.ones(dev.ein4j.ir.DType.FLOAT64, 3).contiguous().realize();
        check("batch_norm evaluation", in -> Functional.batchNorm(in.get(0), runningMean, runningVar, in.get(1), in.get(2),
                false, 0.1, 1e-5), input(22, 4, 3, 5), input(23, 3), input(24, 3));
        check("layer_norm", in -> Functional.layerNorm(in.get(0), new int[] {2, 3}, in.get(1), in.get(2), 1e-5),
                input(25, 4, 2, 3), input(26, 2, 3), input(27, 2, 3));
        Tensor indices = Tensor.of(new int[] {0, 3, 3, 1, 4, 0}, 2, 3);
        check("embedding", in -> Functional.embedding(indices, in.get(0)), input(28, 5, 4));
        Tensor table = input(29, 5, 4).requireGrad();
        Functional.embedding(indices, table, 3).mul(input(30, 2, 3, 4)).sum().backward();
        Tensor plain = input(29, 5, 4).requireGrad();
        Functional.embedding(indices, plain).mul(input(30, 2, 3, 4)).sum().backward();
        double[] padded = table.grad().toDoubleArray();
        double[] expected = plain.grad().toDoubleArray();
        for (int i = 0; i < expected.length; i++) {
            assertThat(padded[i]).as("element %d", i).isEqualTo(i / 4 == 3 ? 0.0 : expected[i]);
        }
        check("linear", in -> Functional.linear(in.get(0), in.get(1), in.get(2)), input(30, 2, 3, 4), input(31, 5, 4), input(32, 5));
    }

    @Test
    void attentionAndDropout() {
        check("attention", in -> Functional.scaledDotProductAttention(in.get(0), in.get(1), in.get(2)),
                input(33, 2, 3, 4), input(34, 2, 5, 4), input(35, 2, 5, 2));
        check("causal attention with a scale", in -> Functional.scaledDotProductAttention(in.get(0), in.get(1), in.get(2),
                AttentionOptions.defaults().causal(true).scale(0.7)), input(36, 1, 2, 4, 3), input(37, 1, 2, 4, 3), input(38, 1, 2, 4, 3));
        Tensor keep = Tensor.of(new boolean[] {true, false, true, false, false, false, true, true, true}, 3, 3);
        check("attention with a row fully masked", in -> Functional.scaledDotProductAttention(in.get(0), in.get(1), in.get(2),
                AttentionOptions.defaults().mask(keep)), input(39, 2, 3, 4), input(40, 2, 3, 4), input(41, 2, 3, 4));
        check("dropout with a fixed generator", in -> Functional.dropout(in.get(0), 0.4, true, new Generator(7)), input(42, 3, 5));
    }

    @Test
    void patternModules() {
        EinMix mix = new EinMix("b (t c) -> b t d", "c d", "d", Axes.of("c", 3, "d", 2, "t", 2));
        mix.cast(dev.ein4j.ir.DType.FLOAT64);
        check("EinMix", in -> mix.forward(in.get(0)), input(43, 4, 6));
        MultiHeadAttention attention = new MultiHeadAttention(4, 2, 0.0, new Generator(3));
        attention.cast(dev.ein4j.ir.DType.FLOAT64);
        check("multi-head attention", in -> attention.forward(in.get(0), in.get(1), in.get(1)), input(44, 2, 3, 4), input(45, 2, 5, 4));
    }
}
