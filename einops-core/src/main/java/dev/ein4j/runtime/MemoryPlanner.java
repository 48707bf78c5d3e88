package dev.ein4j.runtime;

import dev.ein4j.backend.Backend;
import dev.ein4j.backend.DeviceBuffer;
import dev.ein4j.ir.DType;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.Map;

/**
 * Reuses buffers within one realization by liveness: a buffer whose last reader has been submitted
 * goes to a free list and is handed to the next launch that needs a buffer of the same type and
 * size; what is left over is released at the end. A chain of layers realized at once thus cycles
 * through a few activation buffers instead of allocating one per layer. Reuse after release is safe
 * on asynchronous backends because submissions are ordered.
 */
final class MemoryPlanner {

    private record SizeClass(DType dtype, long size) {
    }

    private final Backend backend;
    private final Map<SizeClass, Deque<DeviceBuffer>> free = new HashMap<>();

    MemoryPlanner(Backend backend) {
        this.backend = backend;
    }

    /**
     * @param dtype element type
     * @param size elements
     * @return a free buffer of that class, or a new one
     */
    DeviceBuffer take(DType dtype, long size) {
        Deque<DeviceBuffer> candidates = free.get(new SizeClass(dtype, size));
        DeviceBuffer reused = candidates == null ? null : candidates.poll();
        return reused != null ? reused : Allocation.allocate(backend, dtype, size);
    }

    /** @param buffer a buffer no later launch of this realization reads */
    void giveBack(DeviceBuffer buffer) {
        free.computeIfAbsent(new SizeClass(buffer.dtype(), buffer.size()), key -> new ArrayDeque<>()).push(buffer);
    }

    /** Releases every buffer still on the free lists. */
    void releaseAll() {
        free.values().forEach(buffers -> buffers.forEach(backend::release));
        free.clear();
    }
}
