package dev.ein4j.opencl;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ein4j.backend.DeviceBuffer;
import dev.ein4j.kernel.HostData;
import dev.ein4j.kernel.Kernel;
import dev.ein4j.kernel.KernelInterpreter;
import dev.ein4j.kernel.Parameters;
import dev.ein4j.testing.Close;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/** Runs one hand-built kernel on the OpenCL backend and on the interpreter. */
final class KernelAgreement {

    private KernelAgreement() {
    }

    /**
     * What one launch wrote.
     *
     * @param expected the interpreter's outputs, in order
     * @param actual the backend's outputs, in order
     */
    record Results(List<HostData> expected, List<HostData> actual) {
    }

    /**
     * @param opencl the backend
     * @param kernel a kernel of one output and no parameters
     * @param inputs its inputs
     * @return {interpreter's output, backend's output}
     */
    static HostData[] run(OpenClBackend opencl, Kernel kernel, List<HostData> inputs) {
        return run(opencl, kernel, inputs, Parameters.NONE);
    }

    /**
     * @param opencl the backend
     * @param kernel a kernel of one output
     * @param inputs its inputs
     * @param parameters the launch's values
     * @return {interpreter's output, backend's output}
     */
    static HostData[] run(OpenClBackend opencl, Kernel kernel, List<HostData> inputs, Parameters parameters) {
        Results results = launch(opencl, kernel, inputs, parameters);
        return new HostData[] {results.expected().get(0), results.actual().get(0)};
    }

    /**
     * @param opencl the backend
     * @param kernel the kernel
     * @param inputs its inputs (not changed: in-place outputs write copies)
     * @param parameters the launch's values
     * @param aliases for each output, the input slot whose buffer it is written into (an in-place
     *     update), or −1 for a buffer of its own; none for no aliasing at all
     * @return both sides' outputs
     */
    static Results launch(OpenClBackend opencl, Kernel kernel, List<HostData> inputs, Parameters parameters, int... aliases) {
        int[] shared = aliases.length == 0 ? filled(kernel.outputCount()) : aliases;
        List<HostData> hostInputs = new ArrayList<>();
        for (HostData input : inputs) {
            hostInputs.add(copy(input));
        }
        List<HostData> expected = new ArrayList<>();
        for (int k = 0; k < kernel.outputCount(); k++) {
            expected.add(shared[k] >= 0 ? hostInputs.get(shared[k])
                    : HostData.allocate(kernel.outputType(k), (int) kernel.outputSize()));
        }
        KernelInterpreter.run(kernel, expected, hostInputs, parameters);
        List<DeviceBuffer> buffers = new ArrayList<>();
        for (HostData input : inputs) {
            DeviceBuffer buffer = opencl.allocate(input.dtype(), input.length());
            opencl.write(buffer, input);
            buffers.add(buffer);
        }
        List<DeviceBuffer> outputs = new ArrayList<>();
        for (int k = 0; k < kernel.outputCount(); k++) {
            outputs.add(shared[k] >= 0 ? buffers.get(shared[k]) : opencl.allocate(kernel.outputType(k), kernel.outputSize()));
        }
        opencl.execute(kernel, outputs, buffers, parameters);
        List<HostData> actual = new ArrayList<>();
        for (DeviceBuffer output : outputs) {
            actual.add(opencl.read(output));
        }
        for (int k = 0; k < outputs.size(); k++) {
            if (shared[k] < 0) {
                opencl.release(outputs.get(k));
            }
        }
        buffers.forEach(opencl::release);
        return new Results(expected, actual);
    }

    private static int[] filled(int count) {
        int[] none = new int[count];
        Arrays.fill(none, -1);
        return none;
    }

    private static HostData copy(HostData data) {
        HostData copy = HostData.allocate(data.dtype(), data.length());
        copy.copyFrom(data, 0, 0, data.length());
        return copy;
    }

    /** Asserts bit-identical results (NaNs of any payload alike). */
    static void assertIdentical(String what, OpenClBackend opencl, Kernel kernel, List<HostData> inputs) {
        assertIdentical(what, opencl, kernel, inputs, Parameters.NONE);
    }

    /** Asserts bit-identical results of every output (NaNs of any payload alike). */
    static void assertIdentical(String what, OpenClBackend opencl, Kernel kernel, List<HostData> inputs, Parameters parameters,
                                int... aliases) {
        assertClose(what, launch(opencl, kernel, inputs, parameters, aliases), 0.0, kernel);
    }

    /**
     * Asserts every output within a relative tolerance (for sums accumulated in another order).
     *
     * @param what the case
     * @param results both sides' outputs
     * @param relative the tolerance, relative to 1 + |expected|; 0 asks for identical bits
     * @param kernel the kernel, for the message
     */
    static void assertClose(String what, Results results, double relative, Kernel kernel) {
        for (int k = 0; k < results.expected().size(); k++) {
            HostData expected = results.expected().get(k);
            HostData actual = results.actual().get(k);
            assertThat(actual.length()).as("%s output %d", what, k).isEqualTo(expected.length());
            for (int i = 0; i < expected.length(); i++) {
                double x = expected.get(i);
                double y = actual.get(i);
                boolean same = relative == 0.0 ? Double.isNaN(x) && Double.isNaN(y) || Double.doubleToRawLongBits(x) == Double.doubleToRawLongBits(y)
                        : Close.close(y, x, relative, relative);
                if (!same) {
                    throw new AssertionError(what + " output " + k + " element " + i + ": interpreter " + x + ", opencl " + y
                            + "\n" + kernel);
                }
            }
        }
    }
}
