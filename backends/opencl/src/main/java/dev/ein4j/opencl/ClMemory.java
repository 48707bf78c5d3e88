package dev.ein4j.opencl;

import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.jocl.CL;
import org.jocl.cl_mem;

/**
 * One {@code cl_mem} of a fixed number of bytes, released exactly once, from any thread (a double
 * release of a JOCL handle crashes the JVM). A buffer handed to the runtime ({@link OpenClBuffer})
 * borrows one; when the buffer is released the memory goes back to the {@link BufferPool}, which
 * hands it to the next buffer of its size or releases it. OpenCL itself defers the deletion of a
 * released {@code cl_mem} until the commands already enqueued on it have finished.
 */
final class ClMemory implements AutoCloseable {

    private static final AtomicLong LIVE = new AtomicLong();

    private final cl_mem memory;
    private final long bytes;
    private final AtomicBoolean released = new AtomicBoolean();

    /**
     * @param memory a {@code cl_mem} just created, owned from now on
     * @param bytes its size
     */
    ClMemory(cl_mem memory, long bytes) {
        this.memory = memory;
        this.bytes = bytes;
        LIVE.incrementAndGet();
    }

    /** @return the number of {@code cl_mem} objects created and not yet released, over all backends */
    static long liveCount() {
        return LIVE.get();
    }

    /**
     * @return the {@code cl_mem}
     * @throws IllegalStateException once released: using a released object would crash the JVM
     */
    cl_mem get() {
        if (released.get()) {
            throw new IllegalStateException("opencl backend: use of a released cl_mem");
        }
        return memory;
    }

    /** @return its size in bytes */
    long bytes() {
        return bytes;
    }

    /** Releases the {@code cl_mem} the first time; later calls do nothing. */
    @Override
    public void close() {
        if (released.compareAndSet(false, true)) {
            LIVE.decrementAndGet();
            ClErrors.check(CL.clReleaseMemObject(memory), "clReleaseMemObject");
        }
    }
}
