package dev.ein4j.cpu.gemm;

/**
 * An {@link Operand} with its offset tables classified once per call: a table that is
 * {@code t[0], t[0] + 1, t[0] + 2, …} (unit stride) lets packing and stores run as tight copies
 * instead of looking up every offset, and a table made of such runs (a window view's) lets packing
 * copy run by run ({@link Runs}).
 */
final class View {

    final long base;
    final long[] batch;
    final long[] rows;
    final long[] cols;
    /** Whether consecutive rows are adjacent elements. */
    final boolean unitRows;
    /** Whether consecutive columns are adjacent elements. */
    final boolean unitCols;
    /** The run length from each entry of {@link #rows} ({@link Runs}), or null where its runs are too short. */
    final int[] rowRuns;
    /** The run length from each entry of {@link #cols}, or null where its runs are too short to pay. */
    final int[] colRuns;
    /**
     * Whether packing copies runs of rows (one column's elements over a run of rows) rather than runs
     * of columns: where the rows' runs are the longer on average, unless the columns are all adjacent.
     */
    final boolean packsAlongRows;

    View(Operand operand) {
        this.base = operand.base();
        this.batch = operand.batch();
        this.rows = operand.rows();
        this.cols = operand.cols();
        this.unitRows = isUnit(rows);
        this.unitCols = isUnit(cols);
        // an adjacent table is one run, which the packing copies however short
        Runs rowRuns = unitRows ? Runs.measure(rows) : Runs.of(rows);
        Runs colRuns = unitCols ? Runs.measure(cols) : Runs.of(cols);
        this.rowRuns = rowRuns == null ? null : rowRuns.length;
        this.colRuns = colRuns == null ? null : colRuns.length;
        this.packsAlongRows = rowRuns != null && !unitCols && (colRuns == null || rowRuns.mean > colRuns.mean);
    }

    /** @return the operand this view classifies (its tables, shared) */
    Operand operand() {
        return new Operand(base, batch, rows, cols);
    }

    /** @return the index of element (b, row, col), which the caller guarantees is inside the array */
    int index(int b, int row, int col) {
        return (int) (base + batch[b] + rows[row] + cols[col]);
    }

    /** @return the offset of row {@code row} of batch {@code b}, to which a column offset is added */
    long rowOffset(int b, int row) {
        return base + batch[b] + rows[row];
    }

    /** @return whether {@code table[i] == table[0] + i} for every i (a table of 0 or 1 entries is) */
    static boolean isUnit(long[] table) {
        for (int i = 1; i < table.length; i++) {
            if (table[i] != table[i - 1] + 1) {
                return false;
            }
        }
        return true;
    }
}
