package dev.ein4j.nn;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ein4j.error.EinopsException;
import dev.ein4j.error.ShapeException;
import dev.ein4j.ir.DType;
import dev.ein4j.tensor.Axes;
import dev.ein4j.tensor.Ein;
import dev.ein4j.tensor.Generator;
import dev.ein4j.tensor.Reduction;
import dev.ein4j.tensor.Tensor;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The module tree: names, state dicts, modes, types, printing, and each layer's shapes. */
class ModuleTest {

    private static Sequential smallCnn() {
        return new Sequential(new Conv2d(1, 4, 3, ConvolutionOptions.defaults().padding(1)), new BatchNorm2d(4),
                Activation.relu(), new MaxPool2d(2), new Rearrange("b c h w -> b (c h w)"), new Linear(4 * 4 * 4, 3));
    }

    @Test
    void stateDictNamesFollowPyTorchsOrder() {
        assertThat(smallCnn().stateDict().keySet()).containsExactly("0.weight", "0.bias", "1.weight", "1.bias",
                "1.running_mean", "1.running_var", "1.num_batches_tracked", "5.weight", "5.bias");
        assertThat(smallCnn().namedParameters().keySet()).containsExactly("0.weight", "0.bias", "1.weight", "1.bias",
                "5.weight", "5.bias");
        MultiHeadAttention attention = new MultiHeadAttention(8, 2);
        assertThat(attention.stateDict().keySet()).containsExactly("in_proj_weight", "in_proj_bias", "out_proj.weight",
                "out_proj.bias");
        assertThat(smallCnn().parameterCount()).isEqualTo(4 * 9 + 4 + 4 + 4 + 64 * 3 + 3);
    }

    @Test
    void modulesBuiltWithoutInitializationHoldZerosAndLeaveTheGeneratorAlone() {
        Generator generator = new Generator(5);
        Linear empty = Init.withoutInitialization(() -> new Linear(6, 4, true, generator));
        assertThat(empty.weight().toDoubleArray()).containsOnly(0.0);
        assertThat(empty.bias().toDoubleArray()).containsOnly(0.0);
        Embedding table = Init.withoutInitialization(() -> Init.withoutInitialization(() -> new Embedding(5, 3)));
        assertThat(table.weight().toDoubleArray()).containsOnly(0.0);
        // the generator drew nothing: the next layer gets what a fresh generator of the seed gives
        assertThat(new Linear(6, 4, true, generator).weight().toDoubleArray())
                .isEqualTo(new Linear(6, 4, true, new Generator(5)).weight().toDoubleArray());
        assertThatThrownBy(() -> Init.withoutInitialization(() -> {
            throw new EinopsException("failed construction");
        })).hasMessage("failed construction");
        assertThat(Init.normal(generator, 0, 1, 100).toDoubleArray()).as("initializers draw again afterwards")
                .doesNotContain(0.0);
    }

    @Test
    void aStateDictRoundTripsIntoAFreshModelInPlace() {
        Tensor.manualSeed(1);
        Sequential source = smallCnn();
        Tensor.manualSeed(2);
        Sequential target = smallCnn();
        Tensor before = target.namedParameters().get("5.weight");
        Tensor x = Tensor.randn(new Generator(3), 2, 1, 8, 8);
        source.eval();
        target.eval();
        assertThat(target.forward(x).toFloatArray()).isNotEqualTo(source.forward(x).toFloatArray());
        target.loadStateDict(source.stateDict());
        assertThat(target.forward(x).toFloatArray()).containsExactly(source.forward(x).toFloatArray());
        assertThat(target.namedParameters().get("5.weight")).as("updated in place").isSameAs(before);
    }

    @Test
    void aStateDictRoundTripsThroughASafetensorsFile(@org.junit.jupiter.api.io.TempDir java.nio.file.Path directory) {
        Tensor.manualSeed(4);
        Sequential source = smallCnn();
        source.forward(Tensor.randn(new Generator(6), 3, 1, 8, 8)); // moves the running statistics
        java.nio.file.Path file = directory.resolve("cnn.safetensors");
        dev.ein4j.nn.io.SafeTensors.write(file, source.stateDict());
        Sequential target = smallCnn();
        target.loadStateDict(dev.ein4j.nn.io.SafeTensors.read(file));
        source.eval();
        target.eval();
        Tensor x = Tensor.randn(new Generator(7), 2, 1, 8, 8);
        assertThat(target.forward(x).toFloatArray()).containsExactly(source.forward(x).toFloatArray());
        assertThat(target.stateDict().get("1.num_batches_tracked").toIntArray()).containsExactly(1);
    }

