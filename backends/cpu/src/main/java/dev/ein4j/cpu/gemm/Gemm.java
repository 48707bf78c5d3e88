package dev.ein4j.cpu.gemm;

import dev.ein4j.cpu.WorkerPool;
import java.util.Objects;

/**
 * Batched matrix multiplication {@code C[b, m, n] = Σ_k A[b, m, k] · B[b, k, n]} over operands
 * addressed through offset tables ({@link Operand}), for float32 (summed in float32, as BLAS does) and
 * float64. C is overwritten. Panels of A and B are packed into cache-sized contiguous buffers and a
 * register-blocked micro-kernel (Vector API FMAs when {@code jdk.incubator.vector} is loaded, plain
 * Java otherwise) sums each tile of C; large calls are spread over the shared
 * {@link dev.ein4j.cpu.WorkerPool}. A thin C (at most {@link ThinCall#MAX_ROWS} rows or columns, such as a
 * matrix-vector product) skips the packing: B is read once, in place ({@link ThinCall}); a small C over
 * a long K with both operands in runs along K (a convolution's weight gradient) is summed as dot
 * products of K-major copies ({@link DotCall}). Instances are immutable and thread-safe.
 */
public final class Gemm {

    private static final Gemm INSTANCE = new Gemm(Kernels.load());

    private final Kernels kernels;
    private final ThinKernels thinKernels;

    private Gemm(Kernels kernels) {
        this.kernels = kernels;
        this.thinKernels = ThinKernels.of(kernels.kind());
    }

    /**
     * @return the engine: the Vector API kernels when jdk.incubator.vector is loaded (and
     *     {@code -Dein4j.cpu.vector} is not false), else the scalar ones
     */
    public static Gemm get() {
        return INSTANCE;
    }

    /** @return "vector" or "scalar", which implementation runs */
    public String kind() {
        return kernels.kind();
    }

    /**
     * Computes {@code c[out(b, i, j)] = Σ_p a[left(b, i, p)] · b[right(b, p, j)]} for every b < batches,
     * i < m, j < n; with k = 0 C is set to zero.
     *
     * @param batches the number of independent products
     * @param m rows of C
     * @param n columns of C
     * @param k the summed dimension
     * @param a the left operand's array
     * @param left A's addressing: rows has m entries, cols k
     * @param b the right operand's array
     * @param right B's addressing: rows has k entries, cols n
     * @param c the output array, which must not overlap A or B
     * @param out C's addressing: rows has m entries, cols n; distinct elements must have distinct offsets
     * @param listener told of each final block of C, or null
     */
    public void multiply(int batches, int m, int n, int k, float[] a, Operand left, float[] b, Operand right,
            float[] c, Operand out, BlockListener listener) {
        Objects.requireNonNull(a, "a");
        Objects.requireNonNull(b, "b");
        Objects.requireNonNull(c, "c");
        Call.check(batches, m, n, k, left, right, out);
        if (batches == 0 || m == 0 || n == 0) {
            return;
        }
        ThinCall thin = ThinCall.of(m, n, k, left, right, out, listener);
        if (thin != null) {
            ThinSplit.run(new FloatThinJob(thin, k, thin.swapped ? b : a, thin.swapped ? a : b, c,
                    thinKernels.floats), batches, thin.n, k);
            return;
        }
        DotCall dot = dotCall(batches, m, n, k, left, right, out, listener, false);
        if (dot != null) {
            FloatDotJob job = new FloatDotJob(dot, dot.swapped ? b : a, dot.swapped ? a : b, thinKernels.floats);
            int parts = dot.parts(WorkerPool.shared().parallelism(), GemmSettings.get().serialWork());
            float[][] partials = new float[parts][];
            WorkerPool.shared().parallelFor(parts, part -> partials[part] = job.slice(KSplit.from(part, parts, k),
                    KSplit.from(part + 1, parts, k)));
            sumSlices(partials, batches, dot.m, dot.n, c, dot.out, dot.listener);
            return;
        }
        GemmSettings settings = GemmSettings.get();
        Blocking blocking = settings.blocking(kernels.floats().mr(), kernels.floats().nr(), Float.BYTES);
        Call call = Call.of(batches, m, n, k, left, right, out, listener, blocking, thinKernels.floats.lanes());
        if (call == null) {
            return;
        }
        float[] x = call.swapped ? b : a;
        float[] y = call.swapped ? a : b;
        int parts = KSplit.parts(batches, call.m, call.n, k, blocking, WorkerPool.shared().parallelism(),
                settings.serialWork());
        if (parts > 1) {
            multiplySlices(parts, batches, k, x, y, c, call);
            return;
        }
        Split.run(new FloatJob(k, x, call.left, y, call.right, c, call.out, kernels.floats(), call.listener),
                batches, call.m, call.n, k);
    }

