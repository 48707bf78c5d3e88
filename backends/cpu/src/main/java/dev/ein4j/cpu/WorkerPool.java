package dev.ein4j.cpu;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.IntConsumer;

/**
 * The CPU backend's one pool of compute threads, sized to the machine: the system property
 * {@value #THREADS_PROPERTY} (or the environment variable {@code EIN4J_CPU_THREADS}) sets the count,
 * else the number of processors. A loop runs on the calling thread and {@code count − 1} workers,
 * which claim its tasks one at a time from a shared counter. Loops from several calling threads take
 * turns, so ein4j never runs more compute threads than the count; a loop started inside a task runs
 * on the thread that started it (no nested fan-out).
 *
 * <p>Why not a {@code ForkJoinPool}: its joins made spare threads (four compute threads on a
 * 2-core machine, so a split GEMM ran slower than a serial one), an external caller waited instead of
 * working, and a dispatch cost about 16 µs. Here a worker that finds no loop spins for
 * {@value #SPIN_PROPERTY} microseconds (default {@value #DEFAULT_SPIN_MICROS}, longer than the gaps
 * between the kernels of one training step, in which the caller schedules the next one; a woken
 * worker joins tens of microseconds late on a VM, and spinning 200 µs rather than 50 gave mlp-step
 * medians of 0.76–1.17 ms against 0.92–1.32 in four long runs) before it parks, so the kernels of a
 * step reach awake workers; an idle pool holds no core.
 */
public final class WorkerPool {

    /** The system property that sets the number of threads. */
    public static final String THREADS_PROPERTY = "ein4j.cpu.threads";
    /** The system property that sets how long an idle worker spins before it parks, in microseconds. */
    public static final String SPIN_PROPERTY = "ein4j.cpu.spinMicros";
    static final int DEFAULT_SPIN_MICROS = 200;

    private static final WorkerPool SHARED = new WorkerPool(configuredThreads(),
            nonNegative(System.getProperty(SPIN_PROPERTY), DEFAULT_SPIN_MICROS) * 1000L);

    private final int parallelism;
    private final long spinNanos;
    private final Worker[] workers;
    private final ReentrantLock turns = new ReentrantLock();
    /** The loop the workers are to join; replaced (never cleared) by the next one. */
    private volatile Loop current;
    /** The thread running a loop's tasks besides the workers, while it does. */
    private volatile Thread caller;

    /**
     * @param parallelism the number of compute threads (the caller and its workers), at least 1
     * @param spinNanos how long an idle worker spins before it parks
     */
    WorkerPool(int parallelism, long spinNanos) {
        this.parallelism = Math.max(1, parallelism);
        this.spinNanos = Math.max(0, spinNanos);
        this.workers = new Worker[this.parallelism - 1];
        for (int i = 0; i < workers.length; i++) {
            workers[i] = new Worker(this, i + 1);
            workers[i].start();
        }
    }

    private static int configuredThreads() {
        String value = System.getProperty(THREADS_PROPERTY);
        if (value == null || value.isBlank()) {
            value = System.getenv("EIN4J_CPU_THREADS");
        }
        int configured = nonNegative(value, 0);
        return configured > 0 ? configured : Runtime.getRuntime().availableProcessors();
    }

    private static int nonNegative(String value, int otherwise) {
        if (value != null && !value.isBlank()) {
            try {
                return Math.max(0, Integer.parseInt(value.trim()));
            } catch (NumberFormatException ignored) {
                // fall through to the default
            }
        }
        return otherwise;
    }

    /** @return the pool every CPU backend instance shares */
    public static WorkerPool shared() {
        return SHARED;
    }

    /** @return the number of threads that run tasks at once */
    public int parallelism() {
        return parallelism;
    }

    /**
     * @return whether the calling thread is running one of this pool's tasks (a worker, or a caller
     *     inside its loop), where {@link #parallelFor} runs inline
     */
    public boolean isWorker() {
        Thread thread = Thread.currentThread();
        return thread == caller || thread instanceof Worker worker && worker.pool == this;
    }

