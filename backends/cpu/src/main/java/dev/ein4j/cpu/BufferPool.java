package dev.ein4j.cpu;

import dev.ein4j.backend.DeviceMemoryException;
import dev.ein4j.ir.DType;
import dev.ein4j.kernel.HostData;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.Map;

/**
 * Released buffers, kept by (type, length) for the next allocation of the same kind: a training
 * loop asks for the same shapes every step, so in steady state it allocates nothing (fresh large
 * arrays also page-fault heavily on first touch). The pool keeps at most {@code limitBytes}; beyond
 * that, released buffers go to the garbage collector. Arrays handed out and not yet given back are
 * counted against {@code memoryBytes}, the backend's configured memory: past it, or when the heap
 * itself is full, an allocation fails with a {@link DeviceMemoryException} (the runtime then trims
 * the pool and retries once before reporting what is live).
 */
final class BufferPool {

    private record SizeClass(DType dtype, int length) {
    }

    private final Map<SizeClass, Deque<HostData>> free = new HashMap<>();
    private final long limitBytes;
    private final long memoryBytes;
    private long heldBytes;
    private long outstandingBytes;
    private long allocations;
    private long reuses;

    /**
     * @param limitBytes the most bytes kept for reuse
     * @param memoryBytes the most bytes handed out at once
     */
    BufferPool(long limitBytes, long memoryBytes) {
        this.limitBytes = limitBytes;
        this.memoryBytes = memoryBytes;
    }

    /**
     * @param dtype element type
     * @param length elements
     * @return a pooled array of that kind (its contents undefined) or a new one
     */
    synchronized HostData take(DType dtype, int length) {
        Deque<HostData> candidates = free.get(new SizeClass(dtype, length));
        HostData reused = candidates == null ? null : candidates.poll();
        if (reused != null) {
            heldBytes -= bytes(reused);
            outstandingBytes += bytes(reused);
            reuses++;
            return reused;
        }
        long size = (long) length * dtype.bytes();
        if (outstandingBytes + size > memoryBytes) {
            throw new DeviceMemoryException("cpu backend: " + outstandingBytes + " bytes in use, " + size + " more exceed its "
                    + memoryBytes + " bytes (-D" + CpuBackend.MEMORY_PROPERTY + ")", null);
        }
        HostData data;
        try {
            data = HostData.allocate(dtype, length);
        } catch (OutOfMemoryError full) {
            throw new DeviceMemoryException("cpu backend: the Java heap has no room for " + size + " more bytes ("
                    + outstandingBytes + " in use, " + heldBytes + " pooled; raise -Xmx)", full);
        }
        allocations++;
        outstandingBytes += size;
        return data;
    }

    /** Gives every pooled array to the garbage collector (a failed allocation is retried after this). */
    synchronized void trim() {
        free.clear();
        heldBytes = 0;
    }

    /** @param data an array no one uses any more */
    synchronized void give(HostData data) {
        long size = bytes(data);
        outstandingBytes -= size;
        if (heldBytes + size > limitBytes || data.length() == 0) {
            return;
        }
        heldBytes += size;
        free.computeIfAbsent(new SizeClass(data.dtype(), data.length()), key -> new ArrayDeque<>()).push(data);
    }

    /** @return arrays allocated fresh so far */
    synchronized long allocations() {
        return allocations;
    }

    /** @return allocations served from the pool so far */
    synchronized long reuses() {
        return reuses;
    }

    /** @return bytes handed out and not given back */
    synchronized long outstandingBytes() {
        return outstandingBytes;
    }

    /** @return bytes held for reuse now */
    synchronized long heldBytes() {
        return heldBytes;
    }

    private static long bytes(HostData data) {
        return (long) data.length() * data.dtype().bytes();
    }
}
