package dev.ein4j.runtime;

import dev.ein4j.backend.Backend;
import dev.ein4j.backend.DeviceBuffer;
import dev.ein4j.ir.DType;
import java.lang.ref.Cleaner;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Ownership of one device buffer, counted: every node whose data reads the buffer (a tensor and
 * its views, a parameter and the tensor it was made from) holds one reference, and so does a
 * realization while it reads the buffer. The buffer goes back to its backend exactly once, when
 * the last reference is given up ({@link #release()}); closing tensors or their scope does that
 * deterministically. For tensors nobody closes, a {@link Cleaner} releases the buffer once no
 * Java object can reach this storage any more (the safety net). Backends that do not
 * {@link Backend#requiresRelease() require release} get no cleaner.
 */
public final class Storage {

    private static final Cleaner CLEANER = Cleaner.create();

    private final Backend backend;
    private final DeviceBuffer buffer;
    private final Release release;
    private final Cleaner.Cleanable cleanable;
    private final AtomicInteger references = new AtomicInteger();

    /**
     * @param backend the backend that made the buffer
     * @param buffer the buffer, now owned by this storage (with no references yet)
     */
    public Storage(Backend backend, DeviceBuffer buffer) {
        this.backend = backend;
        this.buffer = buffer;
        this.release = new Release(backend, buffer, new AtomicBoolean());
        this.cleanable = backend.requiresRelease() ? CLEANER.register(this, release) : null;
        LiveMemory.added(backend, buffer);
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

    /** @return whether the buffer has gone back to its backend */
    public boolean isReleased() {
        return release.done.get();
    }

    /** @return the references held now */
    public int references() {
        return references.get();
    }

    /**
     * Takes a reference.
     *
     * @return this storage
     * @throws IllegalStateException if the buffer was already released
     */
    public Storage retain() {
        int before = references.getAndIncrement();
        if (before < 0 || isReleased()) {
            throw new IllegalStateException("a released buffer cannot be retained: " + buffer);
        }
        return this;
    }

    /** Gives up a reference; the last one releases the buffer. */
    public void release() {
        if (references.decrementAndGet() == 0) {
            free();
        }
    }

    /** Releases the buffer now, whatever the references (a storage no node ever held); later calls do nothing. */
    public void free() {
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
                LiveMemory.removed(backend, buffer);
                backend.release(buffer);
            }
        }
    }
}
