package dev.ein4j.opencl;

import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Compiled programs by source text, least recently used evicted beyond a capacity. Kernels of the
 * same structure generate the same parameterised source, so they share one program here. Not
 * thread-safe by itself: every call happens under the queue's lock, which also guarantees that an
 * evicted program is not in the middle of a launch (arguments set, not yet enqueued) when it is
 * released.
 */
final class ProgramCache implements AutoCloseable {

    private final int capacity;
    private final LinkedHashMap<String, ProgramBuilder.Built> programs = new LinkedHashMap<>(64, 0.75f, true);

    /** @param capacity the most programs kept */
    ProgramCache(int capacity) {
        this.capacity = capacity;
    }

    /**
     * @param source a program's source
     * @return its compiled form, or null
     */
    ProgramBuilder.Built get(String source) {
        return programs.get(source);
    }

    /**
     * @param source a program's source
     * @return whether it is compiled
     */
    boolean contains(String source) {
        return programs.containsKey(source);
    }

    /**
     * Adds a compiled program, unless one is there already (compiled meanwhile by another thread,
     * then this one is closed).
     *
     * @param source its source
     * @param built the compiled program, owned by the cache from now on
     */
    void put(String source, ProgramBuilder.Built built) {
        if (programs.containsKey(source)) {
            built.close();
            return;
        }
        programs.put(source, built);
        Iterator<Map.Entry<String, ProgramBuilder.Built>> eldest = programs.entrySet().iterator();
        while (programs.size() > capacity) {
            ProgramBuilder.Built evicted = eldest.next().getValue();
            eldest.remove();
            evicted.close();
        }
    }

    /** @return the number of programs held */
    int size() {
        return programs.size();
    }

    /** Releases every program. */
    @Override
    public void close() {
        programs.values().forEach(ProgramBuilder.Built::close);
        programs.clear();
    }
}
