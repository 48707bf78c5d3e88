package dev.ein4j.cpu.gemm;

import java.util.Arrays;
import java.util.Random;

/**
 * Times float32 square products on contiguous row-major operands (not a test; run by hand):
 * {@code java --add-modules jdk.incubator.vector -Dein4j.cpu.threads=1 -cp target/classes:target/test-classes
 * dev.ein4j.cpu.gemm.GemmBench [n ...]}. Prints the median of ten runs after warm-up, in GFLOP/s.
 */
public final class GemmBench {

    private GemmBench() {
    }

    /**
     * @param args the sizes, by default 256 512 1024 2048
     */
    public static void main(String[] args) {
        int[] sizes = args.length == 0 ? new int[] {256, 512, 1024, 2048}
                : Arrays.stream(args).mapToInt(Integer::parseInt).toArray();
        Gemm gemm = Gemm.get();
        System.out.printf("kind=%s threads=%s java=%s%n", gemm.kind(), System.getProperty("ein4j.cpu.threads"),
                System.getProperty("java.version"));
        for (int n : sizes) {
            Random random = new Random(n);
            float[] a = new float[n * n];
            float[] b = new float[n * n];
            float[] c = new float[n * n];
            for (int i = 0; i < a.length; i++) {
                a[i] = random.nextFloat() - 0.5f;
                b[i] = random.nextFloat() - 0.5f;
            }
            Operand op = rowMajor(n, n);
            double flops = 2.0 * n * n * n;
            // warm up for two seconds (at least a few calls): every worker's code must reach C2 first
            long warmEnd = System.nanoTime() + 2_000_000_000L;
            for (int i = 0; i < 5 || System.nanoTime() < warmEnd; i++) {
                gemm.multiply(1, n, n, n, a, op, b, op, c, op, null);
            }
            int runs = n >= 2048 ? 7 : 11;
            int inner = (int) Math.max(1, 2e9 / flops);
            double[] times = new double[runs];
            for (int r = 0; r < runs; r++) {
                long t0 = System.nanoTime();
                for (int i = 0; i < inner; i++) {
                    gemm.multiply(1, n, n, n, a, op, b, op, c, op, null);
                }
                times[r] = (System.nanoTime() - t0) / 1e9 / inner;
            }
            Arrays.sort(times);
            double median = times[runs / 2];
            System.out.printf("n=%d  %.1f GFLOP/s  (%.3f ms)%n", n, flops / median / 1e9, median * 1e3);
        }
    }

    private static Operand rowMajor(int rows, int cols) {
        long[] r = new long[rows];
        long[] c = new long[cols];
        for (int i = 0; i < rows; i++) {
            r[i] = (long) i * cols;
        }
        for (int j = 0; j < cols; j++) {
            c[j] = j;
        }
        return new Operand(0, new long[] {0}, r, c);
    }
}
