package dev.ein4j.cpu.gemm;

/**
 * One slice of K of a small-C double product ({@link DotCall}): for every batch entry, A's rows and B's
 * columns are copied a chunk of K at a time, run by run, into contiguous buffers (or read in place
 * where the chunk is one run of the operand), and every element of
 * C is the dot product of a row and a column ({@link DoubleThinKernel#dotRows}: two rows with four
 * columns per pass), added into this slice's partial C. A chunk's four columns and its rows of A fit
 * in half of L1 where they can ({@link DotCall#chunk}).
 * The twin for the other precision is the same text but for the type (guarded by a test).
 */
final class DoubleDotJob {

    /** A chunk's rows of A and columns of B, one set per thread, grown as needed and kept. */
    private static final class Workspace {
        double[] rows = new double[0];
        double[] columns = new double[0];
        double[] sums = new double[8];
        /** Where each row and column of the current chunk starts, in the buffers or in place. */
        int[] rowAt = new int[0];
        int[] columnAt = new int[0];
        /** Whether a multiply on this thread is using the buffers. */
        boolean busy;
    }

    private static final ThreadLocal<Workspace> WORKSPACES = ThreadLocal.withInitial(Workspace::new);

    private final DotCall call;
    private final double[] a;
    private final double[] bm;
    private final DoubleThinKernel kernel;

    DoubleDotJob(DotCall call, double[] a, double[] bm, DoubleThinKernel kernel) {
        this.call = call;
        this.a = a;
        this.bm = bm;
        this.kernel = kernel;
    }

    /**
     * @param from the slice's first index of K
     * @param to the end of the slice
     * @return the slice's C[b, i, j] = Σ_{from ≤ p < to} A[b, i, p] · B[b, p, j], compact [batches, m, n]
     */
    double[] slice(int from, int to) {
        int m = call.m;
        int n = call.n;
        double[] partial = new double[call.batches * m * n];
        Workspace w = acquire();
        try {
            for (int b = 0; b < call.batches; b++) {
                for (int p = from; p < to; ) {
                    int length = Math.min(call.chunk, to - p);
                    // an operand whose run from p holds half a chunk is read in place, the chunk cut at the run's end
                    int least = Math.min(length, call.chunk / 2);
                    boolean rowsInPlace = call.leftRuns[p] >= least;
                    boolean columnsInPlace = call.rightRuns[p] >= least;
                    length = Math.min(length, rowsInPlace ? call.leftRuns[p] : length);
                    length = Math.min(length, columnsInPlace ? call.rightRuns[p] : length);
                    double[] rows = rowsInPlace ? a : w.rows;
                    double[] columns = columnsInPlace ? bm : w.columns;
                    gather(w, b, p, length, rowsInPlace, columnsInPlace);
                    dot(w, length, rows, columns, partial, b * m * n);
                    p += length;
                }
            }
        } finally {
            w.busy = false;
        }
        return partial;
    }

    private Workspace acquire() {
        Workspace w = WORKSPACES.get();
        if (w.busy) {
            w = new Workspace();
        }
        w.busy = true;
        int chunk = call.chunk;
        if (w.rows.length < call.m * chunk) {
            w.rows = new double[call.m * chunk];
        }
        if (w.columns.length < call.n * chunk) {
            w.columns = new double[call.n * chunk];
        }
        if (w.rowAt.length < call.m || w.columnAt.length < call.n) {
            w.rowAt = new int[call.m];
            w.columnAt = new int[call.n];
        }
        return w;
    }

    /**
     * rows[i·length + t] = A[b, i, p + t] and columns[j·length + t] = B[b, p + t, j], a run at a time,
     * where the chunk is not one run of the operand's K table; where it is, the chunk is read in place
     * (a weight gradient's output-gradient planes, hundreds of elements long, are not copied).
     */
    private void gather(Workspace w, int b, int p, int length, boolean rowsInPlace, boolean columnsInPlace) {
        Operand left = call.left;
        Operand right = call.right;
        long first = left.base() + left.batch()[b];
        for (int i = 0; i < call.m; i++) {
            if (rowsInPlace) {
                w.rowAt[i] = (int) (first + left.rows()[i] + left.cols()[p]);
            } else {
                w.rowAt[i] = i * length;
                DoublePacking.copyRuns(a, first + left.rows()[i], left.cols(), call.leftRuns, p, length, w.rows, i * length);
            }
        }
        long top = right.base() + right.batch()[b];
        for (int j = 0; j < call.n; j++) {
            if (columnsInPlace) {
                w.columnAt[j] = (int) (top + right.cols()[j] + right.rows()[p]);
            } else {
                w.columnAt[j] = j * length;
                DoublePacking.copyRuns(bm, top + right.cols()[j], right.rows(), call.rightRuns, p, length, w.columns,
                        j * length);
            }
        }
    }

    /**
     * partial[at + i·n + j] += row i · column j over the chunk: four columns at a time, which stay in L1
     * while every pair of rows is dotted with them (each column vector loaded once for two rows).
     */
    private void dot(Workspace w, int length, double[] rows, double[] columns, double[] partial, int at) {
        int m = call.m;
        int n = call.n;
        int[] rowAt = w.rowAt;
        int[] columnAt = w.columnAt;
        double[] sums = w.sums;
        int j = 0;
        for (; j + 4 <= n; j += 4) {
            int i = 0;
            for (; i + 2 <= m; i += 2) {
                kernel.dotRows(length, rows, rowAt[i], rowAt[i + 1], columns, columnAt[j], columnAt[j + 1],
                        columnAt[j + 2], columnAt[j + 3], sums, 0);
                add(partial, at + i * n + j, sums, 0);
                add(partial, at + (i + 1) * n + j, sums, 4);
            }
            if (i < m) {
                kernel.dotColumns(length, rows, rowAt[i], columns, columnAt[j], columnAt[j + 1], columnAt[j + 2],
                        columnAt[j + 3], sums, 0);
                add(partial, at + i * n + j, sums, 0);
            }
        }
        for (; j < n; j++) {
            for (int i = 0; i < m; i++) {
                partial[at + i * n + j] += kernel.dotColumn(length, rows, rowAt[i], columns, columnAt[j]);
            }
        }
    }

    /** partial[to + q] += sums[from + q] for q below 4. */
    private static void add(double[] partial, int to, double[] sums, int from) {
        partial[to] += sums[from];
        partial[to + 1] += sums[from + 1];
        partial[to + 2] += sums[from + 2];
        partial[to + 3] += sums[from + 3];
    }
}
