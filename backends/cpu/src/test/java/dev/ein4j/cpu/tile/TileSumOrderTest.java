package dev.ein4j.cpu.tile;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * A tile's sum adds in one order, the same before and after the JIT compiles it: the vector loops'
 * lanes front to back ({@code reduceLanes(ADD)} leaves the order to the implementation; the thin
 * products' interpreted and compiled orders differed, see the GEMM's ThinSumOrderTest), the plain-Java
 * loops four partial sums. The elements 10¹⁷, 1, −10¹⁷,
 * 1 sum to 1 front to back in float64, to 2 pairwise and to 0 in four partial sums; each precision's
 * sum is called until it is compiled.
 */
class TileSumOrderTest {

    private static final int CALLS = 30_000;

    /** What each loop's order gives for the elements above. */
    private static double expected(TileOps ops) {
        return ops.kind().equals("vector") ? 1.0 : 0.0;
    }

    @Test
    void doubleSumsAddLanesFrontToBack() {
        TileOps ops = TileOps.get();
        double[] x = new double[64];
        x[0] = 1e17;
        x[1] = 1;
        x[2] = -1e17;
        x[3] = 1;
        for (int call = 0; call < CALLS; call++) {
            assertThat(ops.sum(x, 0, 64)).isEqualTo(expected(ops));
        }
    }

    @Test
    void floatSumsAddLanesFrontToBack() {
        // float lanes are summed in double: 10⁸ + 1 is exact there, so the cancellation needs 10¹⁷ too
        TileOps ops = TileOps.get();
        float[] x = new float[64];
        x[0] = 1e17f;
        x[1] = 1;
        x[2] = -1e17f;
        x[3] = 1;
        for (int call = 0; call < CALLS; call++) {
            assertThat(ops.sum(x, 0, 64)).isEqualTo(expected(ops));
        }
    }
}
