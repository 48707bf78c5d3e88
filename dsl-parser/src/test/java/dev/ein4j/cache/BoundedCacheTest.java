package dev.ein4j.cache;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ein4j.pattern.Operation;
import dev.ein4j.pattern.ParsedPattern;
import dev.ein4j.pattern.PatternParser;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class BoundedCacheTest {

    @ParameterizedTest
    @ValueSource(ints = {0, -1, Integer.MIN_VALUE})
    void rejectsACapacityBelowOne(int capacity) {
        assertThatThrownBy(() -> new BoundedCache<String, String>(capacity))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(String.valueOf(capacity));
    }

    @Test
    void aMissComputesOnceAndAHitReturnsTheSameInstance() {
        BoundedCache<String, Object> cache = new BoundedCache<>(8);
        AtomicInteger calls = new AtomicInteger();
        Function<String, Object> compute = key -> {
            calls.incrementAndGet();
            return new Object();
        };
        Object first = cache.get("a", compute);
        Object second = cache.get("a", compute);
        Object third = cache.get(new String("a"), compute);
        assertThat(second).isSameAs(first);
        assertThat(third).isSameAs(first);
        assertThat(calls).hasValue(1);
        assertThat(cache.size()).isEqualTo(1);
        assertThat(cache.get("b", compute)).isNotSameAs(first);
        assertThat(calls).hasValue(2);
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3, 4, 5, 7, 16, 100, 4096})
    void sizeNeverExceedsTheCapacity(int capacity) {
        BoundedCache<Integer, String> cache = new BoundedCache<>(capacity);
        int maxSeen = 0;
        for (int key = 0; key < capacity * 10 + 3; key++) {
            String value = cache.get(key, k -> "v" + k);
            assertThat(value).isEqualTo("v" + key);
            maxSeen = Math.max(maxSeen, cache.size());
            assertThat(cache.size()).as("size after inserting key %d", key).isBetween(1, capacity);
            // The entry just inserted survives its own insertion.
            int current = key;
            assertThat(cache.get(key, k -> "recomputed " + current)).isEqualTo("v" + key);
        }
        assertThat(maxSeen).isEqualTo(capacity);
    }

    @Test
    void evictionDropsSomeEntriesNotAll() {
        int capacity = 100;
        BoundedCache<Integer, Integer> cache = new BoundedCache<>(capacity);
        for (int key = 0; key < capacity; key++) {
            cache.get(key, k -> k);
        }
        assertThat(cache.size()).isEqualTo(capacity);
        cache.get(capacity, k -> k);
        // About a quarter goes; the cache is not flushed.
        assertThat(cache.size()).isBetween(capacity / 2, capacity);
    }

    @Test
    void exceptionsPropagateAndNothingIsCached() {
        BoundedCache<String, String> cache = new BoundedCache<>(4);
        assertThatThrownBy(() -> cache.get("k", k -> {
            throw new IllegalStateException("boom");
        })).isInstanceOf(IllegalStateException.class).hasMessage("boom");
        assertThat(cache.size()).isZero();
        assertThat(cache.get("k", k -> "ok")).isEqualTo("ok");
        assertThat(cache.size()).isEqualTo(1);
    }

    @Test
    void clearDropsEverything() {
        BoundedCache<Integer, Object> cache = new BoundedCache<>(16);
        for (int key = 0; key < 10; key++) {
            cache.get(key, k -> new Object());
        }
        Object before = cache.get(3, k -> new Object());
        cache.clear();
        assertThat(cache.size()).isZero();
        assertThat(cache.get(3, k -> new Object())).isNotSameAs(before);
    }

    @Test
    @Timeout(60)
    void concurrentUseIsSafeAndStaysBounded() throws Exception {
        int capacity = 64;
        int threads = 8;
        int operationsPerThread = 50_000;
        int keySpace = 1_000;
        BoundedCache<Integer, String> cache = new BoundedCache<>(capacity);
        ConcurrentLinkedQueue<String> problems = new ConcurrentLinkedQueue<>();
        AtomicInteger maxSize = new AtomicInteger();
        AtomicBoolean running = new AtomicBoolean(true);
        CountDownLatch start = new CountDownLatch(1);

        ExecutorService pool = Executors.newFixedThreadPool(threads + 1);
        try {
            Future<?> monitor = pool.submit(() -> {
                while (running.get()) {
                    maxSize.accumulateAndGet(cache.size(), Math::max);
                    Thread.onSpinWait();
                }
            });
            List<Future<?>> workers = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                long seed = 31L * t + 7;
                workers.add(pool.submit((Callable<Void>) () -> {
                    java.util.SplittableRandom random = new java.util.SplittableRandom(seed);
                    start.await();
                    for (int i = 0; i < operationsPerThread; i++) {
                        int key = random.nextInt(keySpace);
                        String value = cache.get(key, k -> "v" + k);
                        if (!("v" + key).equals(value)) {
                            problems.add("key " + key + " returned " + value);
                        }
                        if (i % 64 == 0) {
                            cache.get(key, k -> "v" + k);
                            maxSize.accumulateAndGet(cache.size(), Math::max);
                        }
                    }
                    return null;
                }));
            }
            start.countDown();
            for (Future<?> worker : workers) {
                worker.get(50, TimeUnit.SECONDS);  // rethrows any exception of the worker
            }
            running.set(false);
            monitor.get(5, TimeUnit.SECONDS);
        } finally {
            running.set(false);
            pool.shutdownNow();
            assertThat(pool.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
        }

        assertThat(problems).isEmpty();
        // Insertions (and evictions) happen under one lock, so the capacity holds exactly.
        assertThat(maxSize.get()).isLessThanOrEqualTo(capacity);
        assertThat(cache.size()).isLessThanOrEqualTo(capacity).isPositive();
    }

    @Test
    @Timeout(60)
    void parserCacheReturnsSharedInstancesUnderConcurrentUse() throws Exception {
        List<String> patterns = List.of("b c h w -> b h w c", "b (h 2) (w 2) c -> b h w c", "b h w -> b (h w)",
                "... c -> c ...", "h w c -> w h c", "b t (h d) -> b h t d");
        int threads = 6;
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            CountDownLatch start = new CountDownLatch(1);
            List<Future<List<ParsedPattern>>> results = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                results.add(pool.submit(() -> {
                    start.await();
                    List<ParsedPattern> seen = new ArrayList<>();
                    for (int round = 0; round < 2_000; round++) {
                        for (String pattern : patterns) {
                            ParsedPattern parsed = PatternParser.parse(Operation.REDUCE, pattern);
                            if (round == 1_999) {
                                seen.add(parsed);
                            }
                        }
                    }
                    return seen;
                }));
            }
            start.countDown();
            for (Future<List<ParsedPattern>> result : results) {
                List<ParsedPattern> seen = result.get(50, TimeUnit.SECONDS);
                for (int i = 0; i < patterns.size(); i++) {
                    assertThat(seen.get(i)).isEqualTo(PatternParser.parseUncached(Operation.REDUCE, patterns.get(i)));
                    // Once the race to fill the cache is over, every thread gets the cached instance.
                    assertThat(seen.get(i)).isSameAs(PatternParser.parse(Operation.REDUCE, patterns.get(i)));
                }
            }
        } finally {
            pool.shutdownNow();
            assertThat(pool.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
        }
    }
}
