package dev.ein4j.testing;

import dev.ein4j.backend.Backend;
import dev.ein4j.backend.BufferView;
import dev.ein4j.backend.DeviceBuffer;
import dev.ein4j.ir.DType;
import dev.ein4j.ir.Op;
import dev.ein4j.reference.ReferenceBackend;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The reference backend, counting what the runtime asks of it: allocations, releases (and on which
 * thread), and which primitive wrote which buffer. Its buffers wrap the reference backend's and
 * remember being released: a kernel or read that touches a released buffer throws (on the thread
 * that asked, so a runtime that frees too early fails the test). Unlike the reference backend it
 * requires release, so that releases are observable.
 */
public final class CountingBackend implements Backend {

    public static final String NAME = "counting";

    private final ReferenceBackend delegate = new ReferenceBackend();
    private final AtomicInteger allocations = new AtomicInteger();
    private final AtomicInteger releases = new AtomicInteger();
    private final AtomicInteger doubleReleases = new AtomicInteger();
    private final Map<DeviceBuffer, Thread> released = Collections.synchronizedMap(new IdentityHashMap<>());
    private final Map<Op, AtomicInteger> computed = new ConcurrentHashMap<>();
    private final List<Map.Entry<Op, DeviceBuffer>> writes = Collections.synchronizedList(new ArrayList<>());

    /** Forgets all counts. */
    public void reset() {
        allocations.set(0);
        releases.set(0);
        released.clear();
        computed.clear();
        writes.clear();
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

    /** @return how often a primitive ran since the last reset */
    public int computed(Op op) {
        AtomicInteger count = computed.get(op);
        return count == null ? 0 : count.get();
    }

    /** @return the output buffers the primitive wrote since the last reset, in order */
    public List<DeviceBuffer> outputsOf(Op op) {
        synchronized (writes) {
            return writes.stream().filter(entry -> entry.getKey() == op).map(Map.Entry::getValue).toList();
        }
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
        public int size() {
            return inner.size();
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

    private static List<BufferView> live(List<BufferView> views) {
        return views.stream().map(view -> new BufferView(live(view.buffer()), view.view())).toList();
    }

    private void record(Op op, DeviceBuffer output) {
        computed.computeIfAbsent(op, key -> new AtomicInteger()).incrementAndGet();
        writes.add(Map.entry(op, output));
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public DeviceBuffer allocate(DType dtype, int size) {
        allocations.incrementAndGet();
        return new Counted(delegate.allocate(dtype, size));
    }

    @Override
    public void write(DeviceBuffer target, double[] data) {
        delegate.write(live(target), data);
    }

    @Override
    public double[] read(DeviceBuffer source) {
        return delegate.read(live(source));
    }

    @Override
    public void release(DeviceBuffer buffer) {
        releases.incrementAndGet();
        if (released.putIfAbsent(buffer, Thread.currentThread()) != null) {
            doubleReleases.incrementAndGet(); // the cleaner thread would swallow an exception
        }
        ((Counted) buffer).released = true;
    }

    @Override
    public void elementwise(Op op, DeviceBuffer output, List<BufferView> inputs) {
        record(op, output);
        delegate.elementwise(op, live(output), live(inputs));
    }

    @Override
    public void reduce(Op op, DeviceBuffer output, BufferView input, int[] axes) {
        record(op, output);
        delegate.reduce(op, live(output), new BufferView(live(input.buffer()), input.view()), axes);
    }

    @Override
    public void contract(DeviceBuffer output, BufferView left, BufferView right, int[] axes) {
        record(Op.CONTRACT, output);
        delegate.contract(live(output), new BufferView(live(left.buffer()), left.view()),
                new BufferView(live(right.buffer()), right.view()), axes);
    }

    @Override
    public void fill(DeviceBuffer output, double value) {
        record(Op.CONST, output);
        delegate.fill(live(output), value);
    }

    @Override
    public void iota(DeviceBuffer output) {
        record(Op.IOTA, output);
        delegate.iota(live(output));
    }

    @Override
    public void random(DeviceBuffer output, long seed) {
        record(Op.RAND, output);
        delegate.random(live(output), seed);
    }
}
