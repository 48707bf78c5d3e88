package dev.ein4j.cpu.gemm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.Random;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Checks the GEMM against a triple loop summed in double, on both precisions and on operand layouts a
 * strided view can have: transposed, broadcast (stride 0), multi-dimensional index groups, strided
 * outputs; with the listener hearing of every element of C exactly once, after it is final.
 */
class GemmTest {

    private static final Gemm GEMM = Gemm.get();

    @Test
    void runsTheImplementationTheBuildAskedFor() {
        boolean vector = Boolean.parseBoolean(System.getProperty("ein4j.cpu.expectVector", "true"));
        assertThat(GEMM.kind()).isEqualTo(vector ? "vector" : "scalar");
    }

    static Stream<Arguments> shapes() {
        return Stream.of(
                Arguments.of(1, 1, 1, 1), Arguments.of(1, 7, 13, 5), Arguments.of(1, 65, 33, 257),
                Arguments.of(1, 300, 200, 600), Arguments.of(1, 1, 300, 17), Arguments.of(1, 300, 1, 17),
                Arguments.of(1, 2, 3, 1100), Arguments.of(3, 31, 47, 29), Arguments.of(4, 1, 1, 1),
                Arguments.of(1, 0, 5, 5), Arguments.of(1, 5, 0, 5), Arguments.of(0, 5, 5, 5),
                Arguments.of(2, 5, 7, 0), Arguments.of(1, 0, 0, 0), Arguments.of(1, 97, 61, 1));
    }

    @ParameterizedTest(name = "{0}×{1}×{2}×{3}")
    @MethodSource("shapes")
    void rowMajorShapes(int batches, int m, int n, int k) {
        for (boolean dbl : new boolean[] {false, true}) {
            check(dbl, batches, m, n, k, Layout.rowMajor(batches, m, k), Layout.rowMajor(batches, k, n),
                    Layout.rowMajor(batches, m, n), 11);
        }
    }

    @Test
    void transposedOperandsAndOutput() {
        int batches = 2;
        int m = 67;
        int n = 45;
        int k = 290;
        for (int mask = 0; mask < 8; mask++) {
            Layout a = (mask & 1) == 0 ? Layout.rowMajor(batches, m, k) : Layout.transposed(batches, m, k);
            Layout b = (mask & 2) == 0 ? Layout.rowMajor(batches, k, n) : Layout.transposed(batches, k, n);
            Layout c = (mask & 4) == 0 ? Layout.rowMajor(batches, m, n) : Layout.transposed(batches, m, n);
            check(false, batches, m, n, k, a, b, c, mask);
            check(true, batches, m, n, k, a, b, c, mask);
        }
    }

    @Test
    void broadcastOperands() {
        int batches = 3;
        int m = 23;
        int n = 70;
        int k = 41;
        long[] zeros = new long[batches];
        // B shared by every batch entry (batch stride 0)
        Layout a = Layout.rowMajor(batches, m, k);
        Layout shared = Layout.rowMajor(1, k, n);
        Operand sharedB = new Operand(3, zeros, shared.operand.rows(), shared.operand.cols());
        // A with every row the same (stride 0 along M), B with every column the same (stride 0 along N)
        Operand sameRows = new Operand(0, Layout.progression(batches, k), new long[m], Layout.progression(k, 1));
        Operand sameCols = new Operand(0, Layout.progression(batches, k), Layout.progression(k, 1), new long[n]);
        Layout c = Layout.rowMajor(batches, m, n);
        for (boolean dbl : new boolean[] {false, true}) {
            check(dbl, batches, m, n, k, a.operand, a.size, sharedB, shared.size + 3, c.operand, c.size, 1);
            check(dbl, batches, m, n, k, sameRows, batches * k, sameCols, batches * k, c.operand, c.size, 2);
        }
    }

    @Test
    void randomShapesAndLayouts() {
        Random random = new Random(20240607);
        for (int trial = 0; trial < 60; trial++) {
            int batches = 1 + random.nextInt(3);
            int m = random.nextInt(5) == 0 ? 1 + random.nextInt(3) : 1 + random.nextInt(140);
            int n = random.nextInt(5) == 0 ? 1 + random.nextInt(3) : 1 + random.nextInt(140);
            int k = random.nextInt(5) == 0 ? random.nextInt(4) : 1 + random.nextInt(700);
            Layout a = Layout.random(random, batches, m, k, true);
            Layout b = Layout.random(random, batches, k, n, true);
            Layout c = Layout.random(random, batches, m, n, false);
            check(random.nextBoolean(), batches, m, n, k, a, b, c, trial);
        }
    }

    /** Each case is above the serial threshold ({@link GemmSettings#serialWork()}): it is cut into tasks. */
    @Test
    void largeEnoughToRunInParallel() {
        for (boolean dbl : new boolean[] {false, true}) {
            check(dbl, 1, 517, 389, 300, Layout.rowMajor(1, 517, 300), Layout.rowMajor(1, 300, 389),
                    Layout.rowMajor(1, 517, 389), 5);
            check(dbl, 7, 128, 151, 140, Layout.rowMajor(7, 128, 140), Layout.transposed(7, 140, 151),
                    Layout.transposed(7, 128, 151), 6);
            Random random = new Random(99);
            check(dbl, 2, 260, 190, 530, Layout.random(random, 2, 260, 530, true),
                    Layout.random(random, 2, 530, 190, true), Layout.random(random, 2, 260, 190, false), 7);
        }
    }

