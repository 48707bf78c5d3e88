package dev.ein4j.benchmarks;

import dev.ein4j.backend.Backend;
import dev.ein4j.backend.BackendCapabilities;
import dev.ein4j.backend.DeviceBuffer;
import dev.ein4j.ir.DType;
import dev.ein4j.kernel.HostData;
import dev.ein4j.kernel.Kernel;
import dev.ein4j.kernel.Parameters;
import dev.ein4j.reference.ReferenceBackend;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The reference backend, counting the buffers it allocates: every buffer
 * the runtime asks for goes through {@link #allocate}, so the count is the number of buffers a
 * computation needed. Registered as backend {@value #NAME} by {@link CountingBackendProvider}.
 */
public final class CountingBackend implements Backend {

    /** The backend's name, for {@link dev.ein4j.backend.Backends#use(String)}. */
    public static final String NAME = "counting";

    private static final AtomicLong ALLOCATIONS = new AtomicLong();
    private static final AtomicLong ALLOCATED_ELEMENTS = new AtomicLong();

    private final Backend delegate = new ReferenceBackend();

    /** @return buffers allocated since the last {@link #reset()} (by any counting backend) */
    public static long allocations() {
        return ALLOCATIONS.get();
    }

    /** @return elements in those buffers */
    public static long allocatedElements() {
        return ALLOCATED_ELEMENTS.get();
    }

    /** Sets both counts to zero. */
    public static void reset() {
        ALLOCATIONS.set(0);
        ALLOCATED_ELEMENTS.set(0);
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public BackendCapabilities capabilities() {
        return delegate.capabilities();
    }

    @Override
    public DeviceBuffer allocate(DType dtype, long size) {
        ALLOCATIONS.incrementAndGet();
        ALLOCATED_ELEMENTS.addAndGet(size);
        return delegate.allocate(dtype, size);
    }

    @Override
    public void write(DeviceBuffer target, HostData data) {
        delegate.write(target, data);
    }

    @Override
    public HostData read(DeviceBuffer source) {
        return delegate.read(source);
    }

    @Override
    public void execute(Kernel kernel, List<DeviceBuffer> outputs, List<DeviceBuffer> inputs, Parameters parameters) {
        delegate.execute(kernel, outputs, inputs, parameters);
    }

    @Override
    public boolean requiresRelease() {
        return false;
    }

    @Override
    public void release(DeviceBuffer buffer) {
        delegate.release(buffer);
    }
}
