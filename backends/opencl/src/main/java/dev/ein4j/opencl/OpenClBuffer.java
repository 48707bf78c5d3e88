package dev.ein4j.opencl;

import dev.ein4j.backend.DeviceBuffer;
import dev.ein4j.ir.DType;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.jocl.CL;
import org.jocl.cl_context;
import org.jocl.cl_mem;

/**
 * A buffer of the OpenCL backend: one {@code cl_mem} of the buffer's own element type (float32 as
 * {@code float}, int32 as {@code int}, bool as {@code uchar} 0/1, float64 as {@code double}).
 * Closing it releases the {@code cl_mem} exactly once, from any thread; OpenCL itself defers the
 * deletion until the commands already enqueued on it have finished, so a buffer may be closed right
 * after the last kernel that reads it was submitted. A zero-element buffer holds one element, since
 * OpenCL has no empty buffers.
 */
public final class OpenClBuffer implements DeviceBuffer, AutoCloseable {

    private static final AtomicLong LIVE = new AtomicLong();

    private final cl_mem memory;
    private final DType dtype;
    private final long size;
    private final AtomicBoolean released = new AtomicBoolean();

    private OpenClBuffer(cl_mem memory, DType dtype, long size) {
        this.memory = memory;
        this.dtype = dtype;
        this.size = size;
    }

    /**
     * @param context the context to allocate in
     * @param dtype the element type
     * @param size the number of elements, 0 allowed
     * @return a new buffer, contents undefined
     */
    static OpenClBuffer allocate(cl_context context, DType dtype, long size) {
        int[] status = new int[1];
        long bytes = Math.max(1, size) * dtype.bytes();
        cl_mem memory = CL.clCreateBuffer(context, CL.CL_MEM_READ_WRITE, bytes, null, status);
        ClErrors.check(status[0], "clCreateBuffer of " + bytes + " bytes");
        LIVE.incrementAndGet();
        return new OpenClBuffer(memory, dtype, size);
    }

    /** @return the number of {@code cl_mem} objects allocated and not yet released, over all backends */
    public static long liveCount() {
        return LIVE.get();
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
        return memory;
    }

    /** @return whether {@link #close()} has run */
    public boolean isReleased() {
        return released.get();
    }

    /** Releases the {@code cl_mem} the first time; later calls do nothing. */
    @Override
    public void close() {
        if (released.compareAndSet(false, true)) {
            LIVE.decrementAndGet();
            ClErrors.check(CL.clReleaseMemObject(memory), "clReleaseMemObject");
        }
    }

    @Override
    public String toString() {
        return "OpenClBuffer[" + dtype.numpyName() + " " + size + (released.get() ? ", released]" : "]");
    }
}