    /**
     * Small C over a deep K (a convolution's weight gradient): the shapes {@link KSplit} takes on two
     * threads, run through the whole multiply (both types, strided and transposed C, batches, the
     * listener hearing of each element once after the slices are summed). K is deep enough to pass
     * the serial threshold of an untuned machine (2^24 multiply-adds).
     */
    @Test
    void smallProductsOverADeepKAreSummedInSlices() {
        Blocking blocking = GemmSettings.get().blocking(5, 64, Float.BYTES);
        int deep = 1 << 16;
        assertThat(KSplit.parts(1, 9, 32, deep, blocking, 2, 0)).as("a 9 × 32 C over K = %d", deep).isEqualTo(2);
        assertThat(KSplit.parts(1, 1024, 1024, 1024, blocking, 2, 0)).as("a square product").isEqualTo(1);
        assertThat(KSplit.parts(1, 9, 32, blocking.kc(), blocking, 2, 0)).as("one kc slice").isEqualTo(1);
        assertThat(KSplit.parts(1, 9, 32, deep, blocking, 2, 9.0 * 32 * deep)).as("serial work").isEqualTo(1);
        assertThat(KSplit.parts(1, 9, 32, deep, blocking, 1, 0)).as("one thread").isEqualTo(1);
        Random random = new Random(41);
        for (boolean dbl : new boolean[] {false, true}) {
            check(dbl, 1, 9, 32, deep, Layout.rowMajor(1, 9, deep), Layout.rowMajor(1, deep, 32),
                    Layout.rowMajor(1, 9, 32), 11);
            check(dbl, 1, 32, 9, deep, Layout.transposed(1, 32, deep), Layout.rowMajor(1, deep, 9),
                    Layout.transposed(1, 32, 9), 12);
            check(dbl, 3, 17, 23, deep / 2, Layout.random(random, 3, 17, deep / 2, true),
                    Layout.random(random, 3, deep / 2, 23, true), Layout.random(random, 3, 17, 23, false), 13);
        }
    }

    @Test
    void worksWithoutAListenerAndFromInsideOne() {
        int n = 70;
        Layout square = Layout.rowMajor(1, n, n);
        float[] a = new float[n * n];
        float[] identity = new float[n * n];
        for (int i = 0; i < n * n; i++) {
            a[i] = i % 13 - 6;
        }
        for (int i = 0; i < n; i++) {
            identity[i * n + i] = 1;
        }
        float[] plain = new float[n * n];
        GEMM.multiply(1, n, n, n, a, square.operand, identity, square.operand, plain, square.operand, null);
        assertThat(plain).containsExactly(a);
        // a listener that multiplies again on its own thread must not disturb the outer product's buffers:
        // tall enough for several row panels per task, so packed B is reused after the listener returns
        int m = 1700;
        Layout tall = Layout.rowMajor(1, m, n);
        float[] big = new float[m * n];
        for (int i = 0; i < m * n; i++) {
            big[i] = i % 11 - 5;
        }
        float[] outer = new float[m * n];
        float[] inner = new float[n * n];
        GEMM.multiply(1, m, n, n, big, tall.operand, identity, square.operand, outer, tall.operand,
                (b, rowFrom, rowTo, colFrom, colTo) -> GEMM.multiply(1, n, n, n, identity, square.operand, a,
                        square.operand, inner, square.operand, null));
        assertThat(outer).containsExactly(big);
        assertThat(inner).containsExactly(a);
    }

    @Test
    void rejectsTablesShorterThanTheSizes() {
        Layout a = Layout.rowMajor(1, 4, 4);
        float[] data = new float[16];
        assertThatThrownBy(() -> GEMM.multiply(1, 5, 4, 4, data, a.operand, data, a.operand, new float[16],
                a.operand, null)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> GEMM.multiply(2, 4, 4, 4, data, a.operand, data, a.operand, new float[16],
                a.operand, null)).isInstanceOf(IllegalArgumentException.class);
    }

    static void check(boolean dbl, int batches, int m, int n, int k, Layout a, Layout b, Layout c, long seed) {
        check(dbl, batches, m, n, k, a.operand, a.size, b.operand, b.size, c.operand, c.size, seed);
    }

