package dev.ein4j.cpu.gemm;

/**
 * One thin double product ({@link ThinCall}): C[b, i, j] = Σ_p A[b, i, p] · B[b, p, j] for the few rows
 * i of C, with B read once, in place. A's rows are gathered into a contiguous buffer; C is computed a
 * block of columns at a time into a per-thread buffer, stored, and told to the listener. A row-major B
 * is added four rows at a time into the block ({@link DoubleThinKernel#addRows}), a B contiguous along
 * K is dotted four columns at a time ({@link DoubleThinKernel#dotColumns}); with several rows of C, the
 * four rows or columns of B are read from memory for the first and from cache for the others.
 * The twin for the other precision is the same text but for the type (guarded by a test).
 */
final class DoubleThinJob implements ThinJob {

    /** A block's columns: its rows of C and the four rows of B added into them stay in L1 (4 KiB each). */
    private static final int BLOCK = 4096 / Double.BYTES;

    /** A's rows and a block of C, one set per thread, grown as needed and kept. */
    static final class Workspace {
        double[] rows = new double[0];
        double[] block = new double[0];
        /** Whether a multiply on this thread is using the buffers (a listener may multiply again). */
        boolean busy;
    }

    private static final ThreadLocal<Workspace> WORKSPACES = ThreadLocal.withInitial(Workspace::new);

    private final int m;
    private final int k;
    private final double[] a;
    private final double[] bm;
    private final double[] c;
    private final ThinCall call;
    private final DoubleThinKernel kernel;

    DoubleThinJob(ThinCall call, int k, double[] a, double[] bm, double[] c, DoubleThinKernel kernel) {
        this.m = call.m;
        this.k = k;
        this.a = a;
        this.bm = bm;
        this.c = c;
        this.call = call;
        this.kernel = kernel;
    }

    @Override
    public int elementBytes() {
        return Double.BYTES;
    }

    @Override
    public void run(int b, int from, int to) {
        Workspace w = acquire();
        try {
            gatherRows(w.rows, b);
            for (int j = from; j < to; j += BLOCK) {
                int width = Math.min(BLOCK, to - j);
                if (call.dotted) {
                    dotBlock(w, b, j, width);
                } else {
                    addBlock(w, b, j, width);
                }
                store(w.block, b, j, width);
                if (call.listener != null) {
                    call.listener.finished(b, 0, m, j, j + width);
                }
            }
        } finally {
            w.busy = false;
        }
    }

    private Workspace acquire() {
        Workspace w = WORKSPACES.get();
        if (w.busy) {
            w = new Workspace();
        }
        w.busy = true;
        if (w.rows.length < m * k) {
            w.rows = new double[m * k];
        }
        if (w.block.length < m * BLOCK) {
            w.block = new double[m * BLOCK];
        }
        return w;
    }

    /** rows[i·k + p] = A[b, i, p]. */
    private void gatherRows(double[] rows, int b) {
        View left = call.left;
        for (int i = 0; i < m; i++) {
            long row = left.rowOffset(b, i);
            if (left.unitCols) {
                System.arraycopy(a, (int) (row + left.cols[0]), rows, i * k, k);
            } else {
                for (int p = 0; p < k; p++) {
                    rows[i * k + p] = a[(int) (row + left.cols[p])];
                }
            }
        }
    }

    /** block[i·width + q] = Σ_p A[b, i, p] · B[b, p, j + q], B's rows contiguous along N. */
    private void addBlock(Workspace w, int b, int j, int width) {
        View right = call.right;
        double[] rows = w.rows;
        double[] block = w.block;
        java.util.Arrays.fill(block, 0, m * width, 0);
        long first = right.cols[j];
        int p = 0;
        for (; p + 4 <= k; p += 4) {
            int row0 = (int) (right.rowOffset(b, p) + first);
            int row1 = (int) (right.rowOffset(b, p + 1) + first);
            int row2 = (int) (right.rowOffset(b, p + 2) + first);
            int row3 = (int) (right.rowOffset(b, p + 3) + first);
            for (int i = 0, x = p; i < m; i++, x += k) {
                kernel.addRows(width, rows[x], rows[x + 1], rows[x + 2], rows[x + 3], bm, row0, row1, row2, row3,
                        block, i * width);
            }
        }
        for (; p < k; p++) {
            int row = (int) (right.rowOffset(b, p) + first);
            for (int i = 0; i < m; i++) {
                kernel.addRow(width, rows[i * k + p], bm, row, block, i * width);
            }
        }
    }

    /** block[i·width + q] = Σ_p A[b, i, p] · B[b, p, j + q], B's columns contiguous along K. */
    private void dotBlock(Workspace w, int b, int j, int width) {
        View right = call.right;
        double[] rows = w.rows;
        double[] block = w.block;
        long top = right.rowOffset(b, 0);
        int q = 0;
        for (; q + 4 <= width; q += 4) {
            int column0 = (int) (top + right.cols[j + q]);
            int column1 = (int) (top + right.cols[j + q + 1]);
            int column2 = (int) (top + right.cols[j + q + 2]);
            int column3 = (int) (top + right.cols[j + q + 3]);
            for (int i = 0; i < m; i++) {
                kernel.dotColumns(k, rows, i * k, bm, column0, column1, column2, column3, block, i * width + q);
            }
        }
        for (; q < width; q++) {
            int column = (int) (top + right.cols[j + q]);
            for (int i = 0; i < m; i++) {
                block[i * width + q] = kernel.dotColumn(k, rows, i * k, bm, column);
            }
        }
    }

    /** C[b, i, j + q] = block[i·width + q]. */
    private void store(double[] block, int b, int j, int width) {
        View out = call.out;
        for (int i = 0; i < m; i++) {
            long row = out.rowOffset(b, i);
            if (out.unitCols) {
                System.arraycopy(block, i * width, c, (int) (row + out.cols[j]), width);
            } else {
                for (int q = 0; q < width; q++) {
                    c[(int) (row + out.cols[j + q])] = block[i * width + q];
                }
            }
        }
    }
}
