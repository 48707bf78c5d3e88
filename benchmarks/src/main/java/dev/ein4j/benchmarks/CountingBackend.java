package dev.ein4j.benchmarks;

import dev.ein4j.backend.Backend;
import dev.ein4j.backend.BufferView;
import dev.ein4j.backend.DeviceBuffer;
import dev.ein4j.ir.DType;
import dev.ein4j.ir.Op;
import dev.ein4j.reference.ReferenceBackend;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The reference backend, counting the buffers it allocates: every {@link dev.ein4j.backend.Storage}
 * the runtime makes goes through {@link #allocate}, so the count is the number of buffers a
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
    public DeviceBuffer allocate(DType dtype, int size) {
        ALLOCATIONS.incrementAndGet();
        ALLOCATED_ELEMENTS.addAndGet(size);
        return delegate.allocate(dtype, size);
    }

    @Override
    public void write(DeviceBuffer target, double[] data) {
        delegate.write(target, data);
    }

    @Override
    public double[] read(DeviceBuffer source) {
        return delegate.read(source);
    }

    @Override
    public void release(DeviceBuffer buffer) {
        delegate.release(buffer);
    }

    @Override
    public void elementwise(Op op, DeviceBuffer output, List<BufferView> inputs) {
        delegate.elementwise(op, output, inputs);
    }

    @Override
    public void reduce(Op op, DeviceBuffer output, BufferView input, int[] axes) {
        delegate.reduce(op, output, input, axes);
    }

    @Override
    public void contract(DeviceBuffer output, BufferView left, BufferView right, int[] axes) {
        delegate.contract(output, left, right, axes);
    }

    @Override
    public void fill(DeviceBuffer output, double value) {
        delegate.fill(output, value);
    }

    @Override
    public void iota(DeviceBuffer output) {
        delegate.iota(output);
    }

    @Override
    public void random(DeviceBuffer output, long seed) {
        delegate.random(output, seed);
    }
}
