package dev.ein4j.cpu.gemm;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The dot path ({@link DotCall}: small C, K in runs on both sides) against the triple loop of
 * {@link GemmTest#check}: convolution weight gradients of every C side from 1 to past a tile, odd
 * rows and column counts that are not multiples of four (both orientations of the kernel), strided and
 * dilated windows, groups as batches, K across several chunks and runs cut by chunk edges, both
 * precisions. With the Vector API kernels each case first asserts that the engine takes the dot path
 * (the cases keep a side of C within 8, half the narrowest vector tile's columns); the scalar 4 × 4
 * tiles waste little and take it only for C with a side of 1 or 2, so the build's scalar execution
 * checks the values of whichever path; the execution with {@code -Dein4j.cpu.gemm.dot=true} sends
 * the other GEMM tests through the dot path. Which products take it
 * is tested on the cost model directly; NaN reaches exactly the row it is in.
 */
class DotGemmTest {

    private static final Gemm GEMM = Gemm.get();
    private static final int LANES = 16;
    private static final boolean VECTOR = GEMM.kind().equals("vector");
    /** Whether this run forces the dot path on every product ({@code -Dein4j.cpu.gemm.dot=true}). */
    private static final boolean FORCED = "true".equalsIgnoreCase(System.getProperty("ein4j.cpu.gemm.dot", "").trim());

    @Test
    void smallWeightGradientsTakeTheDotPathAndLargeOnesThePackedTiles() {
        // the flagship's first layer (9 taps × 32 channels), a 5 × 5 RGB one, a 16-channel 3 × 3 one
        assertThat(DotCall.pays(9, 32, LANES, 5, 64)).isTrue();
        assertThat(DotCall.pays(32, 9, LANES, 5, 64)).isTrue();
        assertThat(DotCall.pays(75, 32, LANES, 5, 64)).isTrue();
        assertThat(DotCall.pays(144, 32, LANES, 5, 64)).isTrue();
        // no side at most half the tile's columns: the packed tiles waste little
        assertThat(DotCall.pays(288, 64, LANES, 5, 64)).isFalse();
        assertThat(DotCall.pays(64, 288, LANES, 5, 64)).isFalse();
        assertThat(DotCall.pays(1024, 1024, LANES, 5, 64)).isFalse();
    }

    @Test
    void onlyOperandsWithLongRunsAlongKTakeIt() {
        Window unitStride = new Window(2, 1, 30, 30, 3, 3, 1, 1, false, false, 1);
        assertThat(vectorCall(unitStride, 32)).as("runs of 28 along K").isNotNull();
        // stride 2: the window's K entries are two apart, runs of 1
        Window strided = new Window(2, 1, 30, 30, 3, 3, 2, 1, false, false, 1);
        assertThat(vectorCall(strided, 32) != null).as("a stride-2 window (unless forced)").isEqualTo(FORCED);
        // rows of 6 pixels: runs too short to copy one at a time
        Window narrow = new Window(40, 1, 8, 8, 3, 3, 1, 1, false, false, 1);
        assertThat(vectorCall(narrow, 32) != null).as("runs of 6 (unless forced)").isEqualTo(FORCED);
        Operand row = Layout.rowMajor(1, 4, 4).operand;
        assertThat(DotCall.of(1, 4, 4, 0, row, row, row, null, LANES, 5, 64, Float.BYTES)).as("k = 0").isNull();
    }

    @Test
    void theKernelsColumnsAreTheSideThatIsAMultipleOfFour() {
        assertThat(DotCall.swaps(32, 9)).isTrue();
        assertThat(DotCall.swaps(9, 32)).isFalse();
        assertThat(DotCall.swaps(7, 5)).as("neither: the shorter side").isFalse();
        assertThat(DotCall.swaps(5, 7)).isTrue();
        assertThat(DotCall.swaps(8, 12)).as("both: the shorter side").isTrue();
    }

    @Test
    void weightGradientsOfEverySmallShape() {
        Random random = new Random(23);
        int[] outChannels = {1, 2, 3, 4, 5, 7, 8};
        int trial = 0;
        for (int channels : new int[] {1, 2, 3, 5}) {
            for (int out : outChannels) {
                int side = 9 + random.nextInt(24);
                int kernel = 1 + random.nextInt(5);
                int dilation = random.nextInt(4) == 0 ? 2 : 1;
                int extent = side + (kernel - 1) * dilation;
                Window window = new Window(1 + random.nextInt(3), channels, extent, extent, kernel, kernel, 1,
                        dilation, false, false, 1 + random.nextInt(2));
                boolean dbl = trial % 2 == 1;
                if (VECTOR) {
                    assertThat(dotCall(window, out)).as("%s to %d channels takes the dot path", window, out).isNotNull();
                }
                ConvolutionGemmTest.weightGradient(window, out, dbl, trial++);
            }
        }
    }

    /**
     * K of 10,935 (odd, so no chunk of whole vectors divides it) over runs of 27: several chunks, runs cut
     * by their edges, and one slice per thread.
     */
    @Test
    void deepProductsAcrossChunksAndThreads() {
        Window window = new Window(15, 3, 29, 29, 3, 3, 1, 1, false, false, 1);
        for (boolean dbl : new boolean[] {false, true}) {
            for (int out : new int[] {6, 8}) {
                if (VECTOR) {
                    assertThat(dotCall(window, out)).as("the dot path").isNotNull();
                }
                DotCall call = vectorCall(window, out);
                assertThat(call.k).isGreaterThan(3 * call.chunk);
                assertThat(call.k % call.chunk).isNotZero();
                assertThat(call.parts(2, 0)).as("one slice per thread").isEqualTo(2);
                ConvolutionGemmTest.weightGradient(window, out, dbl, out);
            }
        }
    }

    /**
     * Output-gradient planes of 784 (28 × 28) are read in place, chunks cut where a plane ends: as the
     * kernel's columns (8 channels out, swapped) and as its rows (5 channels out over 16 taps), each
     * precision, against the triple loop.
     */
    @Test
    void longRunsAreReadInPlaceOnEitherSide() {
        Window threeByThree = new Window(6, 1, 30, 30, 3, 3, 1, 1, false, false, 1);
        Window twoByTwo = new Window(6, 4, 29, 29, 2, 2, 1, 1, false, false, 1);
        for (boolean dbl : new boolean[] {false, true}) {
            DotCall columns = vectorCall(threeByThree, 8);
            assertThat(columns.swapped).as("the planes are the kernel's columns").isTrue();
            assertThat(columns.rightRuns[0]).isEqualTo(784).isGreaterThan(columns.chunk / 2).isLessThan(2 * columns.chunk);
            ConvolutionGemmTest.weightGradient(threeByThree, 8, dbl, 41);
            DotCall rows = vectorCall(twoByTwo, 5);
            assertThat(rows.swapped).as("the planes are the kernel's rows").isFalse();
            assertThat(rows.leftRuns[0]).isEqualTo(784).isGreaterThan(rows.chunk / 2);
            ConvolutionGemmTest.weightGradient(twoByTwo, 5, dbl, 42);
        }
    }

    @Test
    void nanReachesTheRowsItIsIn() {
        Window window = new Window(2, 1, 30, 30, 3, 3, 1, 1, false, false, 1);
        int out = 8;
        Operand gradient = window.outputGradient(out);
        if (VECTOR) {
            assertThat(dotCall(window, out)).as("the dot path").isNotNull();
        }
        float[] dy = new float[window.outputGradientSize(out)];
        Arrays.fill(dy, 0.5f);
        float[] x = new float[window.inputSize()];
        Arrays.fill(x, 1f);
        dy[(int) (gradient.rows()[3] + gradient.cols()[100])] = Float.NaN;
        int taps = window.taps();
        float[] dw = new float[out * taps];
        GEMM.multiply(1, out, taps, window.positions(), dy, gradient, x, window.input(), dw, weights(window, out), null);
        for (int o = 0; o < out; o++) {
            for (int t = 0; t < taps; t++) {
                float value = dw[o * taps + t];
                if (o == 3) {
                    assertThat(value).as("dw[%d, %d]", o, t).isNaN();
                } else {
                    assertThat(value).as("dw[%d, %d]", o, t).isEqualTo(0.5f * window.positions());
                }
            }
        }
    }

    /** @return the call of this weight gradient with 16-lane vector kernels' 5 × 64 tiles (float32) */
    private static DotCall vectorCall(Window window, int outChannels) {
        return DotCall.of(window.groups, outChannels, window.taps(), window.positions(), window.outputGradient(outChannels),
                window.input(), weights(window, outChannels), null, LANES, 5, 64, Float.BYTES);
    }

    /** @return the call {@link Gemm} makes of this weight gradient (float32), or null if it takes another path */
    private static DotCall dotCall(Window window, int outChannels) {
        return GEMM.dotCall(window.groups, outChannels, window.taps(), window.positions(),
                window.outputGradient(outChannels), window.input(), weights(window, outChannels), null, false);
    }

    /** @return the weight gradient's C: [group, channels out, taps], compact */
    private static Operand weights(Window window, int outChannels) {
        int taps = window.taps();
        return new Operand(0, Layout.progression(window.groups, (long) outChannels * taps),
                Layout.progression(outChannels, taps), Layout.progression(taps, 1));
    }
}
