package dev.ein4j.cpu.gemm;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * The thin products' dot products sum their vector lanes in one documented order, the same before and
 * after the JIT compiles them: the vector kernels halves first (lane i with lane i + L/2, then L/4, ...),
 * the plain-Java ones front to back. {@code reduceLanes(ADD)} had left it to the implementation, and the
 * interpreter's order and C2's differed: the same training step gave other weight-gradient bits in its
 * first runs than later. Lanes are chosen so that the orders give different sums (1 + 10⁸ − 10⁸ + 1 is
 * 1 front to back in float32 and 2 halves first), and each kernel is called until it is compiled.
 */
class ThinSumOrderTest {

    private static final int CALLS = 30_000;

    @Test
    void floatDotProductsSumInOneOrder() {
        ThinKernels kernels = ThinKernels.of(Kernels.load().kind());
        FloatThinKernel kernel = kernels.floats;
        int lanes = kernel.lanes();
        float[] x = lanesWithCancellation(lanes, 1e8f);
        float[] ones = new float[lanes];
        java.util.Arrays.fill(ones, 1f);
        float expected = lanes > 1 ? halvesFirst(x) : frontToBack(x);
        float[] sums = new float[8];
        for (int call = 0; call < CALLS; call++) {
            assertThat(kernel.dotColumn(lanes, x, 0, ones, 0)).isEqualTo(expected);
            kernel.dotColumns(lanes, x, 0, ones, 0, 0, 0, 0, sums, 0);
            assertThat(sums[0]).isEqualTo(expected);
            assertThat(sums[3]).isEqualTo(expected);
            kernel.dotRows(lanes, x, 0, 0, ones, 0, 0, 0, 0, sums, 0);
            assertThat(sums[0]).isEqualTo(expected);
            assertThat(sums[7]).isEqualTo(expected);
        }
    }

    @Test
    void doubleDotProductsSumInOneOrder() {
        ThinKernels kernels = ThinKernels.of(Kernels.load().kind());
        DoubleThinKernel kernel = kernels.doubles;
        int lanes = kernel.lanes();
        double[] x = lanesWithCancellation(lanes, 1e17); // 1 + 10¹⁷ is 10¹⁷ in float64
        double[] ones = new double[lanes];
        java.util.Arrays.fill(ones, 1);
        double expected = lanes > 1 ? halvesFirst(x) : frontToBack(x);
        double[] sums = new double[8];
        for (int call = 0; call < CALLS; call++) {
            assertThat(kernel.dotColumn(lanes, x, 0, ones, 0)).isEqualTo(expected);
            kernel.dotColumns(lanes, x, 0, ones, 0, 0, 0, 0, sums, 0);
            assertThat(sums[2]).isEqualTo(expected);
            kernel.dotRows(lanes, x, 0, 0, ones, 0, 0, 0, 0, sums, 0);
            assertThat(sums[5]).isEqualTo(expected);
        }
    }

    @Test
    void theOrdersDifferOnTheseLanes() {
        // guards the test itself: with 4 or more lanes the two orders must disagree
        float[] x = lanesWithCancellation(16, 1e8f);
        assertThat(halvesFirst(x)).isEqualTo(2f);
        assertThat(frontToBack(x)).isEqualTo(1f);
    }

    /** Lanes big, 1, −big, 1, then zeros (fewer than 4 lanes: all 1). */
    private static double[] lanesWithCancellation(int lanes, double big) {
        double[] x = new double[lanes];
        if (lanes < 4) {
            java.util.Arrays.fill(x, 1);
            return x;
        }
        x[0] = big;
        x[1] = 1;
        x[2] = -big;
        x[3] = 1;
        return x;
    }

    private static float[] lanesWithCancellation(int lanes, float big) {
        double[] wide = lanesWithCancellation(lanes, (double) big);
        float[] x = new float[lanes];
        for (int i = 0; i < lanes; i++) {
            x[i] = (float) wide[i];
        }
        return x;
    }

    private static float halvesFirst(float[] lanes) {
        float[] v = lanes.clone();
        for (int span = v.length / 2; span >= 1; span /= 2) {
            float[] next = new float[v.length];
            for (int i = 0; i < v.length; i++) {
                next[i] = v[i] + v[i ^ span];
            }
            v = next;
        }
        return v[0];
    }

    private static double halvesFirst(double[] lanes) {
        double[] v = lanes.clone();
        for (int span = v.length / 2; span >= 1; span /= 2) {
            double[] next = new double[v.length];
            for (int i = 0; i < v.length; i++) {
                next[i] = v[i] + v[i ^ span];
            }
            v = next;
        }
        return v[0];
    }

    private static float frontToBack(float[] lanes) {
        float total = 0;
        for (float lane : lanes) {
            total = Math.fma(lane, 1f, total);
        }
        return total;
    }

    private static double frontToBack(double[] lanes) {
        double total = 0;
        for (double lane : lanes) {
            total = Math.fma(lane, 1, total);
        }
        return total;
    }
}
