package dev.ein4j.runtime;

import dev.ein4j.backend.Backend;
import dev.ein4j.backend.DeviceBuffer;
import dev.ein4j.backend.DeviceMemoryException;
import dev.ein4j.error.AllocationException;
import dev.ein4j.ir.DType;
import java.util.List;

/**
 * Every buffer the runtime asks a backend for: when the backend has no room, its pools are trimmed
 * once and the allocation retried; if that fails too, the user gets an {@link AllocationException}
 * saying what was asked for, what live tensors hold, the backend's limit and the largest live
 * tensors, so that the tensor that should have been closed can be found.
 */
final class Allocation {

    private Allocation() {
    }

    /**
     * @param backend the backend
     * @param dtype element type
     * @param size elements
     * @return a new buffer
     * @throws AllocationException if the backend cannot hold it even after trimming
     */
    static DeviceBuffer allocate(Backend backend, DType dtype, long size) {
        try {
            return backend.allocate(dtype, size);
        } catch (DeviceMemoryException first) {
            backend.trim();
            try {
                return backend.allocate(dtype, size);
            } catch (DeviceMemoryException second) {
                throw failure(backend, dtype, size, second);
            }
        }
    }

    private static AllocationException failure(Backend backend, DType dtype, long size, DeviceMemoryException cause) {
        long requested = size * dtype.bytes();
        long live = LiveMemory.liveBytes(backend);
        long limit = backend.capabilities().memoryBytes();
        List<String> largest = LiveMemory.largest(backend, 5);
        String message = "backend '" + backend.name() + "' cannot allocate " + Schedule.formatBytes(requested) + " ("
                + size + " " + dtype.numpyName() + " elements): live tensors hold " + Schedule.formatBytes(live) + " in "
                + LiveMemory.liveCount(backend) + " buffers"
                + (limit == Long.MAX_VALUE ? "" : " of the backend's " + Schedule.formatBytes(limit))
                + (largest.isEmpty() ? "" : "; largest live tensors: " + String.join(", ", largest))
                + ". Close tensors you no longer need (Tensor.close(), or a Tensor.scope() around each step). "
                + "Backend: " + cause.getMessage();
        return new AllocationException(message, requested, live, cause);
    }
}
