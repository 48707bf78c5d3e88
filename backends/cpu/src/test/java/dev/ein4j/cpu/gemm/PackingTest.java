package dev.ein4j.cpu.gemm;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Packed panels against the definition element by element ({@code a[base + batch[b] + rows[i] +
 * cols[p]]} at its sliver position, zero past the edges), for window views whose tables come in runs
 * of every length (strided, dilated, flipped, channels-first and -last, grouped) and for panels at
 * every offset and size, so that runs are cut by panel and sliver edges.
 */
class PackingTest {

    @Test
    void panelsOfWindowsMatchTheDefinition() {
        Random random = new Random(20261202);
        for (int trial = 0; trial < 300; trial++) {
            Window window = Window.random(random, 5, 24);
            Operand input = window.input();
            int mr = 1 + random.nextInt(8);
            int nr = 1 + random.nextInt(24);
            checkPanels(window + " as A", input, window.positions(), window.taps(), window.inputSize(),
                    window.groups, mr, nr, random);
            checkPanels(window + " as Aᵀ", input.transposed(), window.taps(), window.positions(),
                    window.inputSize(), window.groups, mr, nr, random);
        }
    }

    @Test
    void rowMajorTransposedAndScatteredOperands() {
        Random random = new Random(7);
        for (int trial = 0; trial < 40; trial++) {
            int rows = 1 + random.nextInt(70);
            int cols = 1 + random.nextInt(70);
            Layout layout = switch (trial % 3) {
                case 0 -> Layout.rowMajor(2, rows, cols);
                case 1 -> Layout.transposed(2, rows, cols);
                default -> Layout.random(random, 2, rows, cols, true);
            };
            checkPanels("layout " + trial, layout.operand, rows, cols, layout.size, 2, 1 + random.nextInt(8),
                    1 + random.nextInt(24), random);
        }
    }

    /** Packs random sub-panels of one operand as A and as B, in both precisions. */
    private static void checkPanels(String what, Operand operand, int rows, int cols, int size, int batches, int mr,
            int nr, Random random) {
        double[] source = new double[size];
        float[] sourceFloat = new float[size];
        for (int i = 0; i < size; i++) {
            source[i] = i + 1;
            sourceFloat[i] = i + 1;
        }
        View view = new View(operand);
        for (int panel = 0; panel < 4; panel++) {
            int b = random.nextInt(batches);
            int r0 = random.nextInt(rows);
            int rowCount = 1 + random.nextInt(rows - r0);
            int c0 = random.nextInt(cols);
            int colCount = 1 + random.nextInt(cols - c0);
            String at = String.format("%s, panel [%d, %d+%d, %d+%d] mr %d nr %d", what, b, r0, rowCount, c0,
                    colCount, mr, nr);
            double[] expectedA = expectedA(view, b, r0, rowCount, c0, colCount, mr);
            double[] packedA = new double[expectedA.length];
            DoublePacking.packA(source, view, b, r0, rowCount, c0, colCount, mr, packedA);
            assertThat(packedA).as("f64 A " + at).containsExactly(expectedA);
            float[] packedAFloat = new float[expectedA.length];
            FloatPacking.packA(sourceFloat, view, b, r0, rowCount, c0, colCount, mr, packedAFloat);
            assertThat(widened(packedAFloat)).as("f32 A " + at).containsExactly(expectedA);
            double[] expectedB = expectedB(view, b, r0, rowCount, c0, colCount, nr);
            double[] packedB = new double[expectedB.length];
            DoublePacking.packB(source, view, b, r0, rowCount, c0, colCount, nr, packedB);
            assertThat(packedB).as("f64 B " + at).containsExactly(expectedB);
            float[] packedBFloat = new float[expectedB.length];
            FloatPacking.packB(sourceFloat, view, b, r0, rowCount, c0, colCount, nr, packedBFloat);
            assertThat(widened(packedBFloat)).as("f32 B " + at).containsExactly(expectedB);
        }
    }

    /** Row i of the panel at i·kc (slivers of mr rows are consecutive), zero rows up to a multiple of mr. */
    private static double[] expectedA(View v, int b, int i0, int mc, int p0, int kc, int mr) {
        double[] packed = new double[Blocking.roundUp(mc, mr) * kc];
        for (int i = 0; i < mc; i++) {
            for (int p = 0; p < kc; p++) {
                packed[i * kc + p] = v.index(b, i0 + i, p0 + p) + 1;
            }
        }
        return packed;
    }

    /** Column j in sliver j / nr at (j / nr)·nr·kc + p·nr + j % nr, zero columns up to a multiple of nr. */
    private static double[] expectedB(View v, int b, int p0, int kc, int j0, int nc, int nr) {
        double[] packed = new double[Blocking.roundUp(nc, nr) * kc];
        for (int p = 0; p < kc; p++) {
            for (int j = 0; j < nc; j++) {
                packed[(j / nr) * nr * kc + p * nr + j % nr] = v.index(b, p0 + p, j0 + j) + 1;
            }
        }
        return packed;
    }

    private static double[] widened(float[] values) {
        double[] wide = new double[values.length];
        for (int i = 0; i < values.length; i++) {
            wide[i] = values[i];
        }
        return wide;
    }
}
