package dev.ein4j.cpu.gemm;

/**
 * A multiply whose C is small and whose K is long, with both operands contiguous along K in runs: a
 * convolution's weight gradient, C = [channels out, channels in · taps] summed over K = batch · height
 * · width (the flagship's first layer: 9 × 32 over 100,352), where A's K runs are the image rows of the
 * input window and B's the feature maps of the output gradient. The packed path spends most of such a
 * call packing: each packed element is used by one or two register tiles, the tiles are padded to
 * 5 × 64 (a 9 × 32 C computes 10 × 64), and B's K runs become a transposition into slivers. Here both
 * operands are instead copied K-major, a chunk of K at a time, run by run (one array copy per run),
 * and each element of C is a dot product over the chunk ({@link DoubleDotJob}, {@link FloatDotJob});
 * threads take slices of K and their partial C are summed.
 *
 * <p>The choice is a count of the work per step of K, in units of one multiply-add of the packed
 * tile (a vector of {@code L} lanes): the packed path transposes B's {@code N} columns out of their K
 * runs into slivers at {@link #PACK_COST} each (A's rows are copied in runs, which is cheap) and runs
 * {@code M'·N' / L} tile multiply-adds (M', N' padded to the tile); the dot path copies {@code M + N}
 * runs' elements at {@link #COPY_COST} and runs {@code M·N / L} multiply-adds at {@link #DOT_COST},
 * as its kernel loads three vectors per four multiply-adds where the tile loads one per five. The
 * costs are least-squares fits to 13 weight-gradient shapes ({@code WeightGradientBench}: 9 to 288
 * taps, 16 to 128 channels, AMD EPYC, JDK 25, 2 threads); with the rule that one side of C is at most
 * half the tile's columns, the choice was right for 17 of 18 shapes in both orientations, the miss
 * (72 × 128, left to the packed tiles) 22 % slower than the dot path. System property
 * {@code ein4j.cpu.gemm.dot} = {@code false} turns the path off, {@code true} takes it for every
 * product whose partial C fit (for measuring and tests).
 */
final class DotCall {

    private static final String MODE = System.getProperty("ein4j.cpu.gemm.dot", "auto").trim().toLowerCase(java.util.Locale.ROOT);
    /** Packing one of B's columns for one step of K, in tile multiply-adds. */
    static final double PACK_COST = 3.2;
    /** Copying one element of a run, in tile multiply-adds. */
    static final double COPY_COST = 1.0;
    /** One multiply-add of the dot kernel, in tile multiply-adds. */
    static final double DOT_COST = 1.2;

    /** The fewest vectors a chunk holds. */
    static final int MIN_CHUNK_VECTORS = 16;

    final int batches;
    final int m;
    final int n;
    final int k;
    final Operand left;
    final Operand right;
    final Operand out;
    final BlockListener listener;
    /** Whether A and B are exchanged: the call computes Cᵀ = Bᵀ·Aᵀ (m and n exchanged). */
    final boolean swapped;
    /** The run length from each entry of A's K table (its columns). */
    final int[] leftRuns;
    /** The run length from each entry of B's K table (its rows). */
    final int[] rightRuns;
    /** The elements of K copied and dotted at a time ({@link #chunk}). */
    final int chunk;

    private DotCall(int batches, int m, int n, int k, Operand left, Operand right, Operand out, BlockListener listener,
            boolean swapped, int[] leftRuns, int[] rightRuns, int chunk) {
        this.batches = batches;
        this.m = m;
        this.n = n;
        this.k = k;
        this.left = left;
        this.right = right;
        this.out = out;
        this.listener = listener;
        this.swapped = swapped;
        this.leftRuns = leftRuns;
        this.rightRuns = rightRuns;
        this.chunk = chunk;
    }

