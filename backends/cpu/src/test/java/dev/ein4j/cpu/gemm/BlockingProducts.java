package dev.ein4j.cpu.gemm;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Random;

/**
 * Runs one row-major product through a job with given blocks and compares C with a triple loop summed
 * in double: whatever blocks the machine or its tuning picks, the answer must not change.
 */
final class BlockingProducts {

    private BlockingProducts() {
    }

    static void checkFloat(FloatKernel kernel, Blocking blocking, int m, int n, int k, Random random) {
        double[] a = values(random, m * k);
        double[] b = values(random, k * n);
        float[] af = new float[a.length];
        float[] bf = new float[b.length];
        for (int i = 0; i < a.length; i++) {
            af[i] = (float) a[i];
        }
        for (int i = 0; i < b.length; i++) {
            bf[i] = (float) b[i];
        }
        float[] c = new float[m * n];
        java.util.Arrays.fill(c, Float.NaN);
        new FloatJob(k, af, rowMajor(m, k), bf, rowMajor(k, n), c, rowMajor(m, n), kernel, null, blocking)
                .run(0, 0, m, 0, n);
        double[] expected = reference(a, b, m, n, k);
        for (int i = 0; i < m * n; i++) {
            assertThat((double) c[i]).as("%s %d×%d×%d at %d", blocking, m, n, k, i)
                    .isCloseTo(expected[i], org.assertj.core.api.Assertions.within(1e-5 * Math.sqrt(k) + 1e-6));
        }
    }

    static void checkDouble(DoubleKernel kernel, Blocking blocking, int m, int n, int k, Random random) {
        double[] a = values(random, m * k);
        double[] b = values(random, k * n);
        double[] c = new double[m * n];
        java.util.Arrays.fill(c, Double.NaN);
        new DoubleJob(k, a, rowMajor(m, k), b, rowMajor(k, n), c, rowMajor(m, n), kernel, null, blocking)
                .run(0, 0, m, 0, n);
        double[] expected = reference(a, b, m, n, k);
        for (int i = 0; i < m * n; i++) {
            assertThat(c[i]).as("%s %d×%d×%d at %d", blocking, m, n, k, i)
                    .isCloseTo(expected[i], org.assertj.core.api.Assertions.within(1e-12 * k + 1e-13));
        }
    }

    private static double[] reference(double[] a, double[] b, int m, int n, int k) {
        double[] c = new double[m * n];
        for (int i = 0; i < m; i++) {
            for (int p = 0; p < k; p++) {
                double x = a[i * k + p];
                for (int j = 0; j < n; j++) {
                    c[i * n + j] += x * b[p * n + j];
                }
            }
        }
        return c;
    }

    /** Values that float holds exactly (multiples of 1/64 in [-2, 2)), so both precisions see the same. */
    private static double[] values(Random random, int length) {
        double[] values = new double[length];
        for (int i = 0; i < length; i++) {
            values[i] = (random.nextInt(256) - 128) / 64.0;
        }
        return values;
    }

    private static View rowMajor(int rows, int cols) {
        return new View(Layout.rowMajor(1, rows, cols).operand);
    }
}
