package dev.ein4j.opencl;

import dev.ein4j.kernel.HostData;
import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.concurrent.locks.ReentrantLock;
import org.jocl.CL;
import org.jocl.Pointer;
import org.jocl.Sizeof;
import org.jocl.cl_command_queue;
import org.jocl.cl_context;
import org.jocl.cl_device_id;
import org.jocl.cl_event;

/**
 * The backend's one context and one in-order command queue on the chosen device, with the lock
 * that orders every submission. Submissions from several threads interleave whole (a kernel's
 * arguments are set and the kernel enqueued under the lock, since {@code clSetKernelArg} on a shared
 * kernel object is not thread-safe), and the in-order queue then runs them in submission order,
 * which is the SPI's ordering guarantee.
 *
 * <p>Writes are asynchronous: the host data is copied into a direct buffer owned here until the
 * device has read it (an event says when). Writes of more than {@value #ASYNC_WRITE_LIMIT} bytes
 * are blocking instead, straight from the host array, so that a huge write needs no second copy
 * in native memory. Reads are blocking: they are the synchronisation points.
 */
final class DeviceQueue implements AutoCloseable {

    /** Larger writes block rather than copy into native memory. */
    static final long ASYNC_WRITE_LIMIT = 64L << 20;

    /** A non-blocking write and the host copy it reads from, kept alive until it completes. */
    private record PendingWrite(ClHandle<cl_event> event, ByteBuffer data) {
    }

    private final DeviceInfo device;
    private final ClHandle<cl_context> context;
    private final ClHandle<cl_command_queue> queue;
    private final ReentrantLock lock = new ReentrantLock();
    private final ArrayDeque<PendingWrite> pending = new ArrayDeque<>();

    private DeviceQueue(DeviceInfo device, ClHandle<cl_context> context, ClHandle<cl_command_queue> queue) {
        this.device = device;
        this.context = context;
        this.queue = queue;
    }

    /**
     * @param device the device
     * @return a context and an in-order queue on it
     */
    @SuppressWarnings("deprecation") // clCreateCommandQueue: OpenCL 1.2 devices lack the 2.0 variant
    static DeviceQueue open(DeviceInfo device) {
        int[] status = new int[1];
        cl_device_id[] devices = {device.device()};
        cl_context context = CL.clCreateContext(null, 1, devices, null, null, status);
        ClErrors.check(status[0], "clCreateContext on " + device.deviceName());
        ClHandle<cl_context> contextHandle = new ClHandle<>(context, CL::clReleaseContext, "context");
        cl_command_queue queue = CL.clCreateCommandQueue(context, device.device(), 0, status);
        if (status[0] != CL.CL_SUCCESS) {
            contextHandle.close();
            throw ClErrors.failure(status[0], "clCreateCommandQueue on " + device.deviceName());
        }
        return new DeviceQueue(device, contextHandle, new ClHandle<>(queue, CL::clReleaseCommandQueue, "command queue"));
    }

    /** @return the device */
    DeviceInfo device() {
        return device;
    }

    /** @return the context */
    cl_context context() {
        return context.get();
    }

    /** @return the queue; enqueue only while holding {@link #lock()} */
    cl_command_queue queue() {
        return queue.get();
    }

    /** @return the lock ordering submissions */
    ReentrantLock lock() {
        return lock;
    }

    /**
     * Enqueues a copy of host data into a buffer (a submission).
     *
     * @param target the buffer
     * @param data exactly as many elements, of the buffer's type
     */
    void write(OpenClBuffer target, HostData data) {
        if (data.length() == 0) {
            return;
        }
        if (target.bytes() <= ASYNC_WRITE_LIMIT) {
            writeAsync(target, HostArrays.directCopy(data));
            return;
        }
        lock.lock();
        try {
            ClErrors.check(CL.clEnqueueWriteBuffer(queue(), target.memory(), true, 0, target.bytes(), HostArrays.pointerTo(data), 0,
                    null, null), "clEnqueueWriteBuffer");
        } finally {
            lock.unlock();
        }
    }

