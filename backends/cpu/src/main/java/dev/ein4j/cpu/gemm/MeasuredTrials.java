package dev.ein4j.cpu.gemm;

import dev.ein4j.cpu.WorkerPool;
import java.util.Random;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The autotune's clock: runs float32 products on contiguous row-major operands and times them with
 * {@link System#nanoTime()}. The blocking trials multiply one representative product, 2·mc × 2·kc by
 * 2·kc × 2·nc of the derived blocks (so that every block size tried is cut at least once along each
 * side), on the calling thread; the serial-threshold trials multiply size × size squares on the calling
 * thread or cut over the workers. The operands are made once per shape and kept for the session.
 */
final class MeasuredTrials implements Tuner.Trials {

    /** At most this long in the thin warm-up product. */
    private static final long WARM_UP_LIMIT_NANOS = 1_000_000_000L;
    /**
     * The whole tune's budget: a quiet machine needs about a second, most of it the warm-up; past this
     * the trials give up ({@link Tuner.OutOfTime}), since a machine that slow is too busy to measure.
     */
    static final long BUDGET_NANOS = 2_500_000_000L;
    /**
     * Runs of the thin product before its times count: C1's code runs steadily too, only some hundred
     * times slower, so settling alone would end the warm-up before C2 compiles. HotSpot's tiered policy
     * compiles a method with C2 after 5,000 calls by default (Tier4InvocationThreshold); 250 runs of the
     * thin product's 42 tiles call the kernel twice that often (C2 took about 6,000 calls here).
     */
    private static final int MIN_WARM_UP_RUNS = 250;
    /** Consecutive runs within 1.5× of the fastest that end the warm-up. */
    private static final int SETTLED_RUNS = 50;

    private final FloatKernel kernel;
    private final Blocking derived;
    private final Product representative;
    private final long deadline = System.nanoTime() + BUDGET_NANOS;
    private Product square;

    /**
     * @param kernel the float micro-kernel the library runs
     * @param derived the derived float blocking, which sizes the representative product
     */
    MeasuredTrials(FloatKernel kernel, Blocking derived) {
        this.kernel = kernel;
        this.derived = derived;
        this.representative = new Product(2 * derived.mc(), 2 * derived.nc(), 2 * derived.kc());
    }

    /**
     * Runs a thin product (42 tiles of 32 steps per run, half of them partial) until its run time
     * settles, then the representative one twice and the smallest square, alone and split, some times.
     * The interpreter and C1 run Vector API code 100–300 times slower than C2, which compiles the kernel
     * after some thousands of calls: the large product alone would spend seconds there before the first
     * timed run.
     */
    @Override
    public void warmUp() {
        // whole tiles and, at the bottom and right edges, partial ones (the scatter path small squares take)
        // in two K blocks of 16, so that the kernel's profile holds both of its paths (store, then add
        // to C) before C2 compiles it: first compiled on stores alone, it was thrown out at the first
        // product deeper than kc, and ran as C1 code (Vector API calls in Java) through the trials
        Product thin = new Product(20 * derived.mr() + 2, derived.nr() + derived.nr() / 2, 32);
        FloatJob job = thin.job(kernel, new Blocking(derived.mr(), derived.nr(), derived.mc(), derived.nc(), 16));
        long warmUpEnd = System.nanoTime() + WARM_UP_LIMIT_NANOS;
        long fastest = Long.MAX_VALUE;
        int settled = 0;
        for (int run = 0; settled < SETTLED_RUNS && System.nanoTime() < warmUpEnd; run++) {
            long start = System.nanoTime();
            job.run(0, 0, thin.m, 0, thin.n);
            long time = System.nanoTime() - start;
            fastest = Math.min(fastest, time);
            settled = run >= MIN_WARM_UP_RUNS && time < 1.5 * fastest ? settled + 1 : 0;
        }
        blocked(derived);
        blocked(derived);
        // the squares' edge tiles (sizes below the tile) and the split path, compiled before they count
        for (int run = 0; run < SETTLED_RUNS; run++) {
            serial(Tuner.SIZES[0]);
            parallel(Tuner.SIZES[0]);
        }
    }

    @Override
    public double blocked(Blocking blocking) {
        checkBudget();
        Product p = representative;
        FloatJob job = p.job(kernel, blocking);
        long start = System.nanoTime();
        job.run(0, 0, p.m, 0, p.n);
        return (System.nanoTime() - start) * 1e-9;
    }

    @Override
    public double serial(int size) {
        return square(size, Double.POSITIVE_INFINITY);
    }

    @Override
    public double parallel(int size) {
        return square(size, 0);
    }

    private double square(int size, double serialWork) {
        checkBudget();
        if (square == null || square.m != size) {
            square = new Product(size, size, size);
            // untimed: the first runs on fresh arrays fault their pages in and may grow the workspaces
            FloatJob first = square.job(kernel, derived);
            Split.run(first, 1, size, size, size, Double.POSITIVE_INFINITY);
            Split.run(first, 1, size, size, size, 0);
        }
        Product p = square;
        FloatJob job = p.job(kernel, derived);
        if (serialWork == 0) {
            wakeWorkers();
        }
        long start = System.nanoTime();
        Split.run(job, 1, p.m, p.n, p.k, serialWork);
        return (System.nanoTime() - start) * 1e-9;
    }

    /**
     * Returns once every worker is running, as the kernels of a step find them (awake between
     * back-to-back calls). Else a split run after a serial one paid the wake-up of parked threads
     * (tens of microseconds on a VM), the more often the longer the serial run, and the threshold came
     * out anywhere between 80³ and 384³ from one start to the next.
     */
    private static void wakeWorkers() {
        WorkerPool pool = WorkerPool.shared();
        int threads = pool.parallelism();
        AtomicInteger arrived = new AtomicInteger();
        long giveUp = System.nanoTime() + 10_000_000L;
        pool.parallelFor(threads, task -> {
            arrived.incrementAndGet();
            while (arrived.get() < threads && System.nanoTime() < giveUp) {
                Thread.onSpinWait();
            }
        });
    }

    private void checkBudget() {
        if (System.nanoTime() > deadline) {
            throw new Tuner.OutOfTime();
        }
    }

    /** Operands of one m × k by k × n product, row-major, filled with values in [-0.5, 0.5). */
    private static final class Product {

        final int m;
        final int n;
        final int k;
        private final float[] a;
        private final float[] b;
        private final float[] c;

        Product(int m, int n, int k) {
            this.m = m;
            this.n = n;
            this.k = k;
            Random random = new Random(m * 31L + n * 17L + k);
            this.a = filled(m * k, random);
            this.b = filled(k * n, random);
            this.c = new float[m * n];
        }

        FloatJob job(FloatKernel kernel, Blocking blocking) {
            return new FloatJob(k, a, rowMajor(m, k), b, rowMajor(k, n), c, rowMajor(m, n), kernel, null,
                    blocking);
        }

        private static View rowMajor(int rows, int cols) {
            long[] rowOffsets = new long[rows];
            for (int i = 0; i < rows; i++) {
                rowOffsets[i] = (long) i * cols;
            }
            long[] colOffsets = new long[cols];
            for (int j = 0; j < cols; j++) {
                colOffsets[j] = j;
            }
            return new View(new Operand(0, new long[1], rowOffsets, colOffsets));
        }

        private static float[] filled(int length, Random random) {
            float[] values = new float[length];
            for (int i = 0; i < length; i++) {
                values[i] = random.nextFloat() - 0.5f;
            }
            return values;
        }
    }
}
