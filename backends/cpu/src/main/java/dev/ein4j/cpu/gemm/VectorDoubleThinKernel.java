package dev.ein4j.cpu.gemm;

import jdk.incubator.vector.DoubleVector;
import jdk.incubator.vector.VectorShuffle;
import jdk.incubator.vector.VectorSpecies;

/**
 * The Vector API loops of a thin product for double, over vectors of the preferred species: a
 * row-major B is added four rows per pass (one load and one store of C per four FMAs), a B with
 * contiguous columns is dotted four columns per pass (one load of A per four FMAs, four independent
 * accumulators). The tails shorter than a vector run as scalar FMAs. Loaded only reflectively, through
 * {@link ThinKernels}.
 * The twin for the other precision is the same text but for the type (guarded by a test).
 */
final class VectorDoubleThinKernel implements DoubleThinKernel {

    private static final VectorSpecies<Double> S = DoubleVector.SPECIES_PREFERRED;
    private static final int L = S.length();
    /** Lane i from lane i ^ span, for each span from half the lanes down to 1. */
    private static final VectorShuffle<Double>[] HALVINGS = halvings();

    @Override
    public void addRows(int width, double x0, double x1, double x2, double x3, double[] b, int row0, int row1,
            int row2, int row3, double[] c, int cAt) {
        DoubleVector v0 = DoubleVector.broadcast(S, x0);
        DoubleVector v1 = DoubleVector.broadcast(S, x1);
        DoubleVector v2 = DoubleVector.broadcast(S, x2);
        DoubleVector v3 = DoubleVector.broadcast(S, x3);
        int bound = S.loopBound(width);
        int j = 0;
        for (; j < bound; j += L) {
            DoubleVector sum = v0.fma(DoubleVector.fromArray(S, b, row0 + j), DoubleVector.fromArray(S, c, cAt + j));
            sum = v1.fma(DoubleVector.fromArray(S, b, row1 + j), sum);
            sum = v2.fma(DoubleVector.fromArray(S, b, row2 + j), sum);
            v3.fma(DoubleVector.fromArray(S, b, row3 + j), sum).intoArray(c, cAt + j);
        }
        for (; j < width; j++) {
            double sum = Math.fma(x0, b[row0 + j], c[cAt + j]);
            sum = Math.fma(x1, b[row1 + j], sum);
            sum = Math.fma(x2, b[row2 + j], sum);
            c[cAt + j] = Math.fma(x3, b[row3 + j], sum);
        }
    }

    @Override
    public void addRow(int width, double x, double[] b, int row, double[] c, int cAt) {
        DoubleVector v = DoubleVector.broadcast(S, x);
        int bound = S.loopBound(width);
        int j = 0;
        for (; j < bound; j += L) {
            v.fma(DoubleVector.fromArray(S, b, row + j), DoubleVector.fromArray(S, c, cAt + j)).intoArray(c, cAt + j);
        }
        for (; j < width; j++) {
            c[cAt + j] = Math.fma(x, b[row + j], c[cAt + j]);
        }
    }

    @Override
    public void dotColumns(int k, double[] x, int xAt, double[] b, int column0, int column1, int column2,
            int column3, double[] sums, int at) {
        DoubleVector sum0 = DoubleVector.zero(S);
        DoubleVector sum1 = sum0;
        DoubleVector sum2 = sum0;
        DoubleVector sum3 = sum0;
        int bound = S.loopBound(k);
        int p = 0;
        for (; p < bound; p += L) {
            DoubleVector value = DoubleVector.fromArray(S, x, xAt + p);
            sum0 = value.fma(DoubleVector.fromArray(S, b, column0 + p), sum0);
            sum1 = value.fma(DoubleVector.fromArray(S, b, column1 + p), sum1);
            sum2 = value.fma(DoubleVector.fromArray(S, b, column2 + p), sum2);
            sum3 = value.fma(DoubleVector.fromArray(S, b, column3 + p), sum3);
        }
        double total0 = sum(sum0);
        double total1 = sum(sum1);
        double total2 = sum(sum2);
        double total3 = sum(sum3);
        for (; p < k; p++) {
            double value = x[xAt + p];
            total0 = Math.fma(value, b[column0 + p], total0);
            total1 = Math.fma(value, b[column1 + p], total1);
            total2 = Math.fma(value, b[column2 + p], total2);
            total3 = Math.fma(value, b[column3 + p], total3);
        }
        sums[at] = total0;
        sums[at + 1] = total1;
        sums[at + 2] = total2;
        sums[at + 3] = total3;
    }