    /**
     * @param dbl whether the product is float64
     * @return the dot-product call this product takes ({@link DotCall}), or null where it takes another
     *     path; the arguments must have passed {@link Call#check}
     */
    DotCall dotCall(int batches, int m, int n, int k, Operand left, Operand right, Operand out, BlockListener listener,
            boolean dbl) {
        return dbl
                ? DotCall.of(batches, m, n, k, left, right, out, listener, thinKernels.doubles.lanes(), kernels.doubles().mr(),
                        kernels.doubles().nr(), Double.BYTES)
                : DotCall.of(batches, m, n, k, left, right, out, listener, thinKernels.floats.lanes(), kernels.floats().mr(),
                        kernels.floats().nr(), Float.BYTES);
    }

    /** C as the sum of {@code parts} products over slices of K, each on its own thread ({@link KSplit}). */
    private void multiplySlices(int parts, int batches, int k, float[] x, float[] y, float[] c, Call call) {
        int m = call.m;
        int n = call.n;
        float[][] partials = new float[parts][];
        View compact = KSplit.compact(batches, m, n);
        WorkerPool.shared().parallelFor(parts, part -> {
            int from = KSplit.from(part, parts, k);
            int to = KSplit.from(part + 1, parts, k);
            float[] partial = new float[batches * m * n];
            FloatJob job = new FloatJob(to - from, x, KSplit.columns(call.left, from, to), y, KSplit.rows(call.right, from, to),
                    partial, compact, kernels.floats(), null);
            for (int entry = 0; entry < batches; entry++) {
                job.run(entry, 0, m, 0, n);
            }
            partials[part] = partial;
        });
        sumSlices(partials, batches, m, n, c, call.out.operand(), call.listener);
    }

    /** C as the sum of compact partial products [batches, m, n]; the listener hears of each batch entry. */
    private static void sumSlices(float[][] partials, int batches, int m, int n, float[] c, Operand out, BlockListener listener) {
        for (int entry = 0, at = 0; entry < batches; entry++) {
            for (int i = 0; i < m; i++) {
                for (int j = 0; j < n; j++, at++) {
                    float sum = partials[0][at];
                    for (int part = 1; part < partials.length; part++) {
                        sum += partials[part][at];
                    }
                    c[out.index(entry, i, j)] = sum;
                }
            }
            if (listener != null) {
                listener.finished(entry, 0, m, 0, n);
            }
        }
    }

