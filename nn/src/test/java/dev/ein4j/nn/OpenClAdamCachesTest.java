package dev.ein4j.nn;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ein4j.backend.Backends;
import dev.ein4j.nn.optim.Adam;
import dev.ein4j.opencl.OpenClBackend;
import dev.ein4j.opencl.OpenClBuffer;
import dev.ein4j.tensor.Generator;
import dev.ein4j.tensor.Tensor;
import dev.ein4j.tensor.TensorScope;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * A thousand Adam steps of a 20-64-3 MLP on the opencl backend compile nothing after the first
 * steps: Adam's bias corrections change every step, but they are launch parameters, so every step
 * runs the same kernels and programs, and none runs on the interpreter. Each step runs in a
 * {@link Tensor#scope()}, so its buffers go back to the backend's pool when it ends and the next
 * step takes them again: after the first steps the device creates no {@code cl_mem}, and the number
 * alive stays the same. Runs in the module's test execution on the opencl backend only.
 */
class OpenClAdamCachesTest {

    private static final int STEPS = 1000;
    /** Steps after which every kernel of a step has run often enough to have its baked program. */
    private static final int WARM_UP = 20;

    @Test
    void aThousandAdamStepsKeepTheCachesAndTheDeviceBuffersConstant() {
        Assumptions.assumeTrue("opencl".equals(Backends.current().name()),
                "runs in the test execution on the opencl backend (profile opencl-tests, active where an OpenCL loader is installed)");
        OpenClBackend opencl = (OpenClBackend) Backends.current();
        Generator generator = new Generator(11);
        Sequential model = new Sequential(new Linear(20, 64, true, generator), Activation.relu(), new Linear(64, 3, true, generator));
        Adam optimizer = new Adam(model.parameters(), 1e-2);
        Tensor inputs = Tensor.randn(generator, 32, 20);
        Tensor labels = Tensor.randint(generator, 0, 3, 32);
        long interpreted = opencl.interpretedRuns();
        int programs = -1;
        int kernels = -1;
        long created = -1;
        long live = -1;
        double firstLoss = Double.NaN;
        double lastLoss = Double.NaN;
        for (int step = 0; step < STEPS; step++) {
            try (TensorScope scope = Tensor.scope()) {
                optimizer.zeroGrad();
                Tensor loss = Functional.crossEntropy(model.forward(inputs), labels);
                loss.backward();
                optimizer.step();
                lastLoss = loss.item();
            }
            firstLoss = step == 0 ? lastLoss : firstLoss;
            if (step == WARM_UP) {
                programs = opencl.cachedPrograms();
                kernels = opencl.knownKernels();
                created = opencl.createdBuffers();
                live = OpenClBuffer.liveCount();
            } else if (step > WARM_UP && (step % 100 == 0 || step == STEPS - 1)) {
                assertThat(opencl.cachedPrograms()).as("programs at step %d", step).isEqualTo(programs);
                assertThat(opencl.knownKernels()).as("kernels at step %d", step).isEqualTo(kernels);
                assertThat(opencl.createdBuffers()).as("cl_mem created by step %d", step).isEqualTo(created);
                assertThat(OpenClBuffer.liveCount()).as("live cl_mem at step %d", step).isEqualTo(live);
            }
        }
        assertThat(lastLoss).as("the model learned its 32 examples").isLessThan(firstLoss / 4);
        assertThat(opencl.interpretedRuns() - interpreted).as("kernels run on the interpreter: %s", opencl.interpretedKernels())
                .isZero();
    }
}
