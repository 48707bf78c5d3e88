package dev.ein4j.nn.optim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import dev.ein4j.nn.FixtureTensors;
import dev.ein4j.tensor.Tensor;
import java.util.List;
import org.junit.jupiter.api.Test;

/** SGD, Adam and AdamW follow PyTorch's trajectories step for step on f(p) = Σ (p·a − b)². */
class OptimizerFixturesTest {

    @Test
    void sixStepsOfEachOptimizerMatchPyTorch() {
        JsonArray cases = FixtureTensors.modules().getAsJsonArray("optimizers");
        assertThat(cases).hasSizeGreaterThanOrEqualTo(8);
        for (JsonElement element : cases) {
            JsonObject fixture = element.getAsJsonObject();
            Tensor parameter = FixtureTensors.tensor(fixture.getAsJsonObject("start")).requireGrad();
            Tensor a = FixtureTensors.tensor(fixture.getAsJsonObject("a"));
            Tensor b = FixtureTensors.tensor(fixture.getAsJsonObject("b"));
            Optimizer optimizer = make(fixture.get("optimizer").getAsString(), fixture.getAsJsonObject("options"), parameter);
            JsonArray trajectory = fixture.getAsJsonArray("trajectory");
            for (int step = 0; step < trajectory.size(); step++) {
                optimizer.zeroGrad();
                parameter.mul(a).sub(b).square().sum().backward();
                optimizer.step();
                double[] expected = FixtureTensors.values(trajectory.get(step).getAsJsonObject());
                double[] actual = parameter.toDoubleArray();
                for (int i = 0; i < expected.length; i++) {
                    assertThat(actual[i]).as("%s %s step %d [%d]", fixture.get("optimizer"), fixture.get("options"), step + 1, i)
                            .isCloseTo(expected[i], within(1e-12));
                }
            }
        }
    }

    private static Optimizer make(String name, JsonObject options, Tensor parameter) {
        double lr = options.get("lr").getAsDouble();
        List<Tensor> parameters = List.of(parameter);
        return switch (name) {
            case "sgd" -> {
                Sgd sgd = new Sgd(parameters, lr);
                if (options.has("momentum")) {
                    sgd.momentum(options.get("momentum").getAsDouble());
                }
                if (options.has("dampening")) {
                    sgd.dampening(options.get("dampening").getAsDouble());
                }
                if (options.has("weight_decay")) {
                    sgd.weightDecay(options.get("weight_decay").getAsDouble());
                }
                if (options.has("nesterov")) {
                    sgd.nesterov(options.get("nesterov").getAsBoolean());
                }
                yield sgd;
            }
            case "adam", "adamw" -> {
                Adam adam = name.equals("adam") ? new Adam(parameters, lr) : new AdamW(parameters, lr);
                if (options.has("betas")) {
                    JsonArray betas = options.getAsJsonArray("betas");
                    adam.betas(betas.get(0).getAsDouble(), betas.get(1).getAsDouble());
                }
                if (options.has("eps")) {
                    adam.eps(options.get("eps").getAsDouble());
                }
                if (options.has("weight_decay")) {
                    adam.weightDecay(options.get("weight_decay").getAsDouble());
                }
                yield adam;
            }
            default -> throw new IllegalArgumentException(name);
        };
    }
}
