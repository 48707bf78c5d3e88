package dev.ein4j.nn.optim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ein4j.error.EinopsException;
import dev.ein4j.ir.DType;
import dev.ein4j.nn.io.SafeTensors;
import dev.ein4j.tensor.Ein;
import dev.ein4j.tensor.Generator;
import dev.ein4j.tensor.Tensor;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** An optimizer's state dict, saved to safetensors and loaded into a fresh optimizer, resumes the same trajectory. */
class OptimizerStateTest {

    private static final Map<String, Function<List<Tensor>, Optimizer>> OPTIMIZERS = Map.of(
            "sgd", p -> new Sgd(p, 0.05).momentum(0.9).weightDecay(1e-3),
            "adam", p -> new Adam(p, 1e-2),
            "adamw", p -> new AdamW(p, 1e-2).weightDecay(0.1));

    @Test
    void aSavedAndLoadedStateContinuesExactlyAsTheOriginal(@TempDir Path dir) {
        for (Map.Entry<String, Function<List<Tensor>, Optimizer>> kind : OPTIMIZERS.entrySet()) {
            List<Tensor> original = parameters();
            Optimizer optimizer = kind.getValue().apply(original);
            steps(optimizer, 3);
            Path file = dir.resolve(kind.getKey() + ".safetensors");
            SafeTensors.write(file, optimizer.stateDict());

            List<Tensor> copies = original.stream().map(p -> Tensor.of(p.toFloatArray(), p.shape()).requireGrad()).toList();
            Optimizer resumed = kind.getValue().apply(copies);
            resumed.loadStateDict(SafeTensors.read(file));
            Optimizer fresh = kind.getValue().apply(original.stream()
                    .map(p -> Tensor.of(p.toFloatArray(), p.shape()).requireGrad()).toList());
            assertThat(resumed.steps()).isEqualTo(3);

            steps(optimizer, 3);
            steps(resumed, 3);
            steps(fresh, 3);
            for (int i = 0; i < original.size(); i++) {
                assertThat(resumed.parameters().get(i).toFloatArray()).as(kind.getKey() + " parameter " + i)
                        .containsExactly(original.get(i).toFloatArray());
                assertThat(fresh.parameters().get(i).toFloatArray()).as(kind.getKey() + ": without the state, steps differ")
                        .isNotEqualTo(original.get(i).toFloatArray());
            }
        }
    }

    @Test
    void entriesAreNamedAsPyTorchsAndOnlyForSteppedParameters() {
        List<Tensor> parameters = parameters();
        Adam adam = new Adam(parameters, 1e-3);
        assertThat(adam.stateDict()).containsOnlyKeys("step");
        parameters.get(1).sum().backward(); // only the second parameter gets a gradient
        adam.step();
        Map<String, Tensor> state = adam.stateDict();
        assertThat(state).containsOnlyKeys("step", "1.exp_avg", "1.exp_avg_sq");
        assertThat(state.get("step").toDoubleArray()).containsExactly(1.0);
        assertThat(state.get("1.exp_avg").shape()).isEqualTo(parameters.get(1).shape());
        Sgd sgd = new Sgd(parameters, 0.1).momentum(0.5);
        sgd.step();
        assertThat(sgd.stateDict()).containsOnlyKeys("step", "1.momentum_buffer");
    }

    @Test
    void badEntriesAreNamed() {
        Adam adam = new Adam(parameters(), 1e-3);
        Tensor step = Tensor.of(new double[] {2}, DType.FLOAT64);
        assertThatThrownBy(() -> adam.loadStateDict(Map.of())).isInstanceOf(EinopsException.class)
                .hasMessageContaining("'step'").hasMessageContaining("missing");
        assertThatThrownBy(() -> adam.loadStateDict(Map.of("step", Tensor.of(new double[] {1.5}, DType.FLOAT64))))
                .isInstanceOf(EinopsException.class).hasMessageContaining("whole number");
        assertThatThrownBy(() -> adam.loadStateDict(entries(step, "2.exp_avg", Tensor.zeros(3))))
                .isInstanceOf(EinopsException.class).hasMessageContaining("'2.exp_avg'").hasMessageContaining("below 2");
        assertThatThrownBy(() -> adam.loadStateDict(entries(step, "0.momentum_buffer", Tensor.zeros(4, 3))))
                .isInstanceOf(EinopsException.class).hasMessageContaining("[exp_avg, exp_avg_sq]");
        assertThatThrownBy(() -> adam.loadStateDict(entries(step, "0.exp_avg", Tensor.zeros(3, 4))))
                .isInstanceOf(EinopsException.class).hasMessageContaining("[3, 4]").hasMessageContaining("[4, 3]");
        assertThatThrownBy(() -> adam.loadStateDict(null)).isInstanceOf(NullPointerException.class).hasMessage("saved");
        assertThat(adam.steps()).as("nothing is restored from a rejected state").isZero();
    }

    private static Map<String, Tensor> entries(Tensor step, String key, Tensor value) {
        Map<String, Tensor> entries = new LinkedHashMap<>();
        entries.put("step", step);
        entries.put(key, value);
        return entries;
    }

    private static List<Tensor> parameters() {
        return List.of(Tensor.randn(new Generator(3), 4, 3).requireGrad(), Tensor.randn(new Generator(4), 3).requireGrad());
    }

    /** Steps on a fixed quadratic, (w · x + b − 1)² summed, so gradients depend on the parameters. */
    private static void steps(Optimizer optimizer, int count) {
        Tensor x = Tensor.randn(new Generator(5), 2, 4);
        for (int i = 0; i < count; i++) {
            optimizer.zeroGrad();
            Tensor w = optimizer.parameters().get(0);
            Tensor b = optimizer.parameters().get(1);
            Ein.einsum("n i, i o -> n o", x, w).add(b).sub(1).square().sum().backward();
            optimizer.step();
        }
    }
}
