package dev.ein4j.nn;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import dev.ein4j.ir.DType;
import dev.ein4j.tensor.Tensor;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Modules against PyTorch: the same weights (loaded by parameter name through loadStateDict) give
 * the same outputs, gradients and running statistics. The fixtures come from
 * nn/src/test/python/generate_module_fixtures.py (torch 2.13.0, float64).
 */
class ModuleFixturesTest {

    private static final JsonObject FIXTURES = FixtureTensors.modules();

    @Test
    void multiHeadAttentionMatchesPyTorchsWithItsStateDict() {
        for (JsonElement element : FIXTURES.getAsJsonArray("attention")) {
            JsonObject fixture = element.getAsJsonObject();
            int heads = fixture.get("heads").getAsInt();
            MultiHeadAttention attention = new MultiHeadAttention(8, heads);
            attention.cast(DType.FLOAT64);
            attention.loadStateDict(FixtureTensors.state(fixture.getAsJsonObject("state")));
            Tensor query = FixtureTensors.tensor(fixture.getAsJsonObject("query"));
            Tensor key = FixtureTensors.tensor(fixture.getAsJsonObject("key"));
            AttentionOptions options = AttentionOptions.defaults().causal(fixture.get("causal").getAsBoolean());
            if (fixture.has("keep")) {
                options = options.mask(FixtureTensors.tensor(fixture.getAsJsonObject("keep")));
            }
            Tensor output = attention.forward(query, key, key, options);
            assertClose(output.toDoubleArray(), FixtureTensors.values(fixture.getAsJsonObject("output")), 1e-12,
                    "attention with " + heads + " heads");
        }
    }

    @Test
    void aSmallCnnMatchesPyTorchInLossGradientsRunningStatisticsAndEvaluation() {
        JsonObject fixture = FIXTURES.getAsJsonObject("cnn");
        Sequential model = new Sequential(
                new Conv2d(1, 4, 3, ConvolutionOptions.defaults().padding(1)), new BatchNorm2d(4), Activation.relu(),
                new MaxPool2d(2),
                new Conv2d(4, 6, 3, ConvolutionOptions.defaults().stride(2).padding(1).groups(2)), Activation.relu(),
                new Rearrange("b c h w -> b (c h w)"), new Linear(24, 3));
        model.cast(DType.FLOAT64);
        model.loadStateDict(FixtureTensors.state(fixture.getAsJsonObject("state")));
        Tensor x = FixtureTensors.tensor(fixture.getAsJsonObject("input"));
        Tensor labels = FixtureTensors.tensor(fixture.getAsJsonObject("labels"));

        Tensor logits = model.forward(x);
        Tensor loss = Functional.crossEntropy(logits, labels);
        loss.backward();
        assertClose(logits.toDoubleArray(), FixtureTensors.values(fixture.getAsJsonObject("logits")), 1e-12, "logits");
        assertThat(loss.item()).isCloseTo(fixture.get("loss").getAsDouble(), within(1e-12));
        JsonObject grads = fixture.getAsJsonObject("grads");
        Map<String, Tensor> parameters = model.namedParameters();
        assertThat(parameters.keySet()).containsExactlyElementsOf(grads.keySet());
        for (String name : grads.keySet()) {
            assertClose(parameters.get(name).grad().toDoubleArray(), FixtureTensors.values(grads.getAsJsonObject(name)),
                    1e-11, "gradient of " + name);
        }
        JsonObject after = fixture.getAsJsonObject("buffers_after");
        Map<String, Tensor> state = model.stateDict();
        for (String name : after.keySet()) {
            assertClose(state.get(name).toDoubleArray(), FixtureTensors.values(after.getAsJsonObject(name)), 1e-12, name);
        }
        model.eval();
        assertClose(model.forward(x).toDoubleArray(), FixtureTensors.values(fixture.getAsJsonObject("eval_logits")), 1e-12,
                "evaluation logits");
    }

    static void assertClose(double[] actual, double[] expected, double tolerance, String what) {
        assertThat(actual).as(what + " length").hasSameSizeAs(expected);
        for (int i = 0; i < expected.length; i++) {
            assertThat(actual[i]).as(what + " [" + i + "]").isCloseTo(expected[i], within(tolerance * Math.max(1, Math.abs(expected[i]))));
        }
    }
}