    /**
     * The float64 twin of {@link #multiply(int, int, int, int, float[], Operand, float[], Operand, float[],
     * Operand, BlockListener)}, summed in float64.
     *
     * @param batches the number of independent products
     * @param m rows of C
     * @param n columns of C
     * @param k the summed dimension
     * @param a the left operand's array
     * @param left A's addressing: rows has m entries, cols k
     * @param b the right operand's array
     * @param right B's addressing: rows has k entries, cols n
     * @param c the output array, which must not overlap A or B
     * @param out C's addressing: rows has m entries, cols n; distinct elements must have distinct offsets
     * @param listener told of each final block of C, or null
     */
    public void multiply(int batches, int m, int n, int k, double[] a, Operand left, double[] b, Operand right,
            double[] c, Operand out, BlockListener listener) {
        Objects.requireNonNull(a, "a");
        Objects.requireNonNull(b, "b");
        Objects.requireNonNull(c, "c");
        Call.check(batches, m, n, k, left, right, out);
        if (batches == 0 || m == 0 || n == 0) {
            return;
        }
        ThinCall thin = ThinCall.of(m, n, k, left, right, out, listener);
        if (thin != null) {
            ThinSplit.run(new DoubleThinJob(thin, k, thin.swapped ? b : a, thin.swapped ? a : b, c,
                    thinKernels.doubles), batches, thin.n, k);
            return;
        }
        DotCall dot = dotCall(batches, m, n, k, left, right, out, listener, true);
        if (dot != null) {
            DoubleDotJob job = new DoubleDotJob(dot, dot.swapped ? b : a, dot.swapped ? a : b, thinKernels.doubles);
            int parts = dot.parts(WorkerPool.shared().parallelism(), GemmSettings.get().serialWork());
            double[][] partials = new double[parts][];
            WorkerPool.shared().parallelFor(parts, part -> partials[part] = job.slice(KSplit.from(part, parts, k),
                    KSplit.from(part + 1, parts, k)));
            sumSlices(partials, batches, dot.m, dot.n, c, dot.out, dot.listener);
            return;
        }
        GemmSettings settings = GemmSettings.get();
        Blocking blocking = settings.blocking(kernels.doubles().mr(), kernels.doubles().nr(), Double.BYTES);
        Call call = Call.of(batches, m, n, k, left, right, out, listener, blocking, thinKernels.doubles.lanes());
        if (call == null) {
            return;
        }
        double[] x = call.swapped ? b : a;
        double[] y = call.swapped ? a : b;
        int parts = KSplit.parts(batches, call.m, call.n, k, blocking, WorkerPool.shared().parallelism(),
                settings.serialWork());
        if (parts > 1) {
            multiplySlices(parts, batches, k, x, y, c, call);
            return;
        }
        Split.run(new DoubleJob(k, x, call.left, y, call.right, c, call.out, kernels.doubles(), call.listener),
                batches, call.m, call.n, k);
    }

    /** C as the sum of {@code parts} products over slices of K, each on its own thread ({@link KSplit}). */
    private void multiplySlices(int parts, int batches, int k, double[] x, double[] y, double[] c, Call call) {
        int m = call.m;
        int n = call.n;
        double[][] partials = new double[parts][];
        View compact = KSplit.compact(batches, m, n);
        WorkerPool.shared().parallelFor(parts, part -> {
            int from = KSplit.from(part, parts, k);
            int to = KSplit.from(part + 1, parts, k);
            double[] partial = new double[batches * m * n];
            DoubleJob job = new DoubleJob(to - from, x, KSplit.columns(call.left, from, to), y, KSplit.rows(call.right, from, to),
                    partial, compact, kernels.doubles(), null);
            for (int entry = 0; entry < batches; entry++) {
                job.run(entry, 0, m, 0, n);
            }
            partials[part] = partial;
        });
        sumSlices(partials, batches, m, n, c, call.out.operand(), call.listener);
    }

    /** C as the sum of compact partial products [batches, m, n]; the listener hears of each batch entry. */
    private static void sumSlices(double[][] partials, int batches, int m, int n, double[] c, Operand out, BlockListener listener) {
        for (int entry = 0, at = 0; entry < batches; entry++) {
            for (int i = 0; i < m; i++) {
                for (int j = 0; j < n; j++, at++) {
                    double sum = partials[0][at];
                    for (int part = 1; part < partials.length; part++) {
                        sum += partials[part][at];
                    }
                    c[out.index(entry, i, j)] = sum;
                }
            }
            if (listener != null) {
                listener.finished(entry, 0, m, 0, n);
            }
        }
    }
}
