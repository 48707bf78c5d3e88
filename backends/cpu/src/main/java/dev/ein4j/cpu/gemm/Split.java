package dev.ein4j.cpu.gemm;

import dev.ein4j.cpu.WorkerPool;

/**
 * Spreads a multiply over the shared workers: C is cut into units (a batch entry × a range of rows × a
 * range of columns, never K, so no two tasks write the same element), and the units are dealt out as
 * about two tasks per thread (system property {@code ein4j.cpu.gemm.tasksPerThread}), enough to even
 * out uneven progress without packing the same panels many times over. Rows and columns are cut on
 * tile boundaries, and the longer side first, since each task re-packs the panels of the other operand
 * that its part needs: square parts pack least.
 */
final class Split {

    private static final int TASKS_PER_THREAD = Integer.getInteger("ein4j.cpu.gemm.tasksPerThread", 2);

    private final int batches;
    private final int m;
    private final int n;
    private final int mr;
    private final int nr;
    private int rowParts = 1;
    private int colParts = 1;

    private Split(int batches, int m, int n, int mr, int nr) {
        this.batches = batches;
        this.m = m;
        this.n = n;
        this.mr = mr;
        this.nr = nr;
    }

    /**
     * Runs {@code job} over all of C[batches, m, n], in parallel when it is worth it: above the
     * machine's serial threshold ({@link GemmSettings#serialWork()}, measured by the autotune).
     */
    static void run(Job<?> job, int batches, int m, int n, int k) {
        run(job, batches, m, n, k, GemmSettings.get().serialWork());
    }

    /**
     * Runs {@code job} over all of C[batches, m, n], on the calling thread alone when it has at most
     * {@code serialWork} multiply-adds (0: always split, infinity: never).
     */
    static void run(Job<?> job, int batches, int m, int n, int k, double serialWork) {
        WorkerPool pool = WorkerPool.shared();
        double work = (double) batches * m * n * Math.max(k, 1);
        int threads = pool.parallelism();
        if (threads == 1 || work <= serialWork) {
            for (int b = 0; b < batches; b++) {
                job.run(b, 0, m, 0, n);
            }
            return;
        }
        Split split = new Split(batches, m, n, job.blocking.mr(), job.blocking.nr());
        int target = threads * TASKS_PER_THREAD;
        split.cut(target);
        long units = (long) batches * split.rowParts * split.colParts;
        int tasks = (int) Math.min(units, target);
        pool.parallelFor(tasks, t -> {
            long from = units * t / tasks;
            long to = units * (t + 1) / tasks;
            for (long u = from; u < to; u++) {
                split.runUnit(job, u);
            }
        });
    }

    /**
     * @return {row parts, column parts} of C[batches, m, n] that {@link #run} deals out on this pool
     *     (a cost model's input: each row part packs all of B's columns it covers, each column part
     *     all of A's rows)
     */
    static int[] parts(int batches, int m, int n, int mr, int nr, int threads) {
        Split split = new Split(batches, m, n, mr, nr);
        split.cut(threads * TASKS_PER_THREAD);
        return new int[] {split.rowParts, split.colParts};
    }

    /** @return the tasks {@link #run} makes on a pool of {@code threads} */
    static int tasksPerThread() {
        return TASKS_PER_THREAD;
    }

    /** Cuts rows and columns until there are {@code target} units or the parts would be too thin. */
    private void cut(int target) {
        int rowTiles = (m + mr - 1) / mr;
        int colTiles = (n + nr - 1) / nr;
        while ((long) batches * rowParts * colParts < target) {
            boolean rowsCuttable = rowParts < rowTiles;
            boolean colsCuttable = colParts < colTiles;
            boolean rowsLonger = (double) m / rowParts >= (double) n / colParts;
            if (rowsCuttable && (rowsLonger || !colsCuttable)) {
                rowParts++;
            } else if (colsCuttable) {
                colParts++;
            } else {
                return;
            }
        }
    }

    private void runUnit(Job<?> job, long unit) {
        int cp = (int) (unit % colParts);
        long rest = unit / colParts;
        int rp = (int) (rest % rowParts);
        int b = (int) (rest / rowParts);
        job.run(b, start(rp, rowParts, m, mr), start(rp + 1, rowParts, m, mr),
                start(cp, colParts, n, nr), start(cp + 1, colParts, n, nr));
    }

    /** @return where part {@code part} of {@code parts} starts, on a multiple of {@code tile} */
    private static int start(int part, int parts, int size, int tile) {
        long tiles = (size + tile - 1) / tile;
        return (int) Math.min(size, tiles * part / parts * tile);
    }
}
