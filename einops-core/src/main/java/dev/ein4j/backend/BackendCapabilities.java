package dev.ein4j.backend;

import dev.ein4j.ir.DType;
import java.util.EnumSet;
import java.util.Set;

/**
 * What a backend can do, stated up front so that the core rejects a program it cannot run before
 * anything runs.
 *
 * @param dtypes the element types it stores and computes
 * @param maxBufferElements the largest buffer it can allocate, in elements
 * @param asynchronous whether submissions may return before they complete
 * @param memoryBytes the most bytes of buffers it holds at once (device memory, or the share of the
 *     heap it is configured to use), for the messages of failed allocations; Long.MAX_VALUE if unknown
 */
public record BackendCapabilities(Set<DType> dtypes, long maxBufferElements, boolean asynchronous, long memoryBytes) {

    /** The largest Java array, in elements: the limit of heap backends. */
    public static final long HEAP_ARRAY_LIMIT = Integer.MAX_VALUE - 8;

    /** Copies the type set. */
    public BackendCapabilities {
        dtypes = Set.copyOf(dtypes);
    }

    /** @return the capabilities of a synchronous heap backend storing every type */
    public static BackendCapabilities heap() {
        return heap(Runtime.getRuntime().maxMemory());
    }

    /**
     * @param memoryBytes the bytes of buffers it may hold
     * @return the capabilities of a synchronous heap backend storing every type
     */
    public static BackendCapabilities heap(long memoryBytes) {
        return new BackendCapabilities(EnumSet.allOf(DType.class), HEAP_ARRAY_LIMIT, false, memoryBytes);
    }

    /**
     * @param dtype a type
     * @return whether the backend stores it
     */
    public boolean supports(DType dtype) {
        return dtypes.contains(dtype);
    }
}
