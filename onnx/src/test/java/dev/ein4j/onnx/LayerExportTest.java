package dev.ein4j.onnx;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ein4j.nn.ConvTransposeOptions;
import dev.ein4j.nn.ConvolutionOptions;
import dev.ein4j.nn.Functional;
import dev.ein4j.nn.PoolingOptions;
import dev.ein4j.tensor.Generator;
import dev.ein4j.tensor.Reduction;
import dev.ein4j.tensor.Tensor;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * nn's convolutions and poolings, which are window einsums and window reductions in the IR, export
 * as one Conv, MaxPool or AveragePool each (no Gather, no MatMul), and agree with ein4j.
 */
class LayerExportTest {

    @TempDir
    Path directory;

    private static Tensor random(long seed, int... shape) {
        return Tensor.randn(new Generator(seed), shape).realize();
    }

    private ExportedModel convolution(String what, Tensor x, Tensor weight, Tensor bias, ConvolutionOptions options) {
        ExportedModel exported = Exports.agree(directory, what, in -> List.of(switch (weight.rank()) {
            case 3 -> bias == null ? Functional.conv1d(in.get(0), weight, options) : Functional.conv1d(in.get(0), weight, bias, options);
            case 4 -> bias == null ? Functional.conv2d(in.get(0), weight, options) : Functional.conv2d(in.get(0), weight, bias, options);
            default -> Functional.conv3d(in.get(0), weight, options);
        }), x);
        assertThat(exported.operatorCounts()).as(what).containsEntry("Conv", 1).doesNotContainKeys("Gather", "MatMul");
        return exported;
    }

    @Test
    void convolutionsAreConv() {
        Tensor x = random(1, 2, 4, 9, 8);
        Tensor bias = random(3, 6);
        convolution("conv2d", x, random(2, 6, 4, 3, 3), bias, ConvolutionOptions.defaults());
        convolution("conv2d stride 2 padding 1", x, random(2, 6, 4, 3, 3), bias, ConvolutionOptions.defaults().stride(2).padding(1));
        convolution("conv2d stride 2,1 dilation 2", x, random(2, 6, 4, 3, 2), bias,
                ConvolutionOptions.defaults().stride(2, 1).dilation(2));
        convolution("conv2d groups 2", x, random(2, 6, 2, 3, 3), bias, ConvolutionOptions.defaults().groups(2).padding(1));
        convolution("conv2d depthwise", x, random(2, 4, 1, 3, 3), null, ConvolutionOptions.defaults().groups(4).padding(1));
        convolution("conv2d depthwise multiplier 2", x, random(2, 8, 1, 3, 3), null, ConvolutionOptions.defaults().groups(4));
        convolution("conv2d same", x, random(2, 6, 4, 4, 3), bias, ConvolutionOptions.defaults().samePadding());
        convolution("conv2d 1x1", x, random(2, 6, 4, 1, 1), bias, ConvolutionOptions.defaults());
        convolution("conv2d patches", random(4, 2, 3, 8, 8), random(2, 5, 3, 4, 4), bias.slice(0, 0, 5),
                ConvolutionOptions.defaults().stride(4));
        convolution("conv2d one image", random(5, 1, 4, 6, 6), random(2, 6, 4, 3, 3), bias, ConvolutionOptions.defaults());
        convolution("conv1d", random(6, 2, 3, 11), random(7, 5, 3, 4), null, ConvolutionOptions.defaults().stride(3).padding(2));
        convolution("conv3d", random(8, 1, 2, 5, 6, 4), random(9, 3, 2, 2, 3, 2), null, ConvolutionOptions.defaults().padding(1));
    }

    @Test
    void transposedConvolutionIsAConvOfTheSpreadInput() {
        Tensor x = random(10, 2, 4, 5, 6);
        Tensor weight = random(11, 4, 3, 3, 3);
        ExportedModel exported = Exports.agree(directory, "conv transpose 2d", in -> List.of(Functional.convTranspose2d(
                in.get(0), weight, ConvTransposeOptions.defaults().stride(2).padding(1).outputPadding(1))), x);
        assertThat(exported.operatorCounts()).containsEntry("Conv", 1).doesNotContainKey("Gather");
    }

    @Test
    void poolingsAreMaxPoolAndAveragePool() {
        Tensor x = random(12, 2, 3, 9, 10);
        ExportedModel max = Exports.agree(directory, "max pool 3 stride 2 padding 1", in -> List.of(Functional.maxPool2d(
                in.get(0), PoolingOptions.kernel(3).stride(2).padding(1))), x);
        assertThat(max.operatorCounts()).containsEntry("MaxPool", 2).doesNotContainKeys("Gather", "ReduceMax");
        ExportedModel dilated = Exports.agree(directory, "max pool dilation 2", in -> List.of(Functional.maxPool2d(
                in.get(0), PoolingOptions.kernel(2).dilation(2))), x);
        assertThat(dilated.operatorCounts()).containsKey("MaxPool").doesNotContainKey("Gather");
        ExportedModel reshaped = Exports.agree(directory, "max pool as a reshape", in -> List.of(in.get(0).slice(3, 0, 8)
                .reduce("b c (h 3) (w 2) -> b c h w", Reduction.MAX)), x);
        assertThat(reshaped.operatorCounts()).containsKey("MaxPool");
        ExportedModel average = Exports.agree(directory, "average pool without padding counts", in -> List.of(
                Functional.avgPool2d(in.get(0), PoolingOptions.kernel(3).stride(2).padding(1).countIncludePad(false))), x);
        assertThat(average.operatorCounts()).containsKey("AveragePool").doesNotContainKeys("Gather", "ReduceSum");
        Exports.agree(directory, "average pool 1d", in -> List.of(Functional.avgPool1d(in.get(0), PoolingOptions.kernel(4))),
                random(13, 2, 3, 13));
    }

    @Test
    void maxPoolingPropagatesNaNAsEin4jDoes() {
        float[] values = new float[2 * 8 * 8];
        for (int i = 0; i < values.length; i++) {
            values[i] = (float) Math.sin(i);
        }
        values[9] = Float.NaN;
        values[100] = Float.NaN;
        Tensor x = Tensor.of(values, 1, 2, 8, 8);
        Exports.agree(directory, "max pool with NaN", in -> List.of(Functional.maxPool2d(in.get(0), 2),
                in.get(0).max(new int[] {3}, true)), x);
    }
}