    /**
     * Runs one product on random values and compares every element of C with the reference, both when
     * the listener hears of it and afterwards; elements of C's array outside the output stay untouched.
     */
    static void check(boolean dbl, int batches, int m, int n, int k, Operand left, int aSize,
            Operand right, int bSize, Operand out, int cSize, long seed) {
        Random random = new Random(seed * 31 + m * 7L + n * 3L + k);
        double[] a = values(random, aSize, dbl);
        double[] b = values(random, bSize, dbl);
        Reference ref = new Reference(batches, m, n, k, a, left, b, right);
        AtomicIntegerArray heard = new AtomicIntegerArray(Math.max(1, batches * m * n));
        Queue<String> failures = new ConcurrentLinkedQueue<>();
        String what = (dbl ? "f64 " : "f32 ") + batches + "×" + m + "×" + n + "×" + k;
        double tolerance = dbl ? 1e-13 : 1e-5;
        double[] result = new double[cSize];
        float[] cf = dbl ? null : filled(new float[cSize]);
        double[] cd = dbl ? filledDouble(new double[cSize]) : null;
        BlockListener listener = (bi, rowFrom, rowTo, colFrom, colTo) -> {
            for (int i = rowFrom; i < rowTo; i++) {
                for (int j = colFrom; j < colTo; j++) {
                    heard.incrementAndGet((bi * m + i) * n + j);
                    int at = index(out, bi, i, j);
                    double value = dbl ? cd[at] : cf[at];
                    if (!ref.close(bi, i, j, value, tolerance)) {
                        failures.add(what + ": at (" + bi + "," + i + "," + j + ") heard " + value + ", want "
                                + ref.value(bi, i, j));
                    }
                }
            }
        };
        if (dbl) {
            GEMM.multiply(batches, m, n, k, a, left, b, right, cd, out, listener);
            System.arraycopy(cd, 0, result, 0, cSize);
        } else {
            float[] af = narrow(a);
            float[] bf = narrow(b);
            GEMM.multiply(batches, m, n, k, af, left, bf, right, cf, out, listener);
            for (int i = 0; i < cSize; i++) {
                result[i] = cf[i];
            }
        }
        assertThat(failures).as("values when the listener heard of them").isEmpty();
        boolean[] written = new boolean[cSize];
        List<String> wrong = new ArrayList<>();
        for (int bi = 0; bi < batches; bi++) {
            for (int i = 0; i < m; i++) {
                for (int j = 0; j < n; j++) {
                    int at = index(out, bi, i, j);
                    written[at] = true;
                    if (!ref.close(bi, i, j, result[at], tolerance) && wrong.size() < 5) {
                        wrong.add(what + ": at (" + bi + "," + i + "," + j + ") got " + result[at] + ", want "
                                + ref.value(bi, i, j));
                    }
                    if (heard.get((bi * m + i) * n + j) != 1 && wrong.size() < 5) {
                        wrong.add(what + ": (" + bi + "," + i + "," + j + ") heard "
                                + heard.get((bi * m + i) * n + j) + " times");
                    }
                }
            }
        }
        for (int i = 0; i < cSize; i++) {
            if (!written[i] && !Double.isNaN(result[i]) && wrong.size() < 5) {
                wrong.add(what + ": wrote outside C at " + i);
            }
        }
        assertThat(wrong).isEmpty();
    }

    private static int index(Operand op, int b, int row, int col) {
        return (int) (op.base() + op.batch()[b] + op.rows()[row] + op.cols()[col]);
    }

    /** Values in [-1, 1), exactly representable as float when the run is float32. */
    private static double[] values(Random random, int size, boolean dbl) {
        double[] v = new double[size];
        for (int i = 0; i < size; i++) {
            v[i] = dbl ? random.nextDouble() * 2 - 1 : (float) (random.nextDouble() * 2 - 1);
        }
        return v;
    }

    private static float[] narrow(double[] v) {
        float[] f = new float[v.length];
        for (int i = 0; i < v.length; i++) {
            f[i] = (float) v[i];
        }
        return f;
    }

    private static float[] filled(float[] c) {
        java.util.Arrays.fill(c, Float.NaN);
        return c;
    }

    private static double[] filledDouble(double[] c) {
        java.util.Arrays.fill(c, Double.NaN);
        return c;
    }

    /** The triple loop in double, with Σ|a·b| per element to scale the tolerance. */
    private static final class Reference {
        private final int m;
        private final int n;
        private final double[] value;
        private final double[] magnitude;

        Reference(int batches, int m, int n, int k, double[] a, Operand left, double[] b, Operand right) {
            this.m = m;
            this.n = n;
            this.value = new double[batches * m * n];
            this.magnitude = new double[batches * m * n];
            for (int bi = 0; bi < batches; bi++) {
                for (int i = 0; i < m; i++) {
                    for (int j = 0; j < n; j++) {
                        double sum = 0;
                        double abs = 0;
                        for (int p = 0; p < k; p++) {
                            double x = a[index(left, bi, i, p)] * b[index(right, bi, p, j)];
                            sum += x;
                            abs += Math.abs(x);
                        }
                        value[(bi * m + i) * n + j] = sum;
                        magnitude[(bi * m + i) * n + j] = abs;
                    }
                }
            }
        }

        double value(int b, int i, int j) {
            return value[(b * m + i) * n + j];
        }

        boolean close(int b, int i, int j, double got, double tolerance) {
            int at = (b * m + i) * n + j;
            return Math.abs(got - value[at]) <= tolerance * magnitude[at] + Double.MIN_NORMAL;
        }
    }
}
