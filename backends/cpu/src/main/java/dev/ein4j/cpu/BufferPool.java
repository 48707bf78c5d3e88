package dev.ein4j.cpu;

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
 * that, released buffers go to the garbage collector.
 */
final class BufferPool {

    private record SizeClass(DType dtype, int length) {
    }

    private final Map<SizeClass, Deque<HostData>> free = new HashMap<>();
    private final long limitBytes;
    private long heldBytes;
    private long allocations;
    private long reuses;

    /** @param limitBytes the most bytes kept for reuse */
    BufferPool(long limitBytes) {
        this.limitBytes = limitBytes;
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
            reuses++;
            return reused;
        }
        allocations++;
        try {
            return HostData.allocate(dtype, length);
        } catch (OutOfMemoryError full) {
            // Results come back through a Cleaner only after a collection: drop what the pool holds,
            // collect, give the cleaners a moment to return dead results, then try once more.
            free.clear();
            heldBytes = 0;
            System.gc();
            try {
                wait(50); // releases the lock: cleaner threads can give buffers back meanwhile
            } catch (InterruptedException interrupted) {
                Thread.currentThread().interrupt();
            }
            free.clear();
            heldBytes = 0;
            return HostData.allocate(dtype, length);
        }
    }

    /** @param data an array no one uses any more */
    synchronized void give(HostData data) {
        long size = bytes(data);
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

    /** @return bytes held for reuse now */
    synchronized long heldBytes() {
        return heldBytes;
    }

    private static long bytes(HostData data) {
        return (long) data.length() * data.dtype().bytes();
    }
}