    /**
     * @param lanes the elements of one vector of the micro-kernels' type (1 for the scalar kernels)
     * @param mr the packed path's register tile rows
     * @param nr its columns
     * @param elementBytes 4 or 8
     * @return the dot call, or null where it does not apply or the packed path counts less; the
     *     arguments must have passed {@link Call#check} (the views of {@link Call#of} are not built: a
     *     weight gradient's tables are as long as the batch's pixels, and each view measures them)
     */
    static DotCall of(int batches, int m, int n, int k, Operand left, Operand right, Operand out, BlockListener listener,
            int lanes, int mr, int nr, int elementBytes) {
        boolean forced = MODE.equals("true");
        if (MODE.equals("false") || k == 0 || (long) batches * m * n > KSplit.MAX_PARTIAL_ELEMENTS
                || !(forced || pays(m, n, lanes, mr, nr))) {
            return null;
        }
        Runs leftRuns = Runs.measure(left.cols());
        Runs rightRuns = Runs.measure(right.rows());
        if (!forced && Math.min(leftRuns.mean, rightRuns.mean) <= Runs.WORTHWHILE_MEAN) {
            return null;
        }
        if (swaps(m, n)) {
            BlockListener back = listener == null ? null
                    : (b, rowFrom, rowTo, colFrom, colTo) -> listener.finished(b, colFrom, colTo, rowFrom, rowTo);
            return new DotCall(batches, n, m, k, right.transposed(), left.transposed(), out.transposed(), back, true,
                    rightRuns.length, leftRuns.length, chunk(n, lanes, elementBytes, CacheSizes.ofMachine().level1Data()));
        }
        return new DotCall(batches, m, n, k, left, right, out, listener, false, leftRuns.length, rightRuns.length,
                chunk(m, lanes, elementBytes, CacheSizes.ofMachine().level1Data()));
    }

    /**
     * @return whether Cᵀ = Bᵀ·Aᵀ runs instead: the kernel takes four columns at a time, so the side that
     *     is a multiple of four (else the shorter) is taken as the columns, and the two rows each column
     *     is loaded for then come from the other
     */
    static boolean swaps(int m, int n) {
        boolean rowsWhole = m % 4 == 0;
        boolean columnsWhole = n % 4 == 0;
        return rowsWhole != columnsWhole ? rowsWhole : n > m;
    }

    /**
     * @return the chunk of K: four columns and every row of A in half of L1 (the rows are read again for
     *     each four columns), but at least {@link #MIN_CHUNK_VECTORS} vectors, so that the eight sums a
     *     kernel call reduces at its end are a small part of its work; a multiple of the vector length
     */
    static int chunk(int m, int lanes, int elementBytes, long level1Data) {
        long fits = level1Data / 2 / ((long) (m + 4) * elementBytes);
        long chunk = Math.max((long) MIN_CHUNK_VECTORS * lanes, fits) / lanes * lanes;
        return (int) Math.min(chunk, Integer.MAX_VALUE / 2 / Math.max(m, 4));
    }

    /**
     * @return whether the dot path's count of work per step of K is below the packed path's, and C has
     *     a side of at most half the packed tile's columns (past that, the packed tiles waste little and
     *     their five broadcasts per four loads beat the dot kernel's loads)
     */
    static boolean pays(int m, int n, int lanes, int mr, int nr) {
        if (Math.min(m, n) > nr / 2) {
            return false;
        }
        double rows = Math.ceil((double) m / mr) * mr;
        double columns = Math.ceil((double) n / nr) * nr;
        double packed = PACK_COST * n + rows * columns / lanes;
        double dot = COPY_COST * (m + n) + DOT_COST * m * n / lanes;
        return dot < packed;
    }

    /** @return how many slices of K run in parallel: one per thread, each at least a chunk long */
    int parts(int threads, double serialWork) {
        if (threads < 2 || dev.ein4j.cpu.WorkerPool.shared().isWorker() || (double) batches * m * n * k <= serialWork) {
            return 1;
        }
        long byLength = Math.max(1, k / chunk);
        long byPartials = Math.max(1, KSplit.MAX_PARTIAL_ELEMENTS / ((long) batches * m * n));
        return (int) Math.min(threads, Math.min(byLength, byPartials));
    }
}
