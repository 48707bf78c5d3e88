package dev.ein4j.cpu.gemm;

/**
 * The plain-Java loops of a thin product for float. The twin for the other precision is the same
 * text but for the type (guarded by a test).
 */
final class ScalarFloatThinKernel implements FloatThinKernel {

    @Override
    public void addRows(int width, float x0, float x1, float x2, float x3, float[] b, int row0, int row1,
            int row2, int row3, float[] c, int cAt) {
        for (int j = 0; j < width; j++) {
            float sum = c[cAt + j] + x0 * b[row0 + j];
            sum += x1 * b[row1 + j];
            sum += x2 * b[row2 + j];
            c[cAt + j] = sum + x3 * b[row3 + j];
        }
    }

    @Override
    public void addRow(int width, float x, float[] b, int row, float[] c, int cAt) {
        for (int j = 0; j < width; j++) {
            c[cAt + j] += x * b[row + j];
        }
    }

    @Override
    public void dotColumns(int k, float[] x, int xAt, float[] b, int column0, int column1, int column2,
            int column3, float[] sums, int at) {
        float sum0 = 0;
        float sum1 = 0;
        float sum2 = 0;
        float sum3 = 0;
        for (int p = 0; p < k; p++) {
            float value = x[xAt + p];
            sum0 += value * b[column0 + p];
            sum1 += value * b[column1 + p];
            sum2 += value * b[column2 + p];
            sum3 += value * b[column3 + p];
        }
        sums[at] = sum0;
        sums[at + 1] = sum1;
        sums[at + 2] = sum2;
        sums[at + 3] = sum3;
    }

    @Override
    public float dotColumn(int k, float[] x, int xAt, float[] b, int column) {
        float sum = 0;
        for (int p = 0; p < k; p++) {
            sum += x[xAt + p] * b[column + p];
        }
        return sum;
    }

    @Override
    public void dotRows(int k, float[] x, int row0, int row1, float[] b, int column0, int column1, int column2,
            int column3, float[] sums, int at) {
        dotColumns(k, x, row0, b, column0, column1, column2, column3, sums, at);
        dotColumns(k, x, row1, b, column0, column1, column2, column3, sums, at + 4);
    }

    @Override
    public int lanes() {
        return 1;
    }
}
