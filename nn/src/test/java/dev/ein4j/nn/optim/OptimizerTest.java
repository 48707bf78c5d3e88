package dev.ein4j.nn.optim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ein4j.backend.Backend;
import dev.ein4j.backend.Backends;
import dev.ein4j.error.EinopsException;
import dev.ein4j.tensor.Generator;
import dev.ein4j.tensor.Tensor;
import dev.ein4j.testing.CountingBackend;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Steps update in place: one kernel per updated tensor and no allocation once the state exists. */
class OptimizerTest {

    @Test
    void aStepIsOneInPlaceKernelPerUpdatedTensor() {
        Backend previous = Backends.current();
        CountingBackend counting = (CountingBackend) Backends.use(CountingBackend.NAME);
        try {
            Tensor w = Tensor.randn(new Generator(1), 64, 64).realize().requireGrad();
            Tensor b = Tensor.randn(new Generator(2), 64).realize().requireGrad();
            for (Optimizer optimizer : List.of(new Sgd(List.of(w, b), 0.1).momentum(0.9).weightDecay(1e-4),
                    new Adam(List.of(w, b), 1e-3), new AdamW(List.of(w, b), 1e-3))) {
                w.mul(w).sum().add(b.sum()).backward();
                optimizer.step(); // creates the state
                counting.reset();
                optimizer.step();
                int written = optimizer instanceof Sgd ? 2 : 3; // the parameter and its state
                assertThat(counting.kernels()).as(optimizer.getClass().getSimpleName() + ": one kernel per parameter").hasSize(2);
                for (dev.ein4j.kernel.Kernel kernel : counting.kernels()) {
                    assertThat(kernel.outputCount()).as("outputs of " + kernel).isEqualTo(written);
                }
                assertThat(counting.allocations()).as(optimizer.getClass().getSimpleName()).isZero();
                optimizer.zeroGrad();
                assertThat(w.hasGrad()).isFalse();
            }
        } finally {
            Backends.use(previous.name());
        }
    }

    @Test
    void parametersWithoutGradientsAreSkippedAndBadSettingsRejected() {
        Tensor used = Tensor.ones(2).requireGrad();
        Tensor unused = Tensor.ones(2).requireGrad();
        Sgd sgd = new Sgd(List.of(used, unused), 0.5);
        used.sum().backward();
        sgd.step();
        assertThat(used.toFloatArray()).containsExactly(0.5f, 0.5f);
        assertThat(unused.toFloatArray()).containsExactly(1f, 1f);
        assertThat(sgd.steps()).isEqualTo(1);
        assertThatThrownBy(() -> new Sgd(List.of(Tensor.ones(2)), 0.1)).isInstanceOf(EinopsException.class)
                .hasMessageContaining("requireGrad");
        assertThatThrownBy(() -> new Adam(List.of(used), -1)).isInstanceOf(EinopsException.class);
        assertThatThrownBy(() -> new Adam(List.of(used), 1e-3).betas(1.0, 0.9)).isInstanceOf(EinopsException.class);
        assertThatThrownBy(() -> sgd.momentum(-0.1)).isInstanceOf(EinopsException.class);
        Sgd nesterovWithoutMomentum = new Sgd(List.of(used), 0.1).nesterov(true);
        assertThatThrownBy(nesterovWithoutMomentum::step).isInstanceOf(EinopsException.class).hasMessageContaining("Nesterov");
    }
}