    @Test
    void loadingAMismatchedStateIsAnErrorNamingTheEntries() {
        Sequential model = smallCnn();
        Map<String, Tensor> state = new LinkedHashMap<>(model.stateDict());
        state.remove("0.bias");
        state.put("9.weight", Tensor.ones(1));
        assertThatThrownBy(() -> model.loadStateDict(state)).isInstanceOf(EinopsException.class)
                .hasMessageContaining("missing [0.bias]").hasMessageContaining("unexpected [9.weight]");
        assertThat(model.loadStateDict(state, false)).containsExactly("0.bias");
        Map<String, Tensor> wrongShape = new LinkedHashMap<>(model.stateDict());
        wrongShape.put("5.bias", Tensor.ones(4));
        assertThatThrownBy(() -> model.loadStateDict(wrongShape)).isInstanceOf(ShapeException.class).hasMessageContaining("5.bias");
    }

    @Test
    void trainAndEvalReachEverySubmodule() {
        Sequential model = new Sequential(new Sequential(new Dropout(0.5)), new Linear(2, 2));
        model.eval();
        assertThat(model.get(0).isTraining()).isFalse();
        assertThat(((Sequential) model.get(0)).get(0).isTraining()).isFalse();
        Tensor x = Tensor.ones(100, 2);
        assertThat(model.get(0).forward(x).toFloatArray()).containsOnly(1f);
        model.train();
        float[] dropped = model.get(0).forward(x).toFloatArray();
        assertThat(dropped).contains(0f, 2f).containsOnly(0f, 2f);
    }

    @Test
    void castConvertsParametersAndFloatingBuffers() {
        Sequential model = smallCnn();
        model.cast(DType.FLOAT64);
        Map<String, Tensor> state = model.stateDict();
        assertThat(state.get("0.weight").dtype()).isEqualTo(DType.FLOAT64);
        assertThat(state.get("0.weight").requiresGrad()).isTrue();
        assertThat(state.get("1.running_var").dtype()).isEqualTo(DType.FLOAT64);
        assertThat(state.get("1.num_batches_tracked").dtype()).isEqualTo(DType.INT32);
        assertThat(model.forward(Tensor.ones(DType.FLOAT64, 2, 1, 8, 8)).dtype()).isEqualTo(DType.FLOAT64);
    }

    @Test
    void batchNormTracksRunningStatisticsOnlyWhileTraining() {
        BatchNorm1d norm = new BatchNorm1d(2);
        Tensor x = Tensor.of(new float[] {1, 10, 3, 20, 5, 30}, 3, 2);
        norm.forward(x);
        assertThat(norm.runningMean().toFloatArray()).containsExactly(0.3f, 2.0f);
        assertThat(norm.runningVar().toFloatArray()[0]).isEqualTo(0.9f + 0.1f * 4f);
        assertThat(norm.stateDict().get("num_batches_tracked").toIntArray()).containsExactly(1);
        norm.eval();
        norm.forward(x);
        assertThat(norm.runningMean().toFloatArray()).containsExactly(0.3f, 2.0f);
        assertThatThrownBy(() -> new BatchNorm2d(2).forward(x)).isInstanceOf(ShapeException.class);
    }

    @Test
    void printingShowsTheTreeAsPyTorchDoes() {
        String text = new Sequential(new Linear(4, 2), new Sequential(Activation.relu())).toString();
        assertThat(text).isEqualTo("""
                Sequential(
                  (0): Linear(in_features=4, out_features=2, bias=true)
                  (1): Sequential(
                    (0): ReLU()
                  )
                )""");
    }

