package dev.ein4j.cpu.gemm;

import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Convolutions as the einsum lowering hands them to the GEMM (window views, no im2col buffer), checked
 * against the triple loop of {@link GemmTest#check}: the forward product and the weight gradient, over
 * windows strided, dilated, flipped (the input gradient's), channels-first and -last, grouped, in both
 * precisions, with outputs channels-first (which the GEMM runs transposed) and channels-last.
 */
class ConvolutionGemmTest {

    @Test
    void forwardOverRandomWindows() {
        Random random = new Random(16);
        for (int trial = 0; trial < 40; trial++) {
            Window window = Window.random(random, 6, 20);
            forward(window, 1 + random.nextInt(20), random.nextBoolean(), random.nextBoolean(), trial);
        }
    }

    @Test
    void weightGradientOverRandomWindows() {
        Random random = new Random(17);
        for (int trial = 0; trial < 30; trial++) {
            Window window = Window.random(random, 6, 20);
            weightGradient(window, 1 + random.nextInt(20), random.nextBoolean(), trial);
        }
    }

    /** Deep enough for several K slices, wide enough for several column panels and parallel tasks. */
    @Test
    void largeWindowsCrossingPanelEdges() {
        for (boolean dbl : new boolean[] {false, true}) {
            forward(new Window(2, 40, 19, 21, 3, 3, 1, 1, false, false, 1), 33, false, dbl, 1);
            forward(new Window(1, 35, 17, 23, 3, 3, 1, 1, true, true, 1), 29, true, dbl, 2);
            forward(new Window(1, 32, 30, 30, 3, 3, 2, 1, false, false, 2), 17, false, dbl, 3);
            weightGradient(new Window(2, 30, 20, 20, 3, 3, 1, 1, false, false, 1), 24, dbl, 4);
        }
    }

    /** y[g][n, oh, ow][o] = Σ taps x-window · w: C = window (positions × taps) · weights (taps × O). */
    private static void forward(Window window, int outChannels, boolean channelsLastOutput, boolean dbl, long seed) {
        int taps = window.taps();
        int oh = window.outputHeight();
        int ow = window.outputWidth();
        int allOut = window.groups * outChannels;
        Operand weights = new Operand(0, Layout.progression(window.groups, (long) outChannels * taps),
                Layout.progression(taps, 1), Layout.progression(outChannels, taps));
        Operand out = channelsLastOutput
                ? new Operand(0, Layout.progression(window.groups, outChannels),
                        Window.table(new int[] {window.batchSize, oh, ow}, new long[] {(long) oh * ow * allOut,
                                (long) ow * allOut, allOut}), Layout.progression(outChannels, 1))
                : new Operand(0, Layout.progression(window.groups, (long) outChannels * oh * ow),
                        Window.table(new int[] {window.batchSize, oh, ow}, new long[] {(long) allOut * oh * ow, ow, 1}),
                        Layout.progression(outChannels, (long) oh * ow));
        GemmTest.check(dbl, window.groups, window.positions(), outChannels, taps, window.input(),
                window.inputSize(), weights, allOut * taps, out, window.batchSize * allOut * oh * ow, seed);
    }

    /** dw[g][o, taps] = Σ positions dy · x-window: C = dy (O × positions) · window (positions × taps). */
    static void weightGradient(Window window, int outChannels, boolean dbl, long seed) {
        int taps = window.taps();
        int allOut = window.groups * outChannels;
        Operand weights = new Operand(0, Layout.progression(window.groups, (long) outChannels * taps),
                Layout.progression(outChannels, taps), Layout.progression(taps, 1));
        GemmTest.check(dbl, window.groups, outChannels, taps, window.positions(), window.outputGradient(outChannels),
                window.outputGradientSize(outChannels), window.input(), window.inputSize(), weights,
                allOut * taps, seed);
    }
}
