package dev.ein4j.cpu.gemm;

import java.util.Objects;

/**
 * Addressing of one GEMM operand: element {@code (b, row, col)} is at
 * {@code base + batch[b] + rows[row] + cols[col]} in the operand's array. The tables may hold any
 * offsets (strides of 0 for broadcasts, non-arithmetic sequences for multi-dimensional index groups);
 * only the sums need to be valid array indices.
 *
 * @param base the offset added to every element
 * @param batch one offset per batch entry
 * @param rows one offset per row (along M for A and C, along K for B)
 * @param cols one offset per column (along K for A, along N for B and C)
 */
public record Operand(long base, long[] batch, long[] rows, long[] cols) {

    /** Checks that no table is null. */
    public Operand {
        Objects.requireNonNull(batch, "batch");
        Objects.requireNonNull(rows, "rows");
        Objects.requireNonNull(cols, "cols");
    }

    /** @return the operand with rows and columns swapped (its transpose), sharing the tables */
    Operand transposed() {
        return new Operand(base, batch, cols, rows);
    }

    /** @return the index of element (b, row, col), which the caller guarantees is inside the array */
    int index(int b, int row, int col) {
        return (int) (base + batch[b] + rows[row] + cols[col]);
    }
}
