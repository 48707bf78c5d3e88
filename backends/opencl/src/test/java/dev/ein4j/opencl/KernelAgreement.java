package dev.ein4j.opencl;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ein4j.backend.DeviceBuffer;
import dev.ein4j.kernel.HostData;
import dev.ein4j.kernel.Kernel;
import dev.ein4j.kernel.KernelInterpreter;
import java.util.ArrayList;
import java.util.List;

/** Runs one hand-built kernel on the OpenCL backend and on the interpreter. */
final class KernelAgreement {

    private KernelAgreement() {
    }

    /**
     * @param opencl the backend
     * @param kernel the kernel
     * @param inputs its inputs
     * @return {interpreter's output, backend's output}
     */
    static HostData[] run(OpenClBackend opencl, Kernel kernel, List<HostData> inputs) {
        HostData expected = HostData.allocate(kernel.outputType(), (int) kernel.outputSize());
        KernelInterpreter.run(kernel, expected, inputs);
        List<DeviceBuffer> buffers = new ArrayList<>();
        for (HostData input : inputs) {
            DeviceBuffer buffer = opencl.allocate(input.dtype(), input.length());
            opencl.write(buffer, input);
            buffers.add(buffer);
        }
        DeviceBuffer out = opencl.allocate(kernel.outputType(), kernel.outputSize());
        opencl.execute(kernel, out, buffers);
        HostData actual = opencl.read(out);
        opencl.release(out);
        buffers.forEach(opencl::release);
        return new HostData[] {expected, actual};
    }

    /** Asserts bit-identical results (NaNs of any payload alike). */
    static void assertIdentical(String what, OpenClBackend opencl, Kernel kernel, List<HostData> inputs) {
        HostData[] results = run(opencl, kernel, inputs);
        for (int i = 0; i < results[0].length(); i++) {
            double x = results[0].get(i);
            double y = results[1].get(i);
            if (!(Double.isNaN(x) && Double.isNaN(y))) {
                assertThat(Double.doubleToRawLongBits(y)).as("%s element %d: interpreter %s, opencl %s\n%s", what, i, x, y, kernel)
                        .isEqualTo(Double.doubleToRawLongBits(x));
            }
        }
    }
}
