package dev.ein4j.cpu.gemm;

import dev.ein4j.cpu.WorkerPool;
import java.util.Arrays;

/**
 * Splits a multiply along K when C is too small to share out without packing the same panels over
 * and over: the weight gradient of a convolution (C = [channels out, channels in · kernel], K = batch
 * · height · width, e.g. 9 × 32 over 100,352) has one or two tiles of C, so {@link Split} can only give
 * the threads rows of it, and each thread then packs all of B. Here each thread multiplies its own
 * slice of K into a private C (both operands packed once in all), and the slices are summed into C.
 *
 * <p>The choice is a cost model over elements packed, which is what the two plans differ in (their
 * multiply-adds are the same): {@link Split}'s cut packs A once per column part and nc panel, and B
 * once per row part; the K split packs each once and adds {@code parts} partial products into C. It
 * is taken when every thread gets at least one full kc slice, the partial products are small, and
 * it packs clearly less per thread, or when the cut would leave threads idle. Summing in slices
 * changes the order of the additions (as the kc blocking does), so the result depends on the thread
 * count, not on timing. System property {@code ein4j.cpu.gemm.splitK=false} turns it off.
 */
final class KSplit {

    private static final boolean ENABLED =
            !"false".equalsIgnoreCase(System.getProperty("ein4j.cpu.gemm.splitK", "true").trim());
    /** The most elements of all partial products together (the K split is for small C). */
    static final long MAX_PARTIAL_ELEMENTS = 1 << 18;
    /** The K split must pack at most this fraction of what the cut packs per thread. */
    private static final double GAIN = 0.8;

    private KSplit() {
    }

    /**
     * @param batches batch entries
     * @param m rows of the (oriented) C
     * @param n columns of C
     * @param k the summed dimension
     * @param blocking the job's blocks
     * @param threads worker threads
     * @param serialWork the most multiply-adds run on the calling thread alone
     * @return how many slices of K to multiply in parallel; 1 to leave the call to {@link Split}
     */
    static int parts(int batches, int m, int n, int k, Blocking blocking, int threads, double serialWork) {
        if (!ENABLED || threads < 2 || WorkerPool.shared().isWorker() || (double) batches * m * n * k <= serialWork) {
            return 1;
        }
        int parts = (int) Math.min(threads, k / Math.max(1, blocking.kc()));
        long c = (long) batches * m * n;
        if (parts < 2 || c * parts > MAX_PARTIAL_ELEMENTS) {
            return 1;
        }
        int[] cut = Split.parts(batches, m, n, blocking.mr(), blocking.nr(), threads);
        int rowParts = cut[0];
        int colParts = cut[1];
        long units = (long) batches * rowParts * colParts;
        if (units < threads) {
            return parts; // the cut leaves threads idle
        }
        double cutPacked = (double) batches * k
                * ((double) colParts * panels(ceilDiv(n, colParts), blocking.nc()) * m + (double) rowParts * n);
        double splitPacked = (double) batches * k * ((double) panels(n, blocking.nc()) * m + n);
        double cutPerThread = cutPacked / Math.min(threads, units);
        double splitPerThread = splitPacked / parts + (double) c * parts;
        return splitPerThread < GAIN * cutPerThread ? parts : 1;
    }

    /** @return slice {@code part}'s first index of K */
    static int from(int part, int parts, int k) {
        return (int) ((long) k * part / parts);
    }

    /** @return A (a view of [m, k]) restricted to columns [from, to) of K */
    static View columns(View a, int from, int to) {
        return new View(new Operand(a.base, a.batch, a.rows, Arrays.copyOfRange(a.cols, from, to)));
    }

    /** @return B (a view of [k, n]) restricted to rows [from, to) of K */
    static View rows(View b, int from, int to) {
        return new View(new Operand(b.base, b.batch, Arrays.copyOfRange(b.rows, from, to), b.cols));
    }

    /** @return a compact C[batches, m, n]'s addressing */
    static View compact(int batches, int m, int n) {
        return new View(new Operand(0, steps(batches, (long) m * n), steps(m, n), steps(n, 1)));
    }

    private static long[] steps(int count, long step) {
        long[] table = new long[count];
        for (int i = 0; i < count; i++) {
            table[i] = i * step;
        }
        return table;
    }

    private static int panels(int columns, int nc) {
        return ceilDiv(columns, Math.max(1, nc));
    }

    private static int ceilDiv(int a, int b) {
        return (a + b - 1) / b;
    }
}
