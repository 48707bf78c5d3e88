package dev.ein4j.opencl;

import dev.ein4j.kernel.HostData;
import dev.ein4j.kernel.Kernel;
import dev.ein4j.kernel.KernelInterpreter;
import dev.ein4j.kernel.Parameters;
import java.util.ArrayList;
import java.util.List;

/**
 * Runs a kernel the generator declines on the host: its inputs are read back (a synchronisation),
 * the {@link KernelInterpreter} computes the output (a scatter's from the output's contents, its
 * base), and the output is written back. Correct for
 * any kernel, and slow; the backend counts how often it happens.
 */
final class InterpreterFallback {

    private InterpreterFallback() {
    }

    /**
     * @param queue the device queue
     * @param kernel the kernel
     * @param outputs its output buffers
     * @param inputs its input buffers
     * @param parameters the launch's constants and seeds
     */
    static void run(DeviceQueue queue, Kernel kernel, List<OpenClBuffer> outputs, List<OpenClBuffer> inputs, Parameters parameters) {
        List<HostData> hostInputs = new ArrayList<>(inputs.size());
        for (OpenClBuffer input : inputs) {
            hostInputs.add(queue.read(input));
        }
        List<HostData> results = new ArrayList<>(outputs.size());
        for (OpenClBuffer output : outputs) {
            // a scatter writes some positions of an output that already holds its base: start from its contents
            results.add(kernel.kind() == Kernel.Kind.SCATTER ? queue.read(output) : HostData.allocate(output.dtype(), (int) output.size()));
        }
        KernelInterpreter.run(kernel, results, hostInputs, parameters);
        for (int k = 0; k < outputs.size(); k++) {
            queue.write(outputs.get(k), results.get(k));
        }
    }
}
