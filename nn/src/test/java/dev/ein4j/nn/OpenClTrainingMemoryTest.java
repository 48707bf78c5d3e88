package dev.ein4j.nn;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ein4j.backend.Backends;
import dev.ein4j.ir.DType;
import dev.ein4j.nn.optim.Sgd;
import dev.ein4j.tensor.Generator;
import dev.ein4j.tensor.Tensor;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * Ten thousand training steps of a small model on the opencl backend leave no device buffers behind:
 * every step's activations, gradients and optimizer temporaries are released. Runs in the module's
 * test execution on the opencl backend only.
 */
class OpenClTrainingMemoryTest {

    private static final int STEPS = 10_000;
    /** A measurement may catch a buffer or two of work still in flight; a leak of one per 1,000 steps exceeds this. */
    private static final long SLACK = 8;
    /** Steps after which every kernel of a step has run often enough to have its own compiled program. */
    private static final int WARM_UP = 500;

    @Test
    void tenThousandTrainingStepsKeepDeviceBuffersFlat() {
        Assumptions.assumeTrue("opencl".equals(Backends.current().name()),
                "runs in the test execution on the opencl backend (profile opencl-tests, active where an OpenCL loader is installed)");
        train();
    }

    private static void train() {
        Generator generator = new Generator(5);
        Sequential model = new Sequential(new Linear(8, 16, true, generator), Activation.relu(),
                new Linear(16, 3, true, generator));
        // SGD with momentum (OpenClAdamCachesTest runs Adam, whose changing bias corrections are launch parameters)
        Sgd optimizer = new Sgd(model.parameters(), 0.05).momentum(0.9);
        Tensor inputs = Tensor.randn(generator, 32, 8);
        Tensor labels = Tensor.randint(generator, 0, 3, 32);
        double firstLoss = Double.NaN;
        double lastLoss = Double.NaN;
        long settled = -1;
        long most = 0;
        for (int step = 0; step < STEPS; step++) {
            optimizer.zeroGrad();
            Tensor loss = Functional.crossEntropy(model.forward(inputs), labels);
            loss.backward();
            optimizer.step();
            if (step % 1000 == 0 || step == WARM_UP || step == STEPS - 1) {
                lastLoss = loss.item();
                firstLoss = step == 0 ? lastLoss : firstLoss;
                long live = OpenClLiveBuffers.afterCollection(inputs);
                settled = step == WARM_UP ? live : settled;
                most = step > WARM_UP ? Math.max(most, live) : most;
            }
        }
        assertThat(labels.dtype()).isEqualTo(DType.INT32);
        assertThat(lastLoss).as("the model learned its 32 examples").isLessThan(firstLoss / 4);
        assertThat(most).as("most live cl_mem objects at steps 1,000..10,000, against %d at step %d", settled, WARM_UP)
                .isLessThanOrEqualTo(settled + SLACK);
    }
}
