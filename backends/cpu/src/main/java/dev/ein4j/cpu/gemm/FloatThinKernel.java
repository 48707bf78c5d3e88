package dev.ein4j.cpu.gemm;

/**
 * The float loops of a thin product (C with at most {@link ThinCall#MAX_ROWS} rows, see
 * {@link FloatThinJob}), which read B once, in place, with no packing: a row-major B is added row by
 * row into rows of C, a B with contiguous columns is dotted column by column with rows of A.
 * Implementations touch nothing but the ranges named, and must not load {@code jdk.incubator.vector}
 * unless they are the vector ones. The twin for the other precision is the same text but for the
 * type (guarded by a test).
 */
interface FloatThinKernel {

    /**
     * {@code c[cAt + j] += x0·b[row0 + j] + x1·b[row1 + j] + x2·b[row2 + j] + x3·b[row3 + j]} for
     * every {@code j < width}, summed in that order: four rows of B into one row of C.
     *
     * @param width the number of columns
     * @param x0 the weight of the first row
     * @param x1 the weight of the second row
     * @param x2 the weight of the third row
     * @param x3 the weight of the fourth row
     * @param b B's array
     * @param row0 where the first row's columns start in {@code b}
     * @param row1 where the second row's columns start
     * @param row2 where the third row's columns start
     * @param row3 where the fourth row's columns start
     * @param c C's array (here a row buffer), added to
     * @param cAt where the row of C starts in {@code c}
     */
    void addRows(int width, float x0, float x1, float x2, float x3, float[] b, int row0, int row1, int row2,
            int row3, float[] c, int cAt);

    /**
     * {@code c[cAt + j] += x·b[row + j]} for every {@code j < width}: one row of B into one row of C.
     *
     * @param width the number of columns
     * @param x the row's weight
     * @param b B's array
     * @param row where the row's columns start in {@code b}
     * @param c C's array (here a row buffer), added to
     * @param cAt where the row of C starts in {@code c}
     */
    void addRow(int width, float x, float[] b, int row, float[] c, int cAt);

    /**
     * {@code sums[at + q] = Σ_{p < k} x[xAt + p] · b[columnQ + p]} for q = 0..3: one row of A dotted with
     * four columns of B whose k elements are each contiguous.
     *
     * @param k the length of the dot products
     * @param x A's row buffer
     * @param xAt where the row starts in {@code x}
     * @param b B's array
     * @param column0 where the first column starts in {@code b}
     * @param column1 where the second column starts
     * @param column2 where the third column starts
     * @param column3 where the fourth column starts
     * @param sums where the four sums are written, overwriting
     * @param at the first sum's index in {@code sums}
     */
    void dotColumns(int k, float[] x, int xAt, float[] b, int column0, int column1, int column2, int column3,
            float[] sums, int at);

    /**
     * @param k the length of the dot product
     * @param x A's row buffer
     * @param xAt where the row starts in {@code x}
     * @param b B's array
     * @param column where the column's k contiguous elements start in {@code b}
     * @return {@code Σ_{p < k} x[xAt + p] · b[column + p]}
     */
    float dotColumn(int k, float[] x, int xAt, float[] b, int column);

    /**
     * {@code sums[at + q] = Σ_{p < k} x[row0 + p] · b[columnQ + p]} and {@code sums[at + 4 + q]} the same
     * for {@code row1}, for q = 0..3: two rows of A dotted with four columns of B, all contiguous along
     * k (each column loaded once for both rows).
     *
     * @param k the length of the dot products
     * @param x A's rows' buffer
     * @param row0 where the first row starts in {@code x}
     * @param row1 where the second row starts
     * @param b B's columns' buffer
     * @param column0 where the first column starts in {@code b}
     * @param column1 where the second column starts
     * @param column2 where the third column starts
     * @param column3 where the fourth column starts
     * @param sums where the eight sums are written, overwriting
     * @param at the first sum's index in {@code sums}
     */
    void dotRows(int k, float[] x, int row0, int row1, float[] b, int column0, int column1, int column2,
            int column3, float[] sums, int at);

    /** @return the elements one vector of these loops holds (1 for the scalar loops) */
    int lanes();
}
