package dev.ein4j.runtime;

import dev.ein4j.backend.Backend;
import dev.ein4j.backend.DeviceBuffer;
import dev.ein4j.ir.DType;
import java.lang.ref.Cleaner;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Ownership of one device buffer. The buffer is released exactly once: explicitly (the runtime
 * releases intermediates as soon as their last kernel is submitted), or by a cleaner when the last
 * tensor reading it is garbage collected, whichever comes first. Backends that do not
 * {@link Backend#requiresRelease() require release} get no cleaner: their results are left to the
 * garbage collector (a cleaner's action would hold the array alive past its last use).
 */
public final class Storage {

    private static final Cleaner CLEANER = Cleaner.create();

    private final Backend backend;
    private final DeviceBuffer buffer;
    private final Release release;
    private final Cleaner.Cleanable cleanable;

    /**
     * @param backend the backend that made the buffer
     * @param buffer the buffer, now owned by this storage
     */
    public Storage(Backend backend, DeviceBuffer buffer) {
        this.backend = backend;
        this.buffer = buffer;
        this.release = new Release(backend, buffer, new AtomicBoolean());
        this.cleanable = backend.requiresRelease() ? CLEANER.register(this, release) : null;
    }

    /**
     * Allocates a buffer and takes ownership of it.
     *
     * @param backend the backend
     * @param dtype element type
     * @param size number of elements
     * @return the storage
     */
    public static Storage allocate(Backend backend, DType dtype, long size) {
        return new Storage(backend, backend.allocate(dtype, size));
    }

    /** @return the backend that owns the buffer */
    public Backend backend() {
        return backend;
    }

    /** @return the buffer */
    public DeviceBuffer buffer() {
        return buffer;
    }

    /** @return the element type */
    public DType dtype() {
        return buffer.dtype();
    }

    /** Releases the buffer now; later calls and the cleaner do nothing. */
    public void release() {
        if (cleanable != null) {
            cleanable.clean();
        } else {
            release.run();
        }
    }

    /** The release action holds the backend and buffer, never the storage itself, and runs once. */
    private record Release(Backend backend, DeviceBuffer buffer, AtomicBoolean done) implements Runnable {
        @Override
        public void run() {
            if (done.compareAndSet(false, true)) {
                backend.release(buffer);
            }
        }
    }
}
