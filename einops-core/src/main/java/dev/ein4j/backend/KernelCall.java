package dev.ein4j.backend;

import dev.ein4j.kernel.Kernel;
import dev.ein4j.kernel.Parameters;
import java.util.List;
import java.util.Objects;

/**
 * One submission of {@link Backend#execute}, as a value: the kernel, its output and input buffers,
 * and its parameters. {@link Backend#executeRowBlocks} takes a list of them.
 *
 * @param kernel what to compute
 * @param outputs one buffer per output
 * @param inputs one buffer per input slot
 * @param parameters the values of the kernel's parameter slots
 */
public record KernelCall(Kernel kernel, List<DeviceBuffer> outputs, List<DeviceBuffer> inputs, Parameters parameters) {

    /** Copies the lists; every component must be non-null. */
    public KernelCall {
        Objects.requireNonNull(kernel, "kernel");
        outputs = List.copyOf(outputs);
        inputs = List.copyOf(inputs);
        Objects.requireNonNull(parameters, "parameters");
    }
}
