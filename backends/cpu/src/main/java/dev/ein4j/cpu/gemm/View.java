package dev.ein4j.cpu.gemm;

/**
 * An {@link Operand} with its offset tables classified once per call: a table that is
 * {@code t[0], t[0] + 1, t[0] + 2, …} (unit stride) lets packing and stores run as tight copies
 * instead of looking up every offset.
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

    View(Operand operand) {
        this.base = operand.base();
        this.batch = operand.batch();
        this.rows = operand.rows();
        this.cols = operand.cols();
        this.unitRows = isUnit(rows);
        this.unitCols = isUnit(cols);
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