    @Override
    public double dotColumn(int k, double[] x, int xAt, double[] b, int column) {
        DoubleVector sum = DoubleVector.zero(S);
        int bound = S.loopBound(k);
        int p = 0;
        for (; p < bound; p += L) {
            sum = DoubleVector.fromArray(S, x, xAt + p).fma(DoubleVector.fromArray(S, b, column + p), sum);
        }
        double total = sum(sum);
        for (; p < k; p++) {
            total = Math.fma(x[xAt + p], b[column + p], total);
        }
        return total;
    }

    @Override
    public void dotRows(int k, double[] x, int row0, int row1, double[] b, int column0, int column1, int column2,
            int column3, double[] sums, int at) {
        DoubleVector sum00 = DoubleVector.zero(S);
        DoubleVector sum01 = sum00;
        DoubleVector sum02 = sum00;
        DoubleVector sum03 = sum00;
        DoubleVector sum10 = sum00;
        DoubleVector sum11 = sum00;
        DoubleVector sum12 = sum00;
        DoubleVector sum13 = sum00;
        int bound = S.loopBound(k);
        int p = 0;
        for (; p < bound; p += L) {
            DoubleVector first = DoubleVector.fromArray(S, x, row0 + p);
            DoubleVector second = DoubleVector.fromArray(S, x, row1 + p);
            DoubleVector column = DoubleVector.fromArray(S, b, column0 + p);
            sum00 = first.fma(column, sum00);
            sum10 = second.fma(column, sum10);
            column = DoubleVector.fromArray(S, b, column1 + p);
            sum01 = first.fma(column, sum01);
            sum11 = second.fma(column, sum11);
            column = DoubleVector.fromArray(S, b, column2 + p);
            sum02 = first.fma(column, sum02);
            sum12 = second.fma(column, sum12);
            column = DoubleVector.fromArray(S, b, column3 + p);
            sum03 = first.fma(column, sum03);
            sum13 = second.fma(column, sum13);
        }
        sums[at] = sum(sum00);
        sums[at + 1] = sum(sum01);
        sums[at + 2] = sum(sum02);
        sums[at + 3] = sum(sum03);
        sums[at + 4] = sum(sum10);
        sums[at + 5] = sum(sum11);
        sums[at + 6] = sum(sum12);
        sums[at + 7] = sum(sum13);
        for (; p < k; p++) {
            double first = x[row0 + p];
            double second = x[row1 + p];
            sums[at] = Math.fma(first, b[column0 + p], sums[at]);
            sums[at + 1] = Math.fma(first, b[column1 + p], sums[at + 1]);
            sums[at + 2] = Math.fma(first, b[column2 + p], sums[at + 2]);
            sums[at + 3] = Math.fma(first, b[column3 + p], sums[at + 3]);
            sums[at + 4] = Math.fma(second, b[column0 + p], sums[at + 4]);
            sums[at + 5] = Math.fma(second, b[column1 + p], sums[at + 5]);
            sums[at + 6] = Math.fma(second, b[column2 + p], sums[at + 6]);
            sums[at + 7] = Math.fma(second, b[column3 + p], sums[at + 7]);
        }
    }

    @Override
    public int lanes() {
        return L;
    }

    /**
     * The sum of a vector's lanes in a fixed order, halves first: {@code reduceLanes(ADD)} leaves the
     * order to the implementation, and the interpreter's and C2's differ, so a product gave other
     * bits once the JIT had compiled it (a training step's weight gradient changed between its first
     * and fourth run with the same inputs).
     */
    private static double sum(DoubleVector v) {
        for (VectorShuffle<Double> halving : HALVINGS) {
            v = v.add(v.rearrange(halving));
        }
        return v.lane(0);
    }

    @SuppressWarnings("unchecked")
    private static VectorShuffle<Double>[] halvings() {
        int steps = Integer.numberOfTrailingZeros(L);
        VectorShuffle<Double>[] halvings = new VectorShuffle[steps];
        for (int step = 0, span = L / 2; step < steps; step++, span /= 2) {
            int distance = span;
            halvings[step] = VectorShuffle.fromOp(S, lane -> lane ^ distance);
        }
        return halvings;
    }
}
