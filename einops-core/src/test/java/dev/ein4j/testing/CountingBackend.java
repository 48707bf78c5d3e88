package dev.ein4j.testing;

import dev.ein4j.backend.Backend;
import dev.ein4j.backend.BackendCapabilities;
import dev.ein4j.backend.DeviceBuffer;
import dev.ein4j.ir.DType;
import dev.ein4j.ir.Op;
import dev.ein4j.kernel.HostData;
import dev.ein4j.kernel.Instruction;
import dev.ein4j.kernel.Kernel;
import dev.ein4j.kernel.Parameters;
import dev.ein4j.backend.DeviceMemoryException;
import dev.ein4j.reference.ReferenceBackend;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The reference backend, counting what the runtime asks of it: allocations, releases (and on which
 * thread), the kernels it ran, and the bytes held at any time. Its buffers wrap the reference
 * backend's and remember being released: a kernel or read that touches a released buffer throws
 * (on the thread that asked, so a runtime that frees too early fails the test). Unlike the
 * reference backend it requires release, so that releases are observable. Its largest buffer can
 * be lowered to test the runtime's size checks.
 */
public final class CountingBackend implements Backend {

    public static final String NAME = "counting";

    private final ReferenceBackend delegate = new ReferenceBackend();
    private final AtomicInteger allocations = new AtomicInteger();
    private final AtomicInteger releases = new AtomicInteger();
    private final AtomicInteger doubleReleases = new AtomicInteger();
    private final AtomicLong liveBytes = new AtomicLong();
    private final AtomicLong peakBytes = new AtomicLong();
    private final Map<DeviceBuffer, Thread> released = Collections.synchronizedMap(new IdentityHashMap<>());
    private final List<Kernel> kernels = Collections.synchronizedList(new ArrayList<>());
    private final List<List<DeviceBuffer>> outputs = Collections.synchronizedList(new ArrayList<>());
    private volatile long maxBufferElements = BackendCapabilities.HEAP_ARRAY_LIMIT;
    private volatile long memoryLimit = Long.MAX_VALUE;
    private final AtomicInteger trims = new AtomicInteger();
    /** Buffers allocated since the last reset and not released yet. */
    private final Set<DeviceBuffer> liveSinceReset = Collections.synchronizedSet(Collections.newSetFromMap(new IdentityHashMap<>()));

    /** Forgets all counts (the live bytes stay: they describe buffers still held). */
    public void reset() {
        allocations.set(0);
        releases.set(0);
        released.clear();
        liveSinceReset.clear();
        kernels.clear();
        outputs.clear();
        peakBytes.set(liveBytes.get());
        maxBufferElements = BackendCapabilities.HEAP_ARRAY_LIMIT;
        memoryLimit = Long.MAX_VALUE;
        trims.set(0);
    }

    /** @param bytes the most bytes of buffers this backend holds at once (until the next reset); more fails to allocate */
    public void limitMemory(long bytes) {
        memoryLimit = bytes;
    }

    /** @return how often the runtime asked this backend to trim its pools since the last reset */
    public int trims() {
        return trims.get();
    }

    @Override
    public void trim() {
        trims.incrementAndGet();
    }

    public int allocations() {
        return allocations.get();
    }

    public int releases() {
        return releases.get();
    }

    /** @return releases of a buffer already released (never reset: a contract violation at any time) */
    public int doubleReleases() {
        return doubleReleases.get();
    }

    /**
     * @return how many buffers allocated since the last reset are still live (unlike {@link #liveBytes},
     *     blind to earlier tests' buffers that a collector releases meanwhile)
     */
    public int liveSinceReset() {
        return liveSinceReset.size();
    }

    /** @return bytes allocated and not yet released */
    public long liveBytes() {
        return liveBytes.get();
    }

    /** @return the most bytes held at once since the last reset */
    public long peakBytes() {
        return peakBytes.get();
    }

    /** @param elements the largest buffer this backend claims to hold (until the next reset) */
    public void limitBuffers(long elements) {
        maxBufferElements = elements;
    }

