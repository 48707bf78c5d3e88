package dev.ein4j.opencl;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ein4j.backend.Backends;
import dev.ein4j.tensor.Tensor;
import dev.ein4j.reference.ReferenceBackend;
import dev.ein4j.testing.Agreement;
import java.util.function.Supplier;
import org.junit.jupiter.api.Assumptions;

/**
 * Test support: skips a test visibly where no OpenCL platform exists, unless the system property
 * {@code opencl.required=true} says this machine must have one (then its absence fails), and
 * compares tensors the way the CPU backend's tests do.
 */
final class OpenCl {

    private OpenCl() {
    }

    /** @return the shared OpenCL backend, after checking that a device exists */
    static OpenClBackend backend() {
        assumeAvailable();
        return (OpenClBackend) Backends.get(OpenClBackend.NAME);
    }

    /** Skips (or, with -Dopencl.required=true, fails) when no OpenCL device is available. */
    static void assumeAvailable() {
        DeviceSelector.Selection selection = DeviceSelector.select();
        boolean available = selection.device() != null;
        if (Boolean.getBoolean("opencl.required")) {
            assertThat(available).as("opencl.required=true, but: %s", selection.problem()).isTrue();
        }
        Assumptions.assumeTrue(available, () -> "no OpenCL platform: " + selection.problem());
    }

    /** Builds the same program on the reference and on OpenCL, and compares the results. */
    static void agree(String what, Supplier<Tensor> program) {
        assumeAvailable();
        Backends.use(ReferenceBackend.NAME);
        Tensor expected = program.get().realize();
        Backends.use(OpenClBackend.NAME);
        compare(what, expected, program.get());
    }

    /** Compares as {@link Agreement#compare} does. */
    static void compare(String what, Tensor expected, Tensor actual) {
        Agreement.compare(what, expected, actual, OpenClBackend.NAME);
    }
}
