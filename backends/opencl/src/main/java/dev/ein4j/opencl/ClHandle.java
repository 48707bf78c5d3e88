package dev.ein4j.opencl;

import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.ToIntFunction;

/**
 * Owns one OpenCL object (a program, a kernel, a queue, a context, an event) and releases it exactly
 * once. JOCL never frees through the garbage collector and crashes the JVM on a double release, so
 * every object the backend creates lives in such a handle (buffers in {@link OpenClBuffer}); the
 * guard makes {@link #close()} idempotent and safe to call from any thread.
 *
 * @param <T> the JOCL type ({@code cl_program}, {@code cl_kernel}, ...)
 */
final class ClHandle<T> implements AutoCloseable {

    private final T object;
    private final ToIntFunction<T> release;
    private final String kind;
    private final AtomicBoolean released = new AtomicBoolean();

    /**
     * @param object the OpenCL object, already created
     * @param release the JOCL call that releases it ({@code CL::clReleaseKernel}, ...)
     * @param kind what it is, for messages
     */
    ClHandle(T object, ToIntFunction<T> release, String kind) {
        this.object = object;
        this.release = release;
        this.kind = kind;
    }

    /**
     * @return the object
     * @throws IllegalStateException once released: using a released object would crash the JVM
     */
    T get() {
        if (released.get()) {
            throw new IllegalStateException("opencl backend: use of a released " + kind);
        }
        return object;
    }

    /** @return whether {@link #close()} has run */
    boolean isReleased() {
        return released.get();
    }

    /** Releases the object the first time; later calls do nothing. */
    @Override
    public void close() {
        if (released.compareAndSet(false, true)) {
            ClErrors.check(release.applyAsInt(object), "release of a " + kind);
        }
    }
}