    /**
     * Runs {@code body(0) … body(count − 1)}, spread over the calling thread and the workers, and
     * returns when all are done. Tasks must be independent; each should be worth at least some
     * microseconds. If a task throws, the tasks not yet started are skipped and the first failure is
     * rethrown here, unchanged.
     *
     * @param count the number of tasks
     * @param body the task, given its index
     */
    public void parallelFor(int count, IntConsumer body) {
        if (count <= 0) {
            return;
        }
        if (count == 1 || workers.length == 0 || isWorker()) {
            for (int i = 0; i < count; i++) {
                body.accept(i);
            }
            return;
        }
        Loop loop = new Loop(body, count, Thread.currentThread());
        turns.lock();
        try {
            caller = loop.caller;
            current = loop;
            for (Worker worker : workers) {
                if (worker.parked) { // read after publishing: a worker that parks later sees the loop first
                    LockSupport.unpark(worker);
                }
            }
            loop.work();
            loop.awaitDone(spinNanos);
        } finally {
            caller = null;
            turns.unlock();
        }
        loop.rethrow();
    }

    /** One call's tasks, claimed by index. */
    private static final class Loop {
        private final IntConsumer body;
        private final int count;
        private final Thread caller;
        private final AtomicInteger next = new AtomicInteger();
        private final AtomicInteger remaining;
        private volatile boolean callerParked;
        private volatile Throwable failure;

        Loop(IntConsumer body, int count, Thread caller) {
            this.body = body;
            this.count = count;
            this.caller = caller;
            this.remaining = new AtomicInteger(count);
        }

        /** Claims and runs tasks until none is left; the thread finishing the last one wakes the caller. */
        void work() {
            for (int task = next.getAndIncrement(); task < count; task = next.getAndIncrement()) {
                try {
                    if (failure == null) {
                        body.accept(task);
                    }
                } catch (Throwable thrown) {
                    fail(thrown);
                } finally {
                    if (remaining.decrementAndGet() == 0 && callerParked) {
                        LockSupport.unpark(caller);
                    }
                }
            }
        }

        private synchronized void fail(Throwable thrown) {
            if (failure == null) {
                failure = thrown;
            }
        }

        /** Waits, spinning a while and then parked, until every task has run (their writes then visible). */
        void awaitDone(long spinNanos) {
            long spinEnd = System.nanoTime() + spinNanos;
            while (remaining.get() > 0 && System.nanoTime() < spinEnd) {
                Thread.onSpinWait();
            }
            while (remaining.get() > 0) {
                callerParked = true;
                if (remaining.get() > 0) {
                    LockSupport.park(this);
                }
                callerParked = false;
            }
        }

        void rethrow() {
            Throwable thrown = failure;
            if (thrown instanceof RuntimeException runtime) {
                throw runtime;
            }
            if (thrown instanceof Error error) {
                throw error;
            }
            if (thrown != null) {
                throw new IllegalStateException(thrown); // a sneaky checked exception from a task
            }
        }
    }

    /** A daemon thread that joins each loop, spins a while when there is none, then parks. */
    private static final class Worker extends Thread {
        private final WorkerPool pool;
        private volatile boolean parked;

        Worker(WorkerPool pool, int index) {
            super("ein4j-cpu-" + index);
            this.pool = pool;
            setDaemon(true);
        }

        @Override
        public void run() {
            Loop seen = null;
            while (true) {
                Loop loop = pool.current;
                if (loop != seen) {
                    seen = loop;
                    loop.work();
                    continue;
                }
                long spinEnd = System.nanoTime() + pool.spinNanos;
                while (pool.current == seen && System.nanoTime() < spinEnd) {
                    Thread.onSpinWait();
                }
                if (pool.current != seen) {
                    continue;
                }
                parked = true; // then re-read: a loop published before this write is seen here
                if (pool.current == seen) {
                    LockSupport.park(this);
                }
                parked = false;
            }
        }
    }
}
