package dev.ein4j.nn;

import static dev.ein4j.nn.ModuleFixturesTest.assertClose;
import static org.assertj.core.api.Assertions.assertThat;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import dev.ein4j.ir.DType;
import dev.ein4j.tensor.Generator;
import dev.ein4j.tensor.Tensor;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The layers of loaded checkpoints against Hugging Face's and PyTorch's modules: the same weights
 * (loaded by parameter name) give the same outputs and gradients. Fixtures from
 * nn/src/test/python/generate_layer_fixtures.py (torch 2.13.0, transformers 5.18).
 */
class ModelLayerFixturesTest {

    private static final JsonObject FIXTURES = FixtureTensors.resource("model_layers.json");

    private static Tensor tensor(JsonObject fixture, String name) {
        return FixtureTensors.tensor(fixture.getAsJsonObject(name));
    }

    private static double[] values(JsonObject fixture, String name) {
        return FixtureTensors.values(fixture.getAsJsonObject(name));
    }

    @Test
    void rotaryEmbeddingsMatchLlamasFromPositionIdsIncludingOffsetsAndOneDecodingStep() {
        for (JsonElement element : FIXTURES.getAsJsonArray("rotary")) {
            JsonObject fixture = element.getAsJsonObject();
            RotaryEmbedding rotary = new RotaryEmbedding(fixture.get("head_dim").getAsInt(), fixture.get("theta").getAsDouble());
            String what = "theta " + fixture.get("theta") + ", head_dim " + fixture.get("head_dim");
            assertThat(rotary.stateDict()).as("inv_freq is not persistent").isEmpty();
            assertClose(rotary.inverseFrequency().toDoubleArray(), values(fixture, "inv_freq"), 2e-7, what + " inv_freq");
            RotaryEmbedding.CosSin angles = rotary.cosSin(tensor(fixture, "position_ids"));
            assertThat(angles.cos().dtype()).isEqualTo(DType.FLOAT32);
            // HF's float32 cos and sin may be an ulp off the correctly rounded values
            assertClose(angles.cos().toDoubleArray(), values(fixture, "cos"), 2e-7, what + " cos");
            assertClose(angles.sin().toDoubleArray(), values(fixture, "sin"), 2e-7, what + " sin");
            Tensor q = Functional.applyRotaryEmbedding(tensor(fixture, "q"), angles.cos(), angles.sin());
            Tensor k = Functional.applyRotaryEmbedding(tensor(fixture, "k"), angles.cos(), angles.sin());
            assertClose(q.toDoubleArray(), values(fixture, "q_embed"), 2e-6, what + " q");
            assertClose(k.toDoubleArray(), values(fixture, "k_embed"), 2e-6, what + " k");
            assertClose(rotary.forward(tensor(fixture, "q"), tensor(fixture, "position_ids")).toDoubleArray(),
                    values(fixture, "q_embed"), 2e-6, what + " forward");
        }
    }

    @Test
    void rmsNormMatchesLlamaRmsNormInFloat32() {
        JsonObject fixture = FIXTURES.getAsJsonObject("rms_norm");
        RmsNorm norm = new RmsNorm(new int[] {8}, fixture.get("eps").getAsDouble(), true);
        norm.loadStateDict(FixtureTensors.state(fixture.getAsJsonObject("state")));
        Tensor y = norm.forward(tensor(fixture, "input"));
        assertClose(y.toDoubleArray(), values(fixture, "output"), 2e-6, "output");
        y.mul(Tensor.linspace(-1, 1, 8)).sum().backward();
        assertClose(norm.namedParameters().get("weight").grad().toDoubleArray(),
                values(fixture.getAsJsonObject("grads"), "weight"), 1e-5, "gradient of weight");
    }

    @Test
    void gatedMlpLoadsLlamaMlpsStateDictAndMatchesIt() {
        for (JsonElement element : FIXTURES.getAsJsonArray("mlp")) {
            JsonObject fixture = element.getAsJsonObject();
            boolean bias = fixture.get("bias").getAsBoolean();
            GatedMlp mlp = new GatedMlp(6, 10, bias, Activation.named(fixture.get("act").getAsString()));
            mlp.cast(DType.FLOAT64);
            mlp.loadStateDict(FixtureTensors.state(fixture.getAsJsonObject("state")));
            Tensor y = mlp.forward(tensor(fixture, "input"));
            assertClose(y.toDoubleArray(), values(fixture, "output"), 1e-12, "output, bias " + bias);
            y.sum().backward();
            assertGradients(mlp, fixture.getAsJsonObject("grads"), 1e-11);
        }
    }

