package dev.ein4j.cpu.gemm;

import java.util.Arrays;

/**
 * Copies float operand panels into the contiguous layouts the micro-kernels stream through.
 * <ul>
 * <li>A panel (mc × kc) → slivers of MR rows, sliver s at {@code s·MR·kc}, its row r at
 * {@code + r·kc}: each row is a plain copy when A's columns are contiguous (row-major A).</li>
 * <li>B panel (kc × nc) → slivers of NR columns, sliver s at {@code s·NR·kc}, its step p at
 * {@code + p·NR}: the NR values the kernel loads as vectors together.</li>
 * </ul>
 * Rows or columns past the panel's edge are zero, so the kernels always compute whole tiles without
 * reading outside the operands. The twin of {@link DoublePacking}, for float (kept identical but for the type).
 */
final class FloatPacking {

    /** Elements copied per pass along a transposed operand's contiguous columns: one 64-byte line. */
    private static final int STEPS = 64 / Float.BYTES;

    private FloatPacking() {
    }

    /**
     * Packs A[b, i0 .. i0+mc, p0 .. p0+kc].
     *
     * @param ap the destination, at least {@code roundUp(mc, mr)·kc} long
     */
    static void packA(float[] a, View v, int b, int i0, int mc, int p0, int kc, int mr, float[] ap) {
        int rowsPadded = Blocking.roundUp(mc, mr);
        if (v.unitRows && !v.unitCols && mc > 1) {
            packAColumnMajor(a, v, b, i0, mc, p0, kc, ap);
        } else {
            for (int i = 0; i < mc; i++) {
                int dst = i * kc;
                long row = v.rowOffset(b, i0 + i);
                if (v.unitCols) {
                    System.arraycopy(a, (int) (row + v.cols[p0]), ap, dst, kc);
                } else {
                    long[] cols = v.cols;
                    for (int p = 0; p < kc; p++) {
                        ap[dst + p] = a[(int) (row + cols[p0 + p])];
                    }
                }
            }
        }
        Arrays.fill(ap, mc * kc, rowsPadded * kc, 0f);
    }

    /**
     * A whose rows are adjacent (a transposed view): each column is contiguous. Rows go {@value #STEPS}
     * at a time: the packed rows are kc apart, a power of two bytes, so writing all mc of them for each
     * column would thrash a few L1 sets; {@value #STEPS} rows stay in L1 while every column passes.
     */
    private static void packAColumnMajor(float[] a, View v, int b, int i0, int mc, int p0, int kc, float[] ap) {
        long first = v.rowOffset(b, i0);
        for (int i = 0; i < mc; i += STEPS) {
            int rows = Math.min(STEPS, mc - i);
            for (int p = 0; p < kc; p++) {
                int src = (int) (first + v.cols[p0 + p]) + i;
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
    static void packB(float[] bm, View v, int b, int p0, int kc, int j0, int nc, int nr, float[] bp) {
        if (v.unitCols) {
            packBRowMajor(bm, v, b, p0, kc, j0, nc, nr, bp);
            return;
        }
        for (int s = 0; s < nc; s += nr) {
            int width = Math.min(nr, nc - s);
            int sliver = s * kc;
            if (v.unitRows) {
                packBColumnMajor(bm, v, b, p0, kc, j0 + s, width, nr, bp, sliver);
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
                    Arrays.fill(bp, dst + width, dst + nr, 0f);
                }
            }
        }
    }

    /**
     * B whose columns are adjacent (row-major): each row of the panel is read once, front to back, and
     * dealt out to the slivers, so the reads stream (one row is a few KiB, and rows are far apart).
     */
    private static void packBRowMajor(float[] bm, View v, int b, int p0, int kc, int j0, int nc, int nr,
            float[] bp) {
        long col = v.cols[j0];
        for (int p = 0; p < kc; p++) {
            int src = (int) (v.rowOffset(b, p0 + p) + col);
            for (int s = 0, dst = p * nr; s < nc; s += nr, dst += nr * kc) {
                int width = Math.min(nr, nc - s);
                System.arraycopy(bm, src + s, bp, dst, width);
                if (width < nr) {
                    Arrays.fill(bp, dst + width, dst + nr, 0f);
                }
            }
        }
    }

    /**
     * B whose rows are adjacent (a transposed view): each column is contiguous, and is copied
     * {@value #STEPS} steps at a time so that the sliver rows being written stay in L1.
     */
    private static void packBColumnMajor(float[] bm, View v, int b, int p0, int kc, int j0, int width, int nr,
            float[] bp, int sliver) {
        long first = v.rowOffset(b, p0);
        for (int p = 0; p < kc; p += STEPS) {
            int steps = Math.min(STEPS, kc - p);
            for (int j = 0; j < width; j++) {
                int src = (int) (first + v.cols[j0 + j]) + p;
                for (int q = 0, dst = sliver + p * nr + j; q < steps; q++, dst += nr) {
                    bp[dst] = bm[src + q];
                }
            }
        }
    }
}
