package dev.ein4j.cpu;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;
import org.junit.jupiter.api.Test;

class WorkerPoolTest {

    @Test
    void everyTaskRunsExactlyOnceAndItsWritesAreSeenByTheCaller() {
        WorkerPool pool = new WorkerPool(3, 20_000);
        for (int round = 0; round < 2_000; round++) {
            int count = 1 + round % 37;
            int[] written = new int[count]; // plain writes: visible through the pool's hand-over alone
            AtomicIntegerArray runs = new AtomicIntegerArray(count);
            int value = round;
            pool.parallelFor(count, task -> {
                runs.incrementAndGet(task);
                written[task] = value + task;
            });
            for (int task = 0; task < count; task++) {
                assertThat(runs.get(task)).as("round %d task %d", round, task).isEqualTo(1);
                assertThat(written[task]).isEqualTo(round + task);
            }
        }
    }

    @Test
    void theCallerAndTheWorkersShareTheTasks() {
        WorkerPool pool = new WorkerPool(2, 1_000_000);
        assertThat(twoTasksAtOnce(pool)).hasSize(2).contains(Thread.currentThread());
    }

    @Test
    void aFailingTaskIsRethrownUnchangedAndTheRestAreSkipped() {
        WorkerPool pool = new WorkerPool(2, 0);
        AtomicInteger ran = new AtomicInteger();
        IllegalArgumentException failure = new IllegalArgumentException("task 0");
        assertThatThrownBy(() -> pool.parallelFor(1_000, task -> {
            ran.incrementAndGet();
            if (task == 0) {
                throw failure;
            }
            sleep(1);
        })).isSameAs(failure);
        assertThat(ran.get()).isLessThan(1_000);
        // and the pool still works
        AtomicInteger after = new AtomicInteger();
        pool.parallelFor(10, task -> after.incrementAndGet());
        assertThat(after.get()).isEqualTo(10);
    }

    @Test
    void aLoopInsideATaskRunsInlineOnItsThread() {
        WorkerPool pool = new WorkerPool(2, 0);
        List<String> mismatches = new ArrayList<>();
        pool.parallelFor(4, task -> {
            Thread outer = Thread.currentThread();
            assertThat(pool.isWorker()).isTrue();
            pool.parallelFor(8, inner -> {
                if (Thread.currentThread() != outer) {
                    synchronized (mismatches) {
                        mismatches.add(task + "/" + inner);
                    }
                }
            });
        });
        assertThat(mismatches).isEmpty();
        assertThat(pool.isWorker()).isFalse();
    }

    @Test
    void loopsFromSeveralThreadsNeverRunMoreTasksAtOnceThanThePoolHasThreads() throws Exception {
        WorkerPool pool = new WorkerPool(3, 10_000);
        AtomicInteger running = new AtomicInteger();
        AtomicInteger most = new AtomicInteger();
        AtomicInteger total = new AtomicInteger();
        ExecutorService callers = Executors.newFixedThreadPool(4);
        List<Future<?>> futures = new ArrayList<>();
        for (int c = 0; c < 4; c++) {
            futures.add(callers.submit(() -> {
                for (int round = 0; round < 200; round++) {
                    pool.parallelFor(6, task -> {
                        most.accumulateAndGet(running.incrementAndGet(), Math::max);
                        busy(20_000);
                        running.decrementAndGet();
                        total.incrementAndGet();
                    });
                }
            }));
        }
        for (Future<?> future : futures) {
            future.get(60, TimeUnit.SECONDS);
        }
        callers.shutdown();
        assertThat(total.get()).isEqualTo(4 * 200 * 6);
        assertThat(most.get()).isLessThanOrEqualTo(3);
    }

    @Test
    void idleWorkersParkAfterTheirSpin() throws Exception {
        WorkerPool pool = new WorkerPool(2, 100_000);
        Set<Thread> threads = twoTasksAtOnce(pool);
        threads.remove(Thread.currentThread());
        Thread worker = threads.iterator().next();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (worker.getState() != Thread.State.WAITING && System.nanoTime() < deadline) {
            Thread.sleep(1);
        }
        assertThat(worker.getState()).isEqualTo(Thread.State.WAITING);
        assertThat(worker.isDaemon()).isTrue();
        assertThat(twoTasksAtOnce(pool)).as("a parked worker wakes for the next loop").contains(worker);
    }

    @Test
    void oneThreadRunsEverythingOnTheCaller() {
        WorkerPool pool = new WorkerPool(1, 0);
        Set<Thread> threads = ConcurrentHashMap.newKeySet();
        pool.parallelFor(16, task -> threads.add(Thread.currentThread()));
        assertThat(threads).containsExactly(Thread.currentThread());
        assertThat(pool.parallelism()).isEqualTo(1);
    }

    /** Runs two tasks that each wait for the other to start, so on two threads at once; returns them. */
    private static Set<Thread> twoTasksAtOnce(WorkerPool pool) {
        Set<Thread> threads = ConcurrentHashMap.newKeySet();
        CountDownLatch bothStarted = new CountDownLatch(2);
        pool.parallelFor(2, task -> {
            threads.add(Thread.currentThread());
            bothStarted.countDown();
            await(bothStarted);
        });
        return threads;
    }

    private static void busy(long nanos) {
        long end = System.nanoTime() + nanos;
        while (System.nanoTime() < end) {
            Thread.onSpinWait();
        }
    }

    private static void await(CountDownLatch latch) {
        try {
            assertThat(latch.await(10, TimeUnit.SECONDS)).as("the other task started").isTrue();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