    /** @return the kernels run since the last reset, in order */
    public List<Kernel> kernels() {
        synchronized (kernels) {
            return List.copyOf(kernels);
        }
    }

    /** @return how often a primitive was evaluated as a kernel instruction since the last reset */
    public int computed(Op op) {
        int count = 0;
        for (Kernel kernel : kernels()) {
            for (Instruction instruction : kernel.instructions()) {
                count += instruction.op() == op ? 1 : 0;
            }
        }
        return count;
    }

    /** @return the output buffers receiving an instruction of this primitive, in order */
    public List<DeviceBuffer> outputsOf(Op op) {
        List<Kernel> ran = kernels();
        List<List<DeviceBuffer>> written;
        synchronized (outputs) {
            written = List.copyOf(outputs);
        }
        List<DeviceBuffer> result = new ArrayList<>();
        for (int i = 0; i < ran.size(); i++) {
            for (int k = 0; k < ran.get(i).outputCount(); k++) {
                if (ran.get(i).output(k).op() == op) {
                    result.add(written.get(i).get(k));
                }
            }
        }
        return result;
    }

    /** @return the thread that released the buffer, or null if it was not released */
    public Thread releasedBy(DeviceBuffer buffer) {
        return released.get(buffer);
    }

    /** A reference buffer and whether it was released. */
    private static final class Counted implements DeviceBuffer {
        final DeviceBuffer inner;
        volatile boolean released;

        Counted(DeviceBuffer inner) {
            this.inner = inner;
        }

        @Override
        public DType dtype() {
            return inner.dtype();
        }

        @Override
        public long size() {
            return inner.size();
        }

        long bytes() {
            return inner.size() * inner.dtype().bytes();
        }

        @Override
        public String toString() {
            return "Counted" + System.identityHashCode(this) + "[" + size() + (released ? ", released]" : "]");
        }
    }

    private static DeviceBuffer live(DeviceBuffer buffer) {
        if (!(buffer instanceof Counted counted)) {
            throw new IllegalStateException("the counting backend was handed a foreign buffer: " + buffer);
        }
        if (counted.released) {
            throw new IllegalStateException("use after release: " + buffer);
        }
        return counted.inner;
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public BackendCapabilities capabilities() {
        BackendCapabilities heap = BackendCapabilities.heap();
        return new BackendCapabilities(heap.dtypes(), maxBufferElements, false, memoryLimit);
    }

    @Override
    public DeviceBuffer allocate(DType dtype, long size) {
        if (liveBytes.get() + size * dtype.bytes() > memoryLimit) {
            throw new DeviceMemoryException("counting backend: " + liveBytes.get() + " bytes live, limit " + memoryLimit, null);
        }
        allocations.incrementAndGet();
        Counted buffer = new Counted(delegate.allocate(dtype, size));
        long now = liveBytes.addAndGet(buffer.bytes());
        peakBytes.accumulateAndGet(now, Math::max);
        liveSinceReset.add(buffer);
        return buffer;
    }

    @Override
    public void write(DeviceBuffer target, HostData data) {
        delegate.write(live(target), data);
    }

    @Override
    public HostData read(DeviceBuffer source) {
        return delegate.read(live(source));
    }

    @Override
    public void execute(Kernel kernel, List<DeviceBuffer> outputs, List<DeviceBuffer> inputs, Parameters parameters) {
        synchronized (kernels) {
            kernels.add(kernel);
            this.outputs.add(List.copyOf(outputs));
        }
        delegate.execute(kernel, outputs.stream().map(CountingBackend::live).toList(),
                inputs.stream().map(CountingBackend::live).toList(), parameters);
    }

    @Override
    public void release(DeviceBuffer buffer) {
        releases.incrementAndGet();
        if (released.putIfAbsent(buffer, Thread.currentThread()) != null) {
            doubleReleases.incrementAndGet(); // the cleaner thread would swallow an exception
            return;
        }
        ((Counted) buffer).released = true;
        liveSinceReset.remove(buffer);
        liveBytes.addAndGet(-((Counted) buffer).bytes());
    }
}
