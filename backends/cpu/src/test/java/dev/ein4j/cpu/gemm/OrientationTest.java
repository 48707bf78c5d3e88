package dev.ein4j.cpu.gemm;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * {@link Call}'s orientation: the tile-padding and C-adjacency rules, and the {@link PackingCost} count
 * that overrides them, on the shapes they were made for (the 5 × 64 float tile of AVX-512, 16 lanes,
 * the blocks a 48 KiB L1d and 1 MiB L2 give); the products chosen swapped are checked against the
 * triple loop.
 */
class OrientationTest {

    private static final Blocking BLOCKING = Blocking.derive(5, 64, Float.BYTES, new CacheSizes(48 << 10, 1 << 20, 32 << 20));
    private static final int LANES = 16;

    /** cnn-step's second convolution: 32 to 64 channels, 3 × 3, over 64 images of 26 × 26. */
    private static final Window CONV2 = new Window(64, 32, 26, 26, 3, 3, 1, 1, false, false, 1);

    @Test
    void weightGradientPacksItsWindowAlongItsRuns() {
        Window window = CONV2;
        int out = 64;
        Operand dy = window.outputGradient(out);
        Operand x = window.input();
        Operand dw = weights(window, out);
        Call call = Call.of(1, out, window.taps(), window.positions(), dy, x, dw, null, BLOCKING, LANES);

        // C = [64, 288] has adjacent columns, which the rule keeps; the window then packs across its runs
        assertThat(new View(dw).unitCols).isTrue();
        assertThat(call.swapped).isTrue();
        assertThat(call.m).isEqualTo(window.taps());
        assertThat(PackingCost.perElement(call.left)).isEqualTo(PackingCost.RUN);
        View window2 = new View(x);
        assertThat(PackingCost.perElement(window2)).as("the window as B").isEqualTo(PackingCost.TRANSPOSE);
        double kept = PackingCost.of(out, window.taps(), window.positions(), new View(dy), window2, new View(dw),
                BLOCKING, LANES);
        assertThat(call.count(window.positions(), BLOCKING, LANES)).isLessThan(0.9 * kept);
    }

    @Test
    void forwardConvolutionKeepsPositionsOnTheColumns() {
        Window window = CONV2;
        int out = 64;
        int oh = window.outputHeight();
        int ow = window.outputWidth();
        Operand weights = new Operand(0, Layout.progression(1, 0), Layout.progression(window.taps(), 1),
                Layout.progression(out, window.taps()));
        Operand y = new Operand(0, Layout.progression(1, 0),
                Window.table(new int[] {window.batchSize, oh, ow}, new long[] {(long) out * oh * ow, ow, 1}),
                Layout.progression(out, (long) oh * ow));
        Call call = Call.of(1, window.positions(), out, window.taps(), window.input(), weights, y, null, BLOCKING, LANES);

        assertThat(call.swapped).isTrue();
        assertThat(call.n).isEqualTo(window.positions());
        assertThat(PackingCost.perElement(call.right)).isEqualTo(PackingCost.RUN);
    }

    @Test
    void rowMajorProductIsKept() {
        int size = 256;
        Operand a = new Operand(0, new long[] {0}, Layout.progression(size, size), Layout.progression(size, 1));
        Call call = Call.of(1, size, size, size, a, a, a, null, BLOCKING, LANES);
        assertThat(call.swapped).isFalse();
    }

    @Test
    void thinProductFollowsThePadding() {
        // C = [1000, 3]: 3 columns pad to 64, 1000 rows to 1000; as Cᵀ 5 rows and 1024 columns
        Operand a = new Operand(0, new long[] {0}, Layout.progression(1000, 50), Layout.progression(50, 1));
        Operand b = new Operand(0, new long[] {0}, Layout.progression(50, 3), Layout.progression(3, 1));
        Operand c = new Operand(0, new long[] {0}, Layout.progression(1000, 3), Layout.progression(3, 1));
        assertThat(Call.of(1, 1000, 3, 50, a, b, c, null, BLOCKING, LANES).swapped).isTrue();
    }

    @Test
    void countsSumTheirParts() {
        int m = 10;
        int n = 64;
        int k = 512;
        View a = new View(new Operand(0, new long[] {0}, Layout.progression(m, k), Layout.progression(k, 1)));
        View b = new View(new Operand(0, new long[] {0}, Layout.progression(k, n), Layout.progression(n, 1)));
        View c = new View(new Operand(0, new long[] {0}, Layout.progression(m, n), Layout.progression(n, 1)));
        Blocking blocks = new Blocking(5, 64, 10, 64, 256);
        double kernel = 10.0 * 64 * 512 / 16;
        double packs = 10.0 * 512 * PackingCost.RUN + 512.0 * 64 * PackingCost.RUN;
        double stores = 10.0 * 64 * 2 * PackingCost.STORE_RUN;
        assertThat(PackingCost.of(m, n, k, a, b, c, blocks, 16)).isCloseTo(kernel + packs + stores,
                org.assertj.core.data.Offset.offset(1e-6));
    }

    /** Swapped by the count: the values are the triple loop's, across K panels and threads. */
    @Test
    void swappedWeightGradientsAreExact() {
        for (boolean dbl : new boolean[] {false, true}) {
            ConvolutionGemmTest.weightGradient(new Window(3, 32, 26, 26, 3, 3, 1, 1, false, false, 1), 64, dbl, 7);
            ConvolutionGemmTest.weightGradient(new Window(2, 24, 30, 30, 3, 3, 2, 1, false, false, 2), 40, dbl, 8);
        }
        Window window = new Window(3, 32, 26, 26, 3, 3, 1, 1, false, false, 1);
        assertThat(Call.of(1, 64, window.taps(), window.positions(), window.outputGradient(64), window.input(),
                weights(window, 64), null, BLOCKING, LANES).swapped).as("the case above runs swapped").isTrue();
    }

    private static Operand weights(Window window, int out) {
        return new Operand(0, Layout.progression(window.groups, (long) out * window.taps()),
                Layout.progression(out, window.taps()), Layout.progression(window.taps(), 1));
    }
}