    @Test
    void patternLayersAreTheirPatterns() {
        Tensor x = Tensor.randn(new Generator(5), 2, 3, 4, 4);
        assertThat(new Rearrange("b c h w -> b (h w) c").forward(x).shape()).containsExactly(2, 16, 3);
        assertThat(new Reduce("b c (h 2) (w 2) -> b c h w", Reduction.MAX).forward(x).toFloatArray())
                .containsExactly(Functional.maxPool2d(x, 2).toFloatArray());
        EinMix mix = new EinMix("b c h w -> b h w d", "c d", "d", Axes.of("c", 3, "d", 5));
        Tensor expected = Ein.einsum("b c h w, c d -> b h w d", x, mix.weight()).add(mix.stateDict().get("bias"));
        assertThat(mix.forward(x).toFloatArray()).containsExactly(expected.toFloatArray());
        assertThatThrownBy(() -> new EinMix("b c -> b d", "c d", Axes.of("c", 3))).isInstanceOf(EinopsException.class)
                .hasMessageContaining("'d'");
    }

    @Test
    void layersInitializeAsPyTorchWithinTheirBounds() {
        Linear linear = new Linear(100, 50, true, new Generator(9));
        float bound = (float) (1 / Math.sqrt(100));
        assertThat(linear.weight().abs().max().item()).isLessThanOrEqualTo(bound).isGreaterThan(0.9 * bound);
        assertThat(linear.bias().abs().max().item()).isLessThanOrEqualTo(bound);
        Embedding embedding = new Embedding(1000, 8, 0, new Generator(4));
        assertThat(embedding.weight().std().item()).isBetween(0.9, 1.1);
        assertThat(Functional.embedding(Tensor.of(new int[] {0}), embedding.weight()).toFloatArray()).containsOnly(0f);
        assertThat(new Linear(3, 4, true, new Generator(1)).weight().toFloatArray())
                .as("a seed gives the same weights").containsExactly(new Linear(3, 4, true, new Generator(1)).weight().toFloatArray());
    }

    @Test
    void optionsRejectValuesOutOfRangeAtOnce() {
        assertThatThrownBy(() -> ConvolutionOptions.defaults().stride(0)).isInstanceOf(EinopsException.class).hasMessageContaining("stride");
        assertThatThrownBy(() -> PoolingOptions.kernel(2).padding(-1)).isInstanceOf(EinopsException.class);
        assertThatThrownBy(() -> AttentionOptions.defaults().scale(Double.NaN)).isInstanceOf(EinopsException.class);
        assertThatThrownBy(() -> new Dropout(1.0)).isInstanceOf(EinopsException.class);
        assertThatThrownBy(() -> new MultiHeadAttention(10, 3)).isInstanceOf(EinopsException.class).hasMessageContaining("divisible");
        assertThatThrownBy(() -> Functional.conv2d(Tensor.ones(1, 2, 5, 5), Tensor.ones(2, 2, 3, 3),
                ConvolutionOptions.defaults().stride(1, 2, 3))).isInstanceOf(EinopsException.class).hasMessageContaining("stride");
        assertThatThrownBy(() -> Functional.conv2d(Tensor.ones(1, 2, 5, 5), Tensor.ones(2, 2, 3, 3),
                ConvolutionOptions.defaults().samePadding().stride(2))).isInstanceOf(EinopsException.class).hasMessageContaining("same");
        assertThatThrownBy(() -> Functional.maxPool2d(Tensor.ones(1, 1, 4, 4), PoolingOptions.kernel(2).padding(2)))
                .isInstanceOf(EinopsException.class).hasMessageContaining("half");
        assertThatThrownBy(() -> Functional.scaledDotProductAttention(Tensor.ones(1, 2, 3), Tensor.ones(1, 2, 3),
                Tensor.ones(1, 2, 3), AttentionOptions.defaults().causal(true).mask(Tensor.ones(2, 2).gt(0))))
                .isInstanceOf(EinopsException.class).hasMessageContaining("not both");
    }

    @Test
    void samePaddingKeepsTheLengthWithTheExtraZeroAfter() {
        Tensor x = Tensor.of(new float[] {1, 2, 3, 4, 5}, 1, 1, 5);
        Tensor y = Functional.conv1d(x, Tensor.ones(1, 1, 4), ConvolutionOptions.defaults().samePadding());
        // padding 1 before and 2 after: windows [0 1 2 3] [1 2 3 4] [2 3 4 5] [3 4 5 0] [4 5 0 0]
        assertThat(y.toFloatArray()).containsExactly(6f, 10f, 14f, 12f, 9f);
    }
}
