package dev.ein4j.cpu.gemm;

import java.util.Objects;

/**
 * Batched matrix multiplication {@code C[b, m, n] = Σ_k A[b, m, k] · B[b, k, n]} over operands
 * addressed through offset tables ({@link Operand}), for float32 (summed in float32, as BLAS does) and
 * float64. C is overwritten. Panels of A and B are packed into cache-sized contiguous buffers and a
 * register-blocked micro-kernel (Vector API FMAs when {@code jdk.incubator.vector} is loaded, plain
 * Java otherwise) sums each tile of C; large calls are spread over the shared
 * {@link dev.ein4j.cpu.WorkerPool}. A thin C (at most {@link ThinCall#MAX_ROWS} rows or columns, such as a
 * matrix-vector product) skips the packing: B is read once, in place ({@link ThinCall}). Instances are
 * immutable and thread-safe.
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
        Call call = Call.of(batches, m, n, k, left, right, out, listener, kernels.floats().mr(),
                kernels.floats().nr());
        if (call == null) {
            return;
        }
        ThinCall thin = ThinCall.of(m, n, k, left, right, out, listener);
        if (thin != null) {
            ThinSplit.run(new FloatThinJob(thin, k, thin.swapped ? b : a, thin.swapped ? a : b, c,
                    thinKernels.floats), batches, thin.n, k);
            return;
        }
        float[] x = call.swapped ? b : a;
        float[] y = call.swapped ? a : b;
        Split.run(new FloatJob(k, x, call.left, y, call.right, c, call.out, kernels.floats(), call.listener),
                batches, call.m, call.n, k);
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
        Call call = Call.of(batches, m, n, k, left, right, out, listener, kernels.doubles().mr(),
                kernels.doubles().nr());
        if (call == null) {
            return;
        }
        ThinCall thin = ThinCall.of(m, n, k, left, right, out, listener);
        if (thin != null) {
            ThinSplit.run(new DoubleThinJob(thin, k, thin.swapped ? b : a, thin.swapped ? a : b, c,
                    thinKernels.doubles), batches, thin.n, k);
            return;
        }
        double[] x = call.swapped ? b : a;
        double[] y = call.swapped ? a : b;
        Split.run(new DoubleJob(k, x, call.left, y, call.right, c, call.out, kernels.doubles(), call.listener),
                batches, call.m, call.n, k);
    }
}
