package dev.ein4j.cpu.gemm;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicIntegerArray;
import org.junit.jupiter.api.Test;

/**
 * The thin products ({@link ThinCall}: at most four rows or four columns of C) against the triple loop
 * of {@link GemmTest}: every row count 1..4 with column and depth counts around the vector lengths, the
 * block width and primes, B row-major, transposed (contiguous along K) and strided (the general path),
 * strided and random A and C, batches, both precisions; NaN and infinities propagate; the column split
 * covers every column of every batch entry exactly once.
 */
class ThinGemmTest {

    private static final int[] SIZES = {1, 2, 7, 31, 64, 97, 1031};

    @Test
    void rowMajorAndTransposedRightOperandsOfEveryThinShape() {
        for (int m = 1; m <= ThinCall.MAX_ROWS; m++) {
            for (int n : SIZES) {
                for (int k : SIZES) {
                    for (boolean dbl : new boolean[] {false, true}) {
                        long seed = m * 1000L + n * 10L + k;
                        GemmTest.check(dbl, 1, m, n, k, Layout.rowMajor(1, m, k), Layout.rowMajor(1, k, n),
                                Layout.rowMajor(1, m, n), seed);
                        GemmTest.check(dbl, 1, m, n, k, Layout.rowMajor(1, m, k), Layout.transposed(1, k, n),
                                Layout.rowMajor(1, m, n), seed + 1);
                    }
                }
            }
        }
    }

    /** Few columns of C: the product runs transposed, A streamed. */
    @Test
    void thinInTheOtherDirection() {
        for (int n = 1; n <= ThinCall.MAX_ROWS; n++) {
            for (int m : new int[] {5, 33, 1031}) {
                for (int k : new int[] {1, 17, 300}) {
                    for (boolean dbl : new boolean[] {false, true}) {
                        GemmTest.check(dbl, 2, m, n, k, Layout.rowMajor(2, m, k), Layout.rowMajor(2, k, n),
                                Layout.rowMajor(2, m, n), n + m + k);
                        GemmTest.check(dbl, 2, m, n, k, Layout.transposed(2, m, k), Layout.rowMajor(2, k, n),
                                Layout.transposed(2, m, n), n + m + k + 1);
                    }
                }
            }
        }
    }

    @Test
    void stridedOperandsAndBatches() {
        int k = 129;
        int n = 203;
        for (int m = 1; m <= ThinCall.MAX_ROWS; m++) {
            for (boolean dbl : new boolean[] {false, true}) {
                // A and C read with a stride of 3 along their columns, B with a stride of 2 along K
                Operand a = new Operand(1, Layout.progression(3, 3L * m * k), Layout.progression(m, 3L * k),
                        Layout.progression(k, 3));
                Operand b = new Operand(2, Layout.progression(3, 2L * k * n), Layout.progression(k, 2L * n),
                        Layout.progression(n, 1));
                Operand bt = new Operand(0, Layout.progression(3, 2L * k * n), Layout.progression(k, 1),
                        Layout.progression(n, 2L * k));
                Operand c = new Operand(0, Layout.progression(3, 3L * m * n), Layout.progression(m, 3L * n),
                        Layout.progression(n, 3));
                int aSize = 3 * 3 * m * k + 1;
                int bSize = 3 * 2 * k * n + 2;
                int cSize = 3 * 3 * m * n;
                GemmTest.check(dbl, 3, m, n, k, a, aSize, b, bSize, c, cSize, m);
                GemmTest.check(dbl, 3, m, n, k, a, aSize, bt, bSize, c, cSize, m + 10);
                // B's columns 2 apart along N and K: contiguous in neither, the general path
                Operand neither = new Operand(0, Layout.progression(3, 4L * k * n), Layout.progression(k, 2L * n),
                        Layout.progression(n, 2));
                GemmTest.check(dbl, 3, m, n, k, a, aSize, neither, 3 * 4 * k * n, c, cSize, m + 20);
            }
        }
    }

    @Test
    void randomThinShapesAndLayouts() {
        Random random = new Random(77);
        for (int trial = 0; trial < 80; trial++) {
            int batches = 1 + random.nextInt(3);
            int thin = 1 + random.nextInt(ThinCall.MAX_ROWS);
            int wide = 1 + random.nextInt(random.nextBoolean() ? 40 : 1500);
            int k = 1 + random.nextInt(random.nextBoolean() ? 20 : 900);
            boolean tall = random.nextBoolean();
            int m = tall ? wide : thin;
            int n = tall ? thin : wide;
            GemmTest.check(random.nextBoolean(), batches, m, n, k, Layout.random(random, batches, m, k, true),
                    Layout.random(random, batches, k, n, true), Layout.random(random, batches, m, n, false), trial);
        }
    }

