package dev.ein4j.runtime;

import dev.ein4j.backend.Backend;
import dev.ein4j.backend.DeviceBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The buffers each backend holds for the runtime's storages, with the shape of the tensor that
 * first used each, so that a failed allocation can say what fills the memory.
 */
final class LiveMemory {

    private static final Map<Backend, Ledger> LEDGERS = java.util.Collections.synchronizedMap(new IdentityHashMap<>());

    private LiveMemory() {
    }

    /** One backend's live buffers. */
    private static final class Ledger {
        final Map<DeviceBuffer, int[]> shapes = new ConcurrentHashMap<>();
        final AtomicLong bytes = new AtomicLong();
    }

    private static Ledger ledger(Backend backend) {
        return LEDGERS.computeIfAbsent(backend, key -> new Ledger());
    }

    static void added(Backend backend, DeviceBuffer buffer) {
        Ledger ledger = ledger(backend);
        ledger.shapes.put(buffer, new int[] {(int) Math.min(Integer.MAX_VALUE, buffer.size())});
        ledger.bytes.addAndGet(bytes(buffer));
    }

    static void removed(Backend backend, DeviceBuffer buffer) {
        Ledger ledger = ledger(backend);
        if (ledger.shapes.remove(buffer) != null) {
            ledger.bytes.addAndGet(-bytes(buffer));
        }
    }

    /** Records the shape of the tensor a buffer holds (the first one bound to it), for messages. */
    static void describe(Backend backend, DeviceBuffer buffer, int[] shape) {
        ledger(backend).shapes.computeIfPresent(buffer, (key, old) -> shape.clone());
    }

    /**
     * @param backend a backend
     * @return the bytes of the runtime's live storages on it
     */
    static long liveBytes(Backend backend) {
        return ledger(backend).bytes.get();
    }

    /**
     * @param backend a backend
     * @return the number of the runtime's live storages on it
     */
    static int liveCount(Backend backend) {
        return ledger(backend).shapes.size();
    }

    /**
     * @param backend a backend
     * @param count how many
     * @return the largest live buffers, as "float32[4096, 4096] (64.0 MiB)", largest first
     */
    static List<String> largest(Backend backend, int count) {
        List<Map.Entry<DeviceBuffer, int[]>> entries = new ArrayList<>(ledger(backend).shapes.entrySet());
        entries.sort(Comparator.comparingLong((Map.Entry<DeviceBuffer, int[]> entry) -> bytes(entry.getKey())).reversed());
        List<String> described = new ArrayList<>();
        for (Map.Entry<DeviceBuffer, int[]> entry : entries.subList(0, Math.min(count, entries.size()))) {
            described.add(entry.getKey().dtype().numpyName() + Arrays.toString(entry.getValue()) + " ("
                    + Schedule.formatBytes(bytes(entry.getKey())) + ")");
        }
        return described;
    }

    static long bytes(DeviceBuffer buffer) {
        return buffer.size() * buffer.dtype().bytes();
    }
}
