package dev.ein4j.opencl;

import dev.ein4j.backend.DeviceMemoryException;
import dev.ein4j.error.ResourceException;
import dev.ein4j.ir.DType;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;
import org.jocl.CL;
import org.jocl.cl_context;
import org.jocl.cl_mem;

/**
 * Every {@code cl_mem} of one backend: created here, and kept here when released, by byte size, for
 * the next allocation of that size (any element type), so that a training loop, which asks for the
 * same sizes every step, creates nothing on the device in steady state. Reusing a buffer that a
 * queued kernel still reads is safe because the backend has one in-order queue: whatever the new
 * owner submits runs after that kernel. At most {@code poolBytes} are kept; beyond that released
 * memory is released to OpenCL, which frees it once the commands using it are done.
 *
 * <p>The bytes of every {@code cl_mem} alive (handed out or pooled) count against the backend's
 * memory limit (CL_DEVICE_GLOBAL_MEM_SIZE, or less with {@value OpenClBackend#MEMORY_PROPERTY}):
 * a buffer that would pass it first makes the pool give back what it holds, then fails with a
 * {@link DeviceMemoryException}, as does a device that reports it has no room. The backend's own
 * temporaries and parameter tables are made here too but never refused by the limit, since they
 * are needed in the middle of a launch. Thread-safe: buffers are released on cleaner threads too.
 */
final class BufferPool implements AutoCloseable {

    private final cl_context context;
    private final Map<Long, ArrayDeque<ClMemory>> free = new HashMap<>();
    private final long poolBytes;
    private long limitBytes;
    private long liveBytes;
    private long pooledBytes;
    private long created;
    private long reused;
    private boolean closed;

    /**
     * @param context the context buffers are created in
     * @param limitBytes the most bytes alive at once
     * @param poolBytes the most bytes kept for reuse
     */
    BufferPool(cl_context context, long limitBytes, long poolBytes) {
        this.context = context;
        this.limitBytes = limitBytes;
        this.poolBytes = poolBytes;
    }

    /**
     * A buffer for the runtime, within the memory limit.
     *
     * @param dtype element type
     * @param size elements, 0 allowed (it then holds one element: OpenCL has no empty buffers)
     * @return a buffer whose contents are undefined
     * @throws DeviceMemoryException past the limit or when the device has no room
     */
    synchronized OpenClBuffer allocate(DType dtype, long size) {
        long bytes = bytesOf(dtype, size);
        ClMemory memory = reuse(bytes);
        if (memory == null) {
            if (liveBytes + bytes > limitBytes) {
                releasePooled(liveBytes + bytes - limitBytes);
            }
            if (liveBytes + bytes > limitBytes) {
                throw new DeviceMemoryException("opencl backend: " + liveBytes + " bytes of buffers held, " + bytes
                        + " more exceed the limit of " + limitBytes + " bytes (CL_DEVICE_GLOBAL_MEM_SIZE or -D"
                        + OpenClBackend.MEMORY_PROPERTY + ")", null);
            }
            int[] status = new int[1];
            memory = create(bytes, status);
            if (memory == null && !ClErrors.isOutOfMemory(status[0])) {
                throw ClErrors.failure(status[0], "clCreateBuffer of " + bytes + " bytes");
            }
            if (memory == null) {
                throw new DeviceMemoryException("opencl backend: the device has no room for " + bytes + " more bytes ("
                        + liveBytes + " held): " + CL.stringFor_errorCode(status[0]), ClErrors.failure(status[0], "clCreateBuffer"));
            }
        }
        return new OpenClBuffer(memory, dtype, size, this);
    }

    /**
     * A buffer the backend uses itself (a launch's temporary, a parameter table), whatever the limit.
     *
     * @param dtype element type
     * @param size elements
     * @return a buffer whose contents are undefined
     * @throws ResourceException when the device has no room
     */
    synchronized OpenClBuffer allocateInternal(DType dtype, long size) {
        long bytes = bytesOf(dtype, size);
        ClMemory memory = reuse(bytes);
        if (memory == null) {
            int[] status = new int[1];
            memory = create(bytes, status);
            if (memory == null) {
                throw ClErrors.failure(status[0], "clCreateBuffer of a " + bytes + "-byte temporary (" + liveBytes + " bytes held)");
            }
        }
        return new OpenClBuffer(memory, dtype, size, this);
    }

    /**
     * Creates a {@code cl_mem}; when the device reports that it has no room, gives back every
     * pooled buffer and tries once more.
     *
     * @param bytes its size
     * @param status receives the failure
     * @return the memory, or null with the failure in {@code status[0]}
     */
    private ClMemory create(long bytes, int[] status) {
        for (int attempt = 0; attempt < 2; attempt++) {
            cl_mem memory = CL.clCreateBuffer(context, CL.CL_MEM_READ_WRITE, bytes, null, status);
            if (status[0] == CL.CL_SUCCESS) {
                liveBytes += bytes;
                created++;
                return new ClMemory(memory, bytes);
            }
            if (!ClErrors.isOutOfMemory(status[0]) || pooledBytes == 0) {
                break;
            }
            trim();
        }
        return null;
    }

    private ClMemory reuse(long bytes) {
        ArrayDeque<ClMemory> candidates = free.get(bytes);
        ClMemory memory = candidates == null ? null : candidates.pollLast();
        if (memory != null) {
            pooledBytes -= bytes;
            reused++;
        }
        return memory;
    }

    /**
     * Takes back the memory of a released buffer: kept for reuse while the pool has room, else released.
     *
     * @param memory memory no buffer uses any more
     */
    synchronized void give(ClMemory memory) {
        if (closed || pooledBytes + memory.bytes() > poolBytes) {
            release(memory);
            return;
        }
        pooledBytes += memory.bytes();
        free.computeIfAbsent(memory.bytes(), key -> new ArrayDeque<>()).addLast(memory);
    }

    /** Releases every pooled buffer (a failed allocation is retried after this). */
    synchronized void trim() {
        releasePooled(Long.MAX_VALUE);
    }

    /** Releases pooled buffers until at least {@code wanted} bytes are freed or none is left. */
    private void releasePooled(long wanted) {
        long freed = 0;
        Iterator<ArrayDeque<ClMemory>> sizes = free.values().iterator();
        while (freed < wanted && sizes.hasNext()) {
            ArrayDeque<ClMemory> memories = sizes.next();
            while (freed < wanted && !memories.isEmpty()) {
                ClMemory memory = memories.pollFirst();
                pooledBytes -= memory.bytes();
                freed += memory.bytes();
                release(memory);
            }
            if (memories.isEmpty()) {
                sizes.remove();
            }
        }
    }

    private void release(ClMemory memory) {
        liveBytes -= memory.bytes();
        memory.close();
    }

    /** Releases every pooled buffer; buffers still handed out are released directly when they come back. */
    @Override
    public synchronized void close() {
        trim();
        closed = true;
    }

    /** @param bytes a new memory limit (the property's value, or a test's) */
    synchronized void limit(long bytes) {
        limitBytes = bytes;
    }

    /** @return the bytes of every {@code cl_mem} alive, handed out or pooled */
    synchronized long liveBytes() {
        return liveBytes;
    }

    /** @return the bytes pooled for reuse */
    synchronized long pooledBytes() {
        return pooledBytes;
    }

    /** @return the {@code cl_mem} objects created so far */
    synchronized long created() {
        return created;
    }

    /** @return the allocations served by a pooled {@code cl_mem} so far */
    synchronized long reused() {
        return reused;
    }

    private static long bytesOf(DType dtype, long size) {
        return Math.max(1, size) * dtype.bytes();
    }
}