    /** Large enough that, once timed, the calls are cut into tasks for the workers. */
    @Test
    void largeThinProductsRepeated() {
        for (int repeat = 0; repeat < 3; repeat++) {
            for (boolean dbl : new boolean[] {false, true}) {
                GemmTest.check(dbl, 1, 1, 20011, 300, Layout.rowMajor(1, 1, 300), Layout.transposed(1, 300, 20011),
                        Layout.rowMajor(1, 1, 20011), repeat);
                GemmTest.check(dbl, 1, 3, 9001, 400, Layout.rowMajor(1, 3, 400), Layout.rowMajor(1, 400, 9001),
                        Layout.rowMajor(1, 3, 9001), repeat + 5);
            }
        }
    }

    @Test
    void nanAndInfinityPropagate() {
        for (boolean transposed : new boolean[] {false, true}) {
            int m = 2;
            int n = 70;
            int k = 37;
            Layout right = transposed ? Layout.transposed(1, k, n) : Layout.rowMajor(1, k, n);
            float[] a = new float[m * k];
            float[] b = new float[k * n];
            Arrays.fill(a, 1f);
            Arrays.fill(b, 0.5f);
            a[5] = Float.NaN; // row 0 of A: every column of row 0 of C is NaN
            b[at(right.operand, 3, 66)] = Float.POSITIVE_INFINITY; // column 66 of row 1 is infinite
            float[] c = new float[m * n];
            Gemm.get().multiply(1, m, n, k, a, Layout.rowMajor(1, m, k).operand, b, right.operand, c,
                    Layout.rowMajor(1, m, n).operand, null);
            for (int j = 0; j < n; j++) {
                assertThat(c[j]).as("C[0, %d]", j).isNaN();
                assertThat(c[n + j]).as("C[1, %d]", j).isEqualTo(j == 66 ? Float.POSITIVE_INFINITY : k * 0.5f);
            }
            double[] ad = {0, Double.NaN};
            double[] bd = new double[2 * 3];
            Arrays.fill(bd, 2);
            double[] cd = new double[3];
            Layout row = Layout.rowMajor(1, 1, 2);
            Layout b2 = transposed ? Layout.transposed(1, 2, 3) : Layout.rowMajor(1, 2, 3);
            Gemm.get().multiply(1, 1, 3, 2, ad, row.operand, bd, b2.operand, cd, Layout.rowMajor(1, 1, 3).operand,
                    null);
            assertThat(Arrays.stream(cd).allMatch(Double::isNaN)).as("NaN in A's second column").isTrue();
        }
    }

    /** Forced task counts: every column of every batch entry is computed by exactly one task. */
    @Test
    void theSplitCoversEveryColumnOnce() {
        for (int batches : new int[] {1, 2, 5}) {
            for (int n : new int[] {1, 15, 16, 17, 100, 1031}) {
                for (int tasks : new int[] {1, 2, 3, 4, 7, 64}) {
                    AtomicIntegerArray seen = new AtomicIntegerArray(batches * n);
                    Set<Integer> badStarts = ConcurrentHashMap.newKeySet();
                    ThinJob job = new ThinJob() {
                        @Override
                        public void run(int b, int from, int to) {
                            if (from % 16 != 0) {
                                badStarts.add(from);
                            }
                            for (int j = from; j < to; j++) {
                                seen.incrementAndGet(b * n + j);
                            }
                        }

                        @Override
                        public int elementBytes() {
                            return 4;
                        }
                    };
                    ThinSplit.run(job, batches, n, 3, tasks);
                    for (int i = 0; i < batches * n; i++) {
                        assertThat(seen.get(i)).as("%d×%d in %d tasks, element %d", batches, n, tasks, i)
                                .isEqualTo(1);
                    }
                    assertThat(badStarts).isEmpty();
                }
            }
        }
    }

    private static int at(Operand op, int row, int col) {
        return (int) (op.base() + op.batch()[0] + op.rows()[row] + op.cols()[col]);
    }
}
