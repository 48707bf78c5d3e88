package dev.ein4j.runtime;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Schedules by {@link GraphWalk.Signature}, least recently used first out: a training step, a
 * decode step or an evaluation batch finds the schedule its first run made and does no scheduling
 * work. Thread-safe; schedules are immutable once built.
 */
final class ScheduleCache {

    /** Schedules kept per backend. */
    static final int CAPACITY = 2048;

    private final Map<GraphWalk.Signature, Schedule> entries;

    ScheduleCache(int capacity) {
        this.entries = new LinkedHashMap<>(64, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<GraphWalk.Signature, Schedule> eldest) {
                return size() > capacity;
            }
        };
    }

    synchronized Schedule get(GraphWalk.Signature signature) {
        return entries.get(signature);
    }

    synchronized void put(GraphWalk.Signature signature, Schedule schedule) {
        entries.put(signature, schedule);
    }

    synchronized int size() {
        return entries.size();
    }

    synchronized void clear() {
        entries.clear();
    }
}
