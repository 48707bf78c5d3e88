package dev.ein4j.cpu.gemm;

import dev.ein4j.cpu.WorkerPool;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.locks.LockSupport;

/**
 * Spreads a thin product over the shared workers: C is cut into units of a batch entry × a range of
 * columns (each reads its own columns of B once; no two write the same element of C), as many as the
 * work pays for. Nothing here is a constant for one machine: the cost of handing tasks to the workers
 * is measured once (the median of a few empty {@link WorkerPool#parallelFor} calls on parked workers),
 * the time per byte of B is the least seen on a task large enough to time, per size class of call (a
 * power of two of the bytes of B it reads: a small B may sit in cache where a large one streams from
 * memory at a fraction of the speed; a class not yet timed borrows a smaller one's figure), and a call
 * is cut into about {@code work / (2 · dispatch)} tasks, at most two per thread (system property
 * {@code ein4j.cpu.gemm.tasksPerThread}), so that every extra task saves at least twice what it costs.
 */
final class ThinSplit {

    private static final int TASKS_PER_THREAD = Math.max(1, Integer.getInteger("ein4j.cpu.gemm.tasksPerThread", 2));
    /** Column ranges start on multiples of this, so that two tasks share no 64-byte line of a row of C. */
    private static final int COLUMN_STEP = 16;
    /** Tasks that read fewer bytes of B are not timed: the clock's resolution would dominate. */
    private static final long TIMED_BYTES = 64 * 1024;
    /** Empty dispatches timed to estimate the cost of one. */
    private static final int DISPATCH_TRIALS = 7;

    /** Per size class (⌊log₂ bytes of B⌋ of a call), the least nanoseconds per byte seen, as bits; 0: none. */
    private static final AtomicLongArray NANOS_PER_BYTE = new AtomicLongArray(Long.SIZE);

    private ThinSplit() {
    }

    /** The cost of one dispatch to parked workers, measured on first use. */
    private static final class Dispatch {
        static final double NANOS = measureDispatch();
    }

    /**
     * @return the median time of a few empty dispatches; here and not in {@link Dispatch}, whose
     *     initialization the workers would wait for to run a lambda defined in it
     */
    private static double measureDispatch() {
        WorkerPool pool = WorkerPool.shared();
        long[] nanos = new long[DISPATCH_TRIALS];
        for (int trial = 0; trial < nanos.length; trial++) {
            // long enough for the workers to park, as they have between the calls of a model
            LockSupport.parkNanos(1_000_000);
            long start = System.nanoTime();
            pool.parallelFor(pool.parallelism(), task -> { });
            nanos[trial] = System.nanoTime() - start;
        }
        Arrays.sort(nanos);
        return nanos[nanos.length / 2];
    }

    /**
     * Runs {@code job} over all of C[batches, rows, n], in parallel when that pays.
     *
     * @param job the product
     * @param batches the batch entries
     * @param n the columns of C
     * @param k the rows of B each column reads
     */
    static void run(ThinJob job, int batches, int n, int k) {
        long bytes = (long) k * job.elementBytes() * n * batches;
        run(job, batches, n, k, tasks(bytes, sizeClass(bytes)));
    }

    /**
     * Runs {@code job} over all of C[batches, rows, n] as about {@code tasks} tasks.
     *
     * @param job the product
     * @param batches the batch entries
     * @param n the columns of C
     * @param k the rows of B each column reads
     * @param tasks how many tasks to deal the units out as; 1 runs on the calling thread
     */
    static void run(ThinJob job, int batches, int n, int k, int tasks) {
        long columnBytes = (long) k * job.elementBytes();
        long bytes = columnBytes * n * batches;
        int sizeClass = sizeClass(bytes);
        if (tasks == 1) {
            long start = System.nanoTime();
            for (int b = 0; b < batches; b++) {
                job.run(b, 0, n);
            }
            record(bytes, System.nanoTime() - start, sizeClass);
            return;
        }
        int steps = (n + COLUMN_STEP - 1) / COLUMN_STEP;
        int columnParts = (int) Math.min(steps, Math.max(1, (tasks + batches - 1) / batches));
        long units = (long) batches * columnParts;
        int taskCount = (int) Math.min(units, tasks);
        WorkerPool.shared().parallelFor(taskCount, t -> {
            long start = System.nanoTime();
            long columns = 0;
            for (long unit = units * t / taskCount, end = units * (t + 1) / taskCount; unit < end; unit++) {
                int part = (int) (unit % columnParts);
                int from = start(part, columnParts, steps, n);
                int to = start(part + 1, columnParts, steps, n);
                job.run((int) (unit / columnParts), from, to);
                columns += to - from;
            }
            record(columns * columnBytes, System.nanoTime() - start, sizeClass);
        });
    }

    private static int sizeClass(long bytes) {
        return Long.SIZE - 1 - Long.numberOfLeadingZeros(Math.max(1, bytes));
    }

    /** @return how many tasks the call pays for: 1 on one thread, inside a worker, or until a run is timed */
    private static int tasks(long bytes, int sizeClass) {
        WorkerPool pool = WorkerPool.shared();
        int threads = pool.parallelism();
        if (threads == 1 || pool.isWorker()) {
            return 1;
        }
        // a class not timed yet borrows the nearest smaller one's figure, which is no slower per byte
        long perByte = 0;
        for (int c = sizeClass; c >= 0 && perByte == 0; c--) {
            perByte = NANOS_PER_BYTE.get(c);
        }
        if (perByte == 0) {
            return 1;
        }
        double work = Double.longBitsToDouble(perByte) * bytes;
        double worth = work / (2 * Dispatch.NANOS);
        if (worth < 2) {
            return 1;
        }
        int most = threads * TASKS_PER_THREAD;
        // whole rounds of the threads, so that none is left with an extra task while the others wait
        int tasks = (int) Math.min(most, worth);
        return tasks < threads ? tasks : tasks / threads * threads;
    }

    /** Keeps the time per byte of a run of {@code bytes} of B that took {@code nanos}, if it is the least. */
    private static void record(long bytes, long nanos, int sizeClass) {
        if (bytes >= TIMED_BYTES) {
            double perByte = Math.max(Double.MIN_NORMAL, (double) nanos / bytes);
            long known = NANOS_PER_BYTE.get(sizeClass);
            if (known == 0 || perByte < Double.longBitsToDouble(known)) {
                // a lost race keeps the other thread's figure, which is as good a measurement
                NANOS_PER_BYTE.compareAndSet(sizeClass, known, Double.doubleToRawLongBits(perByte));
            }
        }
    }

    /** @return where part {@code part} of {@code parts} starts, on a multiple of {@link #COLUMN_STEP} */
    private static int start(int part, int parts, int steps, int n) {
        return (int) Math.min(n, (long) steps * part / parts * COLUMN_STEP);
    }
}
