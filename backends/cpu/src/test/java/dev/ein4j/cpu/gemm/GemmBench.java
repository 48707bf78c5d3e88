package dev.ein4j.cpu.gemm;

import java.util.Arrays;
import java.util.Random;

/**
 * Times float32 square products on contiguous row-major operands (not a test; run by hand):
 * {@code java --add-modules jdk.incubator.vector -Dein4j.cpu.threads=1 -cp target/classes:target/test-classes
 * dev.ein4j.cpu.gemm.GemmBench [n ...]}. Prints the median of ten runs after warm-up, in GFLOP/s.
 * {@code -Dbench.layout=nt} (or {@code tn}, {@code tt}) reads B (or A) transposed, and
 * {@code -Dbench.type=f64} times double.
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
        String layout = System.getProperty("bench.layout", "nn");
        boolean f64 = "f64".equals(System.getProperty("bench.type"));
        System.out.printf("kind=%s threads=%s java=%s layout=%s type=%s%n", gemm.kind(),
                System.getProperty("ein4j.cpu.threads"), System.getProperty("java.version"), layout,
                f64 ? "f64" : "f32");
        for (int n : sizes) {
            Random random = new Random(n);
            double[] values = new double[2 * n * n];
            for (int i = 0; i < values.length; i++) {
                values[i] = random.nextDouble() - 0.5;
            }
            Operand left = layout.charAt(0) == 't' ? transposed(n, n) : rowMajor(n, n);
            Operand right = layout.charAt(1) == 't' ? transposed(n, n) : rowMajor(n, n);
            Operand out = rowMajor(n, n);
            Runnable call;
            if (f64) {
                double[] a = Arrays.copyOfRange(values, 0, n * n);
                double[] b = Arrays.copyOfRange(values, n * n, 2 * n * n);
                double[] c = new double[n * n];
                call = () -> gemm.multiply(1, n, n, n, a, left, b, right, c, out, null);
            } else {
                float[] a = new float[n * n];
                float[] b = new float[n * n];
                for (int i = 0; i < n * n; i++) {
                    a[i] = (float) values[i];
                    b[i] = (float) values[n * n + i];
                }
                float[] c = new float[n * n];
                call = () -> gemm.multiply(1, n, n, n, a, left, b, right, c, out, null);
            }
            double flops = 2.0 * n * n * n;
            // warm up for two seconds (at least a few calls): every worker's code must reach C2 first
            long warmEnd = System.nanoTime() + 2_000_000_000L;
            for (int i = 0; i < 5 || System.nanoTime() < warmEnd; i++) {
                call.run();
            }
            int runs = n >= 2048 ? 7 : 11;
            int inner = (int) Math.max(1, 2e9 / flops);
            double[] times = new double[runs];
            for (int r = 0; r < runs; r++) {
                long t0 = System.nanoTime();
                for (int i = 0; i < inner; i++) {
                    call.run();
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

    /** A [rows, cols] view of a row-major [cols, rows] matrix. */
    private static Operand transposed(int rows, int cols) {
        Operand stored = rowMajor(cols, rows);
        return new Operand(0, stored.batch(), stored.cols(), stored.rows());
    }
}