    @Test
    void channelsFirstLayerNormAndAConvNextBlockWithItsLayerScaleMatchHuggingFace() {
        JsonObject norm = FIXTURES.getAsJsonObject("convnext").getAsJsonObject("norm");
        LayerNorm channels = LayerNorm.channelsFirst(5, 1e-6);
        channels.cast(DType.FLOAT64);
        channels.loadStateDict(FixtureTensors.state(norm.getAsJsonObject("state")));
        assertClose(channels.forward(tensor(norm, "input")).toDoubleArray(), values(norm, "output"), 1e-12, "ConvNextLayerNorm");

        JsonObject layer = FIXTURES.getAsJsonObject("convnext").getAsJsonObject("layer");
        ConvNextBlock block = new ConvNextBlock(4);
        block.cast(DType.FLOAT64);
        block.loadStateDict(FixtureTensors.state(layer.getAsJsonObject("state")));
        Tensor y = block.forward(tensor(layer, "input"));
        assertClose(y.toDoubleArray(), values(layer, "output"), 1e-12, "ConvNextLayer");
        y.sum().backward();
        assertGradients(block, layer.getAsJsonObject("grads"), 1e-11);
    }

    @Test
    void groupNormRmsNormAndConvTranspose2dModulesMatchPyTorchs() {
        JsonObject modules = FIXTURES.getAsJsonObject("torch_modules");
        Map<String, Module> ours = Map.of("group_norm", new GroupNorm(2, 4, 1e-4, true),
                "rms_norm", new RmsNorm(3, 4),
                "conv_transpose2d", new ConvTranspose2d(4, 6, new int[] {3}, ConvTransposeOptions.defaults().stride(2)
                        .padding(1).outputPadding(1).groups(2), true, new Generator(1)));
        for (Map.Entry<String, Module> entry : ours.entrySet()) {
            JsonObject fixture = modules.getAsJsonObject(entry.getKey());
            Module module = entry.getValue().cast(DType.FLOAT64);
            Map<String, Tensor> state = FixtureTensors.state(fixture.getAsJsonObject("state"));
            assertThat(module.stateDict().keySet()).as(entry.getKey()).containsExactlyElementsOf(state.keySet());
            for (String name : state.keySet()) {
                assertThat(module.stateDict().get(name).shape()).as(entry.getKey() + " " + name)
                        .isEqualTo(state.get(name).shape());
            }
            module.loadStateDict(state);
            Tensor y = module.forward(tensor(fixture, "input"));
            assertClose(y.toDoubleArray(), values(fixture, "output"), 1e-12, entry.getKey());
            y.sum().backward();
            assertGradients(module, fixture.getAsJsonObject("grads"), 1e-11);
        }
    }

    private static void assertGradients(Module module, JsonObject expected, double tolerance) {
        Map<String, Tensor> parameters = module.namedParameters();
        assertThat(parameters.keySet()).containsExactlyInAnyOrderElementsOf(expected.keySet());
        for (String name : expected.keySet()) {
            assertClose(parameters.get(name).grad().toDoubleArray(), values(expected, name), tolerance, "gradient of " + name);
        }
    }

    /**
     * Hugging Face's ConvNextLayer written with ein4j's layers: the model names the layer scale
     * parameter, {@link Functional#layerScale} applies it.
     */
    static final class ConvNextBlock extends Module {

        private final Conv2d depthwise;
        private final LayerNorm norm;
        private final Linear expand;
        private final Activation activation;
        private final Linear project;

        ConvNextBlock(int dim) {
            Generator generator = new Generator(2);
            registerParameter("layer_scale_parameter", Tensor.full(0.5, DType.FLOAT32, dim));
            depthwise = registerModule("dwconv", new Conv2d(dim, dim, new int[] {7},
                    ConvolutionOptions.defaults().padding(3).groups(dim), true, generator));
            norm = registerModule("layernorm", new LayerNorm(new int[] {dim}, 1e-6, true));
            expand = registerModule("pwconv1", new Linear(dim, 4 * dim, true, generator));
            activation = registerModule("act", Activation.gelu());
            project = registerModule("pwconv2", new Linear(4 * dim, dim, true, generator));
        }

        @Override
        public Tensor forward(Tensor x) {
            Tensor features = norm.forward(depthwise.forward(x).rearrange("b c h w -> b h w c"));
            features = project.forward(activation.forward(expand.forward(features)));
            features = Functional.layerScale(features, parameter("layer_scale_parameter"));
            return x.add(features.rearrange("b h w c -> b c h w"));
        }
    }
}
