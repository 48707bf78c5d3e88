package dev.ein4j.opencl;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ein4j.backend.Backends;
import dev.ein4j.tensor.Tensor;
import dev.ein4j.ir.DType;
import dev.ein4j.reference.ReferenceBackend;
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

    /**
     * Integer and bool results must match exactly; floats within 2e-3 (float32) or 1e-7 (float64)
     * relative, since float32 transcendental functions and float32 accumulation differ from the
     * double-precision reference by ulps that random programs can amplify.
     */
    static void compare(String what, Tensor expected, Tensor actual) {
        assertThat(actual.shape()).as(what).isEqualTo(expected.shape());
        assertThat(actual.dtype()).as(what).isEqualTo(expected.dtype());
        double[] x = expected.toDoubleArray();
        double[] y = actual.toDoubleArray();
        boolean exact = !expected.dtype().isFloating();
        double rtol = expected.dtype() == DType.FLOAT32 ? 2e-3 : 1e-7;
        for (int i = 0; i < x.length; i++) {
            boolean same = Double.isNaN(x[i]) ? Double.isNaN(y[i]) : exact ? x[i] == y[i]
                    : Double.isInfinite(x[i]) ? x[i] == y[i] : Math.abs(x[i] - y[i]) <= rtol * (1 + Math.abs(x[i]));
            if (!same) {
                throw new AssertionError(what + " element " + i + ": reference " + x[i] + ", opencl " + y[i]);
            }
        }
    }
}
