package dev.ein4j.opencl;

import dev.ein4j.backend.DeviceBuffer;
import dev.ein4j.ir.DType;
import java.util.concurrent.atomic.AtomicBoolean;
import org.jocl.cl_mem;

/**
 * A buffer of the OpenCL backend: elements of one type (float32 as {@code float}, int32 as
 * {@code int}, bool as {@code uchar} 0/1, float64 as {@code double}) in a {@code cl_mem} borrowed
 * from the backend's {@link BufferPool}. Closing it gives the memory back exactly once, from any
 * thread; the pool reuses it for a later buffer of the same byte size (safe on the one in-order
 * queue) or releases it, and OpenCL defers a release until the commands already enqueued on it have
 * finished, so a buffer may be closed right after the last kernel that reads it was submitted. A
 * closed buffer cannot be used again, even while its memory serves another buffer. A zero-element
 * buffer holds one element, since OpenCL has no empty buffers.
 */
public final class OpenClBuffer implements DeviceBuffer, AutoCloseable {

    private final ClMemory memory;
    private final DType dtype;
    private final long size;
    private final BufferPool home;
    private final AtomicBoolean released = new AtomicBoolean();

    /**
     * @param memory the memory, at least {@code max(1, size)} elements of the type
     * @param dtype the element type
     * @param size the number of elements
     * @param home the pool the memory goes back to
     */
    OpenClBuffer(ClMemory memory, DType dtype, long size, BufferPool home) {
        this.memory = memory;
        this.dtype = dtype;
        this.size = size;
        this.home = home;
    }

    /**
     * @return the number of {@code cl_mem} objects alive (held by buffers, or pooled for reuse), over all backends
     */
    public static long liveCount() {
        return ClMemory.liveCount();
    }

    @Override
    public DType dtype() {
        return dtype;
    }

    @Override
    public long size() {
        return size;
    }

    /** @return the bytes this buffer's elements occupy (0 for an empty buffer) */
    long bytes() {
        return size * dtype.bytes();
    }

    /**
     * @return the {@code cl_mem}
     * @throws IllegalStateException once released
     */
    cl_mem memory() {
        if (released.get()) {
            throw new IllegalStateException("opencl backend: use of a released buffer " + this);
        }
        return memory.get();
    }

    /** @return whether {@link #close()} has run */
    public boolean isReleased() {
        return released.get();
    }

    /** Gives the memory back to the pool the first time; later calls do nothing. */
    @Override
    public void close() {
        if (released.compareAndSet(false, true)) {
            home.give(memory);
        }
    }

    @Override
    public String toString() {
        return "OpenClBuffer[" + dtype.numpyName() + " " + size + (released.get() ? ", released]" : "]");
    }
}
