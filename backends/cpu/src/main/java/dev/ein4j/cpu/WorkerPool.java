package dev.ein4j.cpu;

import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.ForkJoinTask;
import java.util.concurrent.ForkJoinWorkerThread;
import java.util.concurrent.RecursiveAction;
import java.util.function.IntConsumer;

/**
 * The CPU backend's one pool of worker threads, sized to the machine: the system property
 * {@value #THREADS_PROPERTY} (or the environment variable {@code EIN4J_CPU_THREADS}) sets the count,
 * else the number of processors. Work from any number of calling threads shares these workers, so
 * several threads using ein4j at once never run more compute threads than the pool has; a loop
 * started from inside a worker runs on that worker (no nested fan-out).
 */
public final class WorkerPool {

    /** The system property that sets the number of threads. */
    public static final String THREADS_PROPERTY = "ein4j.cpu.threads";

    private static final WorkerPool SHARED = new WorkerPool(configuredThreads());

    private final int parallelism;
    private final ForkJoinPool pool;

    /** @param parallelism the number of worker threads, at least 1 */
    WorkerPool(int parallelism) {
        this.parallelism = Math.max(1, parallelism);
        this.pool = this.parallelism == 1 ? null : new ForkJoinPool(this.parallelism, WorkerPool::daemon, null, false);
    }

    private static ForkJoinWorkerThread daemon(ForkJoinPool owner) {
        ForkJoinWorkerThread thread = ForkJoinPool.defaultForkJoinWorkerThreadFactory.newThread(owner);
        thread.setDaemon(true);
        thread.setName("ein4j-cpu-" + thread.getPoolIndex());
        return thread;
    }

    private static int configuredThreads() {
        String value = System.getProperty(THREADS_PROPERTY);
        if (value == null || value.isBlank()) {
            value = System.getenv("EIN4J_CPU_THREADS");
        }
        if (value != null && !value.isBlank()) {
            try {
                return Math.max(1, Integer.parseInt(value.trim()));
            } catch (NumberFormatException ignored) {
                // fall through to the machine's size
            }
        }
        return Runtime.getRuntime().availableProcessors();
    }

    /** @return the pool every CPU backend instance shares */
    public static WorkerPool shared() {
        return SHARED;
    }

    /** @return the number of threads that run tasks at once */
    public int parallelism() {
        return parallelism;
    }

    /** @return whether the calling thread is one of this pool's workers, where {@link #parallelFor} runs inline */
    public boolean isWorker() {
        return pool != null && ForkJoinTask.inForkJoinPool() && ForkJoinTask.getPool() == pool;
    }

    /**
     * Runs {@code body(0) … body(count − 1)}, spread over the workers, and returns when all are done.
     * Tasks must be independent; each should be worth at least some tens of microseconds.
     *
     * @param count the number of tasks
     * @param body the task, given its index
     */
    public void parallelFor(int count, IntConsumer body) {
        if (count <= 0) {
            return;
        }
        if (count == 1 || pool == null || isWorker()) {
            for (int i = 0; i < count; i++) {
                body.accept(i);
            }
            return;
        }
        pool.invoke(new Range(0, count, body));
    }

    /** A range of task indices, split in halves until one is left. */
    private static final class Range extends RecursiveAction {
        private final int from;
        private final int to;
        private final transient IntConsumer body;

        Range(int from, int to, IntConsumer body) {
            this.from = from;
            this.to = to;
            this.body = body;
        }

        @Override
        protected void compute() {
            if (to - from == 1) {
                body.accept(from);
                return;
            }
            int middle = (from + to) >>> 1;
            invokeAll(new Range(from, middle, body), new Range(middle, to, body));
        }
    }
}
