package dev.ein4j.reference;

import dev.ein4j.backend.Backend;
import dev.ein4j.backend.BackendCapabilities;
import dev.ein4j.backend.DeviceBuffer;
import dev.ein4j.error.EinopsException;
import dev.ein4j.ir.DType;
import dev.ein4j.kernel.HostData;
import dev.ein4j.kernel.Kernel;
import dev.ein4j.kernel.Parameters;
import dev.ein4j.backend.DeviceMemoryException;
import dev.ein4j.kernel.KernelInterpreter;
import java.util.ArrayList;
import java.util.List;

/**
 * The semantic definition of every kernel: {@link KernelInterpreter} over heap arrays, primitive by
 * primitive, in double precision with each result rounded to its type. It is slow on purpose and
 * is the oracle that other backends are tested against. Synchronous; buffers are plain arrays
 * (at most 2^31 − 9 elements each) left to the garbage collector.
 */
public final class ReferenceBackend implements Backend {

    /** The name of this backend. */
    public static final String NAME = "reference";

    private static final BackendCapabilities CAPABILITIES = BackendCapabilities.heap();

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public BackendCapabilities capabilities() {
        return CAPABILITIES;
    }

    @Override
    public DeviceBuffer allocate(DType dtype, long size) {
        if (size < 0 || size > CAPABILITIES.maxBufferElements()) {
            throw new EinopsException("reference backend: cannot allocate " + size + " elements");
        }
        try {
            return new ReferenceBuffer(dtype, (int) size);
        } catch (OutOfMemoryError full) {
            throw new DeviceMemoryException("reference backend: the Java heap has no room for " + size + " "
                    + dtype.numpyName() + " elements", full);
        }
    }

    @Override
    public void write(DeviceBuffer target, HostData data) {
        HostData buffer = own(target).data;
        if (data.length() != buffer.length()) {
            throw new EinopsException("reference backend: writing " + data.length() + " elements into a buffer of " + buffer.length());
        }
        if (data.dtype() == buffer.dtype()) {
            buffer.copyFrom(data, 0, 0, data.length());
        } else {
            for (int i = 0; i < data.length(); i++) {
                buffer.set(i, data.get(i));
            }
        }
    }

    @Override
    public HostData read(DeviceBuffer source) {
        HostData data = own(source).data;
        HostData copy = HostData.allocate(data.dtype(), data.length());
        copy.copyFrom(data, 0, 0, data.length());
        return copy;
    }

    @Override
    public void execute(Kernel kernel, List<DeviceBuffer> outputs, List<DeviceBuffer> inputs, Parameters parameters) {
        List<HostData> in = new ArrayList<>(inputs.size());
        for (DeviceBuffer input : inputs) {
            in.add(own(input).data);
        }
        List<HostData> out = new ArrayList<>(outputs.size());
        for (DeviceBuffer output : outputs) {
            out.add(own(output).data);
        }
        KernelInterpreter.run(kernel, out, in, parameters);
    }

    @Override
    public boolean requiresRelease() {
        return false;
    }

    @Override
    public void release(DeviceBuffer buffer) {
        own(buffer); // the array is reclaimed by the garbage collector
    }

    private static ReferenceBuffer own(DeviceBuffer buffer) {
        if (buffer instanceof ReferenceBuffer reference) {
            return reference;
        }
        throw new EinopsException("reference backend was handed a buffer of another backend: " + buffer);
    }
}
