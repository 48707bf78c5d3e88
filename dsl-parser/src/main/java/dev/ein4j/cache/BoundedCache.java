package dev.ein4j.cache;

import java.util.Iterator;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

/**
 * A thread-safe map of bounded size for memoising pure functions (parsed patterns, lowering recipes
 * and plans).
 *
 * <p>Lookups are a single {@link ConcurrentHashMap#get} so that a hit costs tens of nanoseconds.
 * Insertions take a lock; when one would take the size past the capacity, a quarter of the
 * entries are dropped first, in iteration order. This is not LRU: it is cheap, lock-free for
 * readers, and good enough for caches whose working set is a few hundred patterns.
 *
 * @param <K> key type, with value-based equals and hashCode
 * @param <V> value type, immutable
 */
public final class BoundedCache<K, V> {

    private final ConcurrentHashMap<K, V> entries = new ConcurrentHashMap<>();
    private final int capacity;

    /** @param capacity the most entries kept, at least 1 */
    public BoundedCache(int capacity) {
        if (capacity < 1) {
            throw new IllegalArgumentException("capacity must be at least 1, got " + capacity);
        }
        this.capacity = capacity;
    }

    /**
     * The cached value for the key, computing and storing it on a miss. Two threads that miss at
     * the same time may both compute (the function must be pure); both get the value stored first.
     *
     * @param key the key
     * @param compute computes the value on a miss; exceptions propagate and nothing is cached
     * @return the value
     */
    public V get(K key, Function<? super K, ? extends V> compute) {
        V value = entries.get(key);
        if (value != null) {
            return value;
        }
        value = compute.apply(key);
        // Misses are rare and already cost a computation: inserting under a lock keeps the size
        // within the capacity exactly, while hits stay lock-free.
        synchronized (entries) {
            V winner = entries.get(key);
            if (winner != null) {
                return winner;
            }
            if (entries.size() >= capacity) {
                evict();
            }
            entries.put(key, value);
            return value;
        }
    }

    /** @return the number of entries now held */
    public int size() {
        return entries.size();
    }

    /** Drops every entry. */
    public void clear() {
        entries.clear();
    }

    /** Drops entries in iteration order until a quarter of the capacity is free; called under the lock. */
    private void evict() {
        int target = capacity - Math.max(1, capacity / 4);
        Iterator<K> keys = entries.keySet().iterator();
        while (entries.size() > target && keys.hasNext()) {
            keys.next();
            keys.remove();
        }
    }
}
