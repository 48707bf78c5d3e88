package dev.ein4j.backend;

import dev.ein4j.ir.DType;
import java.lang.ref.Cleaner;

/**
 * Ownership of one device buffer. The buffer is released exactly once: explicitly by the runtime
 * when an intermediate result is no longer needed, or by a cleaner when the last tensor reading it
 * is garbage collected, whichever comes first. Buffers of backends that do not
 * {@link Backend#requiresRelease() require release} are left to the garbage collector.
 */
public final class Storage {

    private static final Cleaner CLEANER = Cleaner.create();

    private final Backend backend;
    private final DeviceBuffer buffer;
    private final Cleaner.Cleanable cleanable;

    /**
     * @param backend the backend that made the buffer
     * @param buffer the buffer, now owned by this storage
     */
    public Storage(Backend backend, DeviceBuffer buffer) {
        this.backend = backend;
        this.buffer = buffer;
        // A cleaner's action holds the buffer strongly until it runs; heap-only buffers skip it so
        // that the garbage collector reclaims them with their last user.
        this.cleanable = backend.requiresRelease() ? CLEANER.register(this, new Release(backend, buffer)) : null;
    }

    /**
     * Allocates a buffer and takes ownership of it.
     *
     * @param backend the backend
     * @param dtype element type
     * @param size number of elements
     * @return the storage
     */
    public static Storage allocate(Backend backend, DType dtype, int size) {
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

    /** Releases the buffer now; later calls and the cleaner do nothing. */
    public void release() {
        if (cleanable != null) {
            cleanable.clean();
        }
    }

    /** The cleaning action holds the backend and buffer, never the storage itself. */
    private record Release(Backend backend, DeviceBuffer buffer) implements Runnable {
        @Override
        public void run() {
            backend.release(buffer);
        }
    }
}
