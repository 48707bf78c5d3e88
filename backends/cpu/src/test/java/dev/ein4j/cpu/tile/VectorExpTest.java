package dev.ein4j.cpu.tile;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Random;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * The vectorized float32 exp against {@link Math#exp} rounded to float: within 2 ulp over the whole
 * range (random inputs, the ends of the range, near zero), exact at the special values. Runs
 * through {@link TileOps}, so it also covers the tail of a tile that is not a whole vector.
 */
class VectorExpTest {

    @Test
    void expIsWithinTwoUlpOfTheCorrectlyRoundedValue() {
        TileOps ops = TileOps.get();
        Assumptions.assumeTrue(ops.kind().equals("vector"), "the Vector API is not on this run's module path");
        Random random = new Random(42);
        int n = 200_003;
        float[] x = new float[n];
        for (int i = 0; i < n; i++) {
            x[i] = switch (i % 4) {
                case 0 -> (float) (random.nextDouble() * 210 - 105); // the whole range, both ends
                case 1 -> (float) (random.nextDouble() * 2 - 1);      // around zero
                case 2 -> (float) (random.nextGaussian() * 1e-6);     // tiny: e^x ≈ 1 + x
                default -> 88f + random.nextFloat() * 0.8f;           // near overflow (88.72)
            };
        }
        float[] out = new float[n];
        ops.unary(dev.ein4j.ir.Op.EXP, x, out, n);
        for (int i = 0; i < n; i++) {
            float expected = (float) Math.exp(x[i]);
            if (Float.isInfinite(expected) || expected == 0f) {
                assertThat(out[i]).as("exp(%s)", x[i]).isEqualTo(expected);
            } else if (expected < Float.MIN_NORMAL) {
                // subnormal results: within two of the smallest steps
                assertThat(Math.abs(out[i] - expected)).as("exp(%s)", x[i]).isLessThanOrEqualTo(2 * Float.MIN_VALUE);
            } else {
                assertThat(Math.abs(out[i] - expected)).as("exp(%s) = %s", x[i], expected)
                        .isLessThanOrEqualTo(2 * Math.ulp(expected));
            }
        }
    }

    @Test
    void specialValuesAreExact() {
        TileOps ops = TileOps.get();
        Assumptions.assumeTrue(ops.kind().equals("vector"), "the Vector API is not on this run's module path");
        float[] x = {Float.NaN, Float.POSITIVE_INFINITY, Float.NEGATIVE_INFINITY, 0f, -0f, 89f, 88.7229f, -104f, -110f,
            -1e30f, 1e30f, 1f, -1f, Float.NaN, 0f, 0f, 0f, 0f};
        float[] out = new float[x.length];
        ops.unary(dev.ein4j.ir.Op.EXP, x, out, x.length);
        assertThat(out[0]).isNaN();
        assertThat(out[1]).isEqualTo(Float.POSITIVE_INFINITY);
        assertThat(out[2]).isEqualTo(0f);
        assertThat(out[3]).isEqualTo(1f);
        assertThat(out[4]).isEqualTo(1f);
        assertThat(out[5]).isEqualTo(Float.POSITIVE_INFINITY);
        assertThat(out[6]).isEqualTo(Float.POSITIVE_INFINITY);
        assertThat(out[7]).isEqualTo((float) Math.exp(-104));
        assertThat(out[8]).isEqualTo(0f);
        assertThat(out[9]).isEqualTo(0f);
        assertThat(out[10]).isEqualTo(Float.POSITIVE_INFINITY);
        assertThat(Math.abs(out[11] - (float) Math.E)).isLessThanOrEqualTo(Math.ulp((float) Math.E));
        assertThat(Math.abs(out[12] - (float) Math.exp(-1))).isLessThanOrEqualTo(Math.ulp((float) Math.exp(-1)));
        assertThat(out[13]).isNaN();
    }
}