    /**
     * Enqueues a copy of 64-bit values into a buffer (a kernel's parameter table).
     *
     * @param target a buffer of at least {@code values.length · 8} bytes
     * @param values the values
     */
    void writeLongs(OpenClBuffer target, long[] values) {
        if (values.length == 0) {
            return;
        }
        ByteBuffer copy = ByteBuffer.allocateDirect(values.length * Long.BYTES).order(java.nio.ByteOrder.nativeOrder());
        copy.asLongBuffer().put(values);
        writeAsync(target, copy);
    }

    /**
     * Waits for every earlier submission and copies 64-bit values to the host (a kernel's index-error record).
     *
     * @param source a buffer of at least {@code count · 8} bytes
     * @param count how many values
     * @return the values
     */
    long[] readLongs(OpenClBuffer source, int count) {
        long[] values = new long[count];
        if (count == 0) {
            return values;
        }
        ByteBuffer copy = ByteBuffer.allocateDirect(count * Long.BYTES).order(java.nio.ByteOrder.nativeOrder());
        lock.lock();
        try {
            ClErrors.check(CL.clEnqueueReadBuffer(queue(), source.memory(), true, 0, copy.capacity(), Pointer.to(copy), 0, null, null),
                    "clEnqueueReadBuffer");
            retireCompletedWrites();
        } finally {
            lock.unlock();
        }
        copy.asLongBuffer().get(values);
        return values;
    }

    /** Enqueues a non-blocking write from a direct buffer kept alive until the write completes. */
    private void writeAsync(OpenClBuffer target, ByteBuffer copy) {
        lock.lock();
        try {
            retireCompletedWrites();
            cl_event event = new cl_event();
            ClErrors.check(CL.clEnqueueWriteBuffer(queue(), target.memory(), false, 0, copy.capacity(), Pointer.to(copy), 0, null,
                    event), "clEnqueueWriteBuffer");
            pending.addLast(new PendingWrite(new ClHandle<>(event, CL::clReleaseEvent, "event"), copy));
            ClErrors.check(CL.clFlush(queue()), "clFlush");
        } finally {
            lock.unlock();
        }
    }

    /**
     * Waits for every earlier submission and copies a buffer to the host.
     *
     * @param source the buffer
     * @return its elements
     */
    HostData read(OpenClBuffer source) {
        HostData data = HostData.allocate(source.dtype(), (int) source.size());
        lock.lock();
        try {
            if (data.length() > 0) {
                ClErrors.check(CL.clEnqueueReadBuffer(queue(), source.memory(), true, 0, source.bytes(),
                        HostArrays.pointerTo(data), 0, null, null), "clEnqueueReadBuffer");
            }
            retireCompletedWrites(); // the in-order queue has run every earlier write by now
        } finally {
            lock.unlock();
        }
        return data;
    }

    /** Starts the submitted work without waiting for it. */
    void flush() {
        lock.lock();
        try {
            ClErrors.check(CL.clFlush(queue()), "clFlush");
        } finally {
            lock.unlock();
        }
    }

    /** Waits until every submission so far has completed. */
    void finish() {
        lock.lock();
        try {
            ClErrors.check(CL.clFinish(queue()), "clFinish");
            retireCompletedWrites();
        } finally {
            lock.unlock();
        }
    }

    /** @return how many asynchronous writes still hold their host copy */
    int pendingWrites() {
        lock.lock();
        try {
            return pending.size();
        } finally {
            lock.unlock();
        }
    }

    /** Drops the host copies of writes that have completed, oldest first (the queue runs in order). */
    private void retireCompletedWrites() {
        int[] status = new int[1];
        while (!pending.isEmpty()) {
            PendingWrite oldest = pending.peekFirst();
            ClErrors.check(CL.clGetEventInfo(oldest.event().get(), CL.CL_EVENT_COMMAND_EXECUTION_STATUS, Sizeof.cl_int,
                    Pointer.to(status), null), "clGetEventInfo");
            if (status[0] > CL.CL_COMPLETE) {
                return;
            }
            pending.removeFirst().event().close();
            if (status[0] < 0) {
                throw ClErrors.failure(status[0], "an asynchronous write");
            }
        }
    }

    /** Finishes the queue's work and releases the queue and the context. */
    @Override
    public void close() {
        lock.lock();
        try {
            if (!queue.isReleased()) {
                CL.clFinish(queue.get());
                retireCompletedWrites();
            }
            queue.close();
            context.close();
        } finally {
            lock.unlock();
        }
    }
}
