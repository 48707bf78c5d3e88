package dev.ein4j.opencl;

import dev.ein4j.kernel.HostData;
import dev.ein4j.kernel.Kernel;
import dev.ein4j.kernel.KernelInterpreter;
import java.util.ArrayList;
import java.util.List;

/**
 * Runs a kernel the generator declines on the host: its inputs are read back (a synchronisation),
 * the {@link KernelInterpreter} computes the output, and the output is written back. Correct for
 * any kernel, and slow; the backend counts how often it happens.
 */
final class InterpreterFallback {

    private InterpreterFallback() {
    }

    /**
     * @param queue the device queue
     * @param kernel the kernel
     * @param output its output buffer
     * @param inputs its input buffers
     */
    static void run(DeviceQueue queue, Kernel kernel, OpenClBuffer output, List<OpenClBuffer> inputs) {
        List<HostData> hostInputs = new ArrayList<>(inputs.size());
        for (OpenClBuffer input : inputs) {
            hostInputs.add(queue.read(input));
        }
        HostData result = HostData.allocate(output.dtype(), (int) output.size());
        KernelInterpreter.run(kernel, result, hostInputs);
        queue.write(output, result);
    }
}
