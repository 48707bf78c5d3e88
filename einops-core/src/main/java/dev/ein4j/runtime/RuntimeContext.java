package dev.ein4j.runtime;

import dev.ein4j.backend.Backend;
import java.util.IdentityHashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The runtime's process-wide state in one place: whether kernels fuse, the schedule caches (one
 * per backend), and counters of what realizations did, which tests and benchmarks read.
 */
public final class RuntimeContext {

    private static final RuntimeContext GLOBAL = new RuntimeContext();

    private volatile boolean fusion = !"false".equals(System.getProperty("ein4j.fusion"));
    private volatile boolean caching = !"false".equals(System.getProperty("ein4j.scheduleCache"));
    private final Map<Backend, ScheduleCache> caches = new IdentityHashMap<>();
    private final AtomicLong schedulesBuilt = new AtomicLong();
    private final AtomicLong scheduleHits = new AtomicLong();
    private final AtomicLong launches = new AtomicLong();
    private final AtomicLong realizations = new AtomicLong();

    private RuntimeContext() {
    }

    /** @return the runtime's state */
    public static RuntimeContext global() {
        return GLOBAL;
    }

    /** @return whether nodes fuse into kernels (the default; {@code -Dein4j.fusion=false} turns it off) */
    public boolean fusion() {
        return fusion;
    }

    /**
     * Turns fusion off (every primitive its own kernel) or on; for tests that compare the two.
     *
     * @param enabled whether to fuse
     */
    public void setFusion(boolean enabled) {
        fusion = enabled;
    }

    /** @return whether schedules are cached and replayed (the default; {@code -Dein4j.scheduleCache=false} turns it off) */
    public boolean caching() {
        return caching;
    }

    /** @param enabled whether to cache and replay schedules */
    public void setCaching(boolean enabled) {
        caching = enabled;
    }

    ScheduleCache cache(Backend backend) {
        synchronized (caches) {
            return caches.computeIfAbsent(backend, key -> new ScheduleCache(ScheduleCache.CAPACITY));
        }
    }

    /** Forgets every cached schedule. */
    public void clearSchedules() {
        synchronized (caches) {
            caches.values().forEach(ScheduleCache::clear);
        }
    }

    void countBuilt() {
        schedulesBuilt.incrementAndGet();
    }

    void countHit() {
        scheduleHits.incrementAndGet();
    }

    void countLaunches(int count) {
        launches.addAndGet(count);
        realizations.incrementAndGet();
    }

    /** @return a snapshot of the counters */
    public Statistics statistics() {
        return new Statistics(schedulesBuilt.get(), scheduleHits.get(), launches.get(), realizations.get());
    }

    /**
     * What realizations have done since the process started.
     *
     * @param schedulesBuilt schedules made from scratch (cache misses)
     * @param scheduleHits realizations that replayed a cached schedule
     * @param launches kernels submitted
     * @param realizations realizations run
     */
    public record Statistics(long schedulesBuilt, long scheduleHits, long launches, long realizations) {

        /**
         * @param earlier an earlier snapshot
         * @return the counts since then
         */
        public Statistics since(Statistics earlier) {
            return new Statistics(schedulesBuilt - earlier.schedulesBuilt, scheduleHits - earlier.scheduleHits,
                    launches - earlier.launches, realizations - earlier.realizations);
        }
    }
}
