package dev.ein4j.cpu.gemm;

import java.util.Arrays;

/**
 * Copies double operand panels into the contiguous layouts the micro-kernels stream through.
 * <ul>
 * <li>A panel (mc × kc) → slivers of MR rows, sliver s at {@code s·MR·kc}, its row r at
 * {@code + r·kc}.</li>
 * <li>B panel (kc × nc) → slivers of NR columns, sliver s at {@code s·NR·kc}, its step p at
 * {@code + p·NR}: the NR values the kernel loads as vectors together.</li>
 * </ul>
 * Rows or columns past the panel's edge are zero, so the kernels always compute whole tiles without
 * reading outside the operands. Elements are copied a run at a time where the view's rows or columns
 * come in runs of adjacent elements ({@link View#packsAlongRows}, {@link Runs}): whole rows of a
 * row-major operand, whole columns of a transposed one, the w or kw runs of a convolution's window;
 * one at a time through the offset tables otherwise.
 * The twin of {@link FloatPacking}, for double (kept identical but for the type).
 */
final class DoublePacking {

    /** Elements copied per pass along a run of rows: one 64-byte line. */
    private static final int STEPS = 64 / Double.BYTES;

    private DoublePacking() {
    }

    /**
     * Packs A[b, i0 .. i0+mc, p0 .. p0+kc].
     *
     * @param ap the destination, at least {@code roundUp(mc, mr)·kc} long
     */
    static void packA(double[] a, View v, int b, int i0, int mc, int p0, int kc, int mr, double[] ap) {
        int rowsPadded = Blocking.roundUp(mc, mr);
        if (v.packsAlongRows) {
            packAAlongRows(a, v, b, i0, mc, p0, kc, ap);
        } else if (v.colRuns != null) {
            for (int i = 0; i < mc; i++) {
                copyRuns(a, v.rowOffset(b, i0 + i), v.cols, v.colRuns, p0, kc, ap, i * kc);
            }
        } else {
            long[] cols = v.cols;
            for (int i = 0; i < mc; i++) {
                int dst = i * kc;
                long row = v.rowOffset(b, i0 + i);
                for (int p = 0; p < kc; p++) {
                    ap[dst + p] = a[(int) (row + cols[p0 + p])];
                }
            }
        }
        Arrays.fill(ap, mc * kc, rowsPadded * kc, 0d);
    }

    /**
     * A whose rows come in runs (a transposed view, a window's output positions): each column is
     * contiguous over a run. Rows go at most {@value #STEPS} at a time: the packed rows are kc apart, a
     * power of two bytes, so writing all mc of them for each column would thrash a few L1 sets;
     * {@value #STEPS} rows stay in L1 while every column passes.
     */
    private static void packAAlongRows(double[] a, View v, int b, int i0, int mc, int p0, int kc, double[] ap) {
        long[] cols = v.cols;
        int[] runs = v.rowRuns;
        for (int i = 0, rows; i < mc; i += rows) {
            rows = Math.min(Math.min(STEPS, mc - i), runs[i0 + i]);
            long first = v.rowOffset(b, i0 + i);
            for (int p = 0; p < kc; p++) {
                int src = (int) (first + cols[p0 + p]);
                for (int r = 0, dst = i * kc + p; r < rows; r++, dst += kc) {
                    ap[dst] = a[src + r];
                }
            }
        }
    }

    /**
     * Packs B[b, p0 .. p0+kc, j0 .. j0+nc].
     *
     * @param bp the destination, at least {@code roundUp(nc, nr)·kc} long
     */
    static void packB(double[] bm, View v, int b, int p0, int kc, int j0, int nc, int nr, double[] bp) {
        if (!v.packsAlongRows && v.colRuns != null) {
            packBAlongColumns(bm, v, b, p0, kc, j0, nc, nr, bp);
            return;
        }
        for (int s = 0; s < nc; s += nr) {
            int width = Math.min(nr, nc - s);
            int sliver = s * kc;
            if (v.packsAlongRows) {
                packBSliverAlongRows(bm, v, b, p0, kc, j0 + s, width, nr, bp, sliver);
            } else {
                long[] cols = v.cols;
                for (int p = 0, dst = sliver; p < kc; p++, dst += nr) {
                    long row = v.rowOffset(b, p0 + p);
                    for (int j = 0; j < width; j++) {
                        bp[dst + j] = bm[(int) (row + cols[j0 + s + j])];
                    }
                }
            }
            if (width < nr) {
                for (int p = 0, dst = sliver; p < kc; p++, dst += nr) {
                    Arrays.fill(bp, dst + width, dst + nr, 0d);
                }
            }
        }
    }

    /**
     * B whose columns come in runs (row-major, a window's output positions): each row of the panel is
     * read once, front to back, and dealt out to the slivers, so the reads stream (one row is a few KiB,
     * and rows are far apart).
     */
    private static void packBAlongColumns(double[] bm, View v, int b, int p0, int kc, int j0, int nc, int nr,
            double[] bp) {
        for (int p = 0; p < kc; p++) {
            long row = v.rowOffset(b, p0 + p);
            for (int s = 0, dst = p * nr; s < nc; s += nr, dst += nr * kc) {
                int width = Math.min(nr, nc - s);
                copyRuns(bm, row, v.cols, v.colRuns, j0 + s, width, bp, dst);
                if (width < nr) {
                    Arrays.fill(bp, dst + width, dst + nr, 0d);
                }
            }
        }
    }

    /**
     * One sliver of B whose rows come in runs (a transposed view, a window's taps): each column is
     * contiguous over a run, and is copied at most {@value #STEPS} steps at a time so that the sliver
     * rows being written stay in L1.
     */
    private static void packBSliverAlongRows(double[] bm, View v, int b, int p0, int kc, int j0, int width, int nr,
            double[] bp, int sliver) {
        long[] cols = v.cols;
        int[] runs = v.rowRuns;
        for (int p = 0, steps; p < kc; p += steps) {
            steps = Math.min(Math.min(STEPS, kc - p), runs[p0 + p]);
            long first = v.rowOffset(b, p0 + p);
            for (int j = 0; j < width; j++) {
                int src = (int) (first + cols[j0 + j]);
                for (int q = 0, dst = sliver + p * nr + j; q < steps; q++, dst += nr) {
                    bp[dst] = bm[src + q];
                }
            }
        }
    }

    /**
     * Copies {@code count} elements {@code source[base + offsets[from + t]]} to {@code destination[at + t]},
     * a run at a time ({@code runs} from {@link Runs}).
     */
    static void copyRuns(double[] source, long base, long[] offsets, int[] runs, int from, int count,
            double[] destination, int at) {
        for (int t = 0, run; t < count; t += run) {
            run = Math.min(runs[from + t], count - t);
            int src = (int) (base + offsets[from + t]);
            if (run == 1) {
                destination[at + t] = source[src];
            } else {
                System.arraycopy(source, src, destination, at + t, run);
            }
        }
    }
}
