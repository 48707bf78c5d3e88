package dev.ein4j.cpu.gemm;

import java.util.Arrays;
import java.util.Random;

/**
 * Times a square convolution's weight gradient as the einsum lowering hands it to the GEMM (not a test;
 * run by hand, once with {@code -Dein4j.cpu.gemm.dot=true} and once with {@code false}):
 * {@code java --add-modules jdk.incubator.vector -cp target/classes:target/test-classes
 * dev.ein4j.cpu.gemm.WeightGradientBench batch channelsIn side channelsOut kernel ...} (groups of five;
 * side is the output's).
 * C[taps, channels out] = Σ over (batch, h, w) of the padded input's windows times the output
 * gradient [batch, channels out, h, w] ({@code -Dbench.transposed=true}: C[channels out, taps], the
 * operands exchanged). Prints the median of 15 runs after warm-up.
 */
public final class WeightGradientBench {

    private WeightGradientBench() {
    }

    public static void main(String[] args) {
        int[] values = args.length == 0 ? new int[] {128, 1, 28, 32, 3, 128, 32, 14, 64, 3, 64, 3, 28, 32, 5}
                : Arrays.stream(args).mapToInt(Integer::parseInt).toArray();
        for (int at = 0; at + 4 < values.length; at += 5) {
            time(values[at], values[at + 1], values[at + 2], values[at + 3], values[at + 4]);
        }
    }

    private static void time(int batch, int channels, int side, int channelsOut, int kernel) {
        int padded = side + kernel - 1;
        int m = channels * kernel * kernel;
        int k = batch * side * side;
        int n = channelsOut;
        long[] taps = new long[m];
        for (int c = 0, i = 0; c < channels; c++) {
            for (int kh = 0; kh < kernel; kh++) {
                for (int kw = 0; kw < kernel; kw++) {
                    taps[i++] = (long) c * padded * padded + kh * padded + kw;
                }
            }
        }
        long[] positions = new long[k];
        long[] gradientPositions = new long[k];
        for (int b = 0, p = 0; b < batch; b++) {
            for (int h = 0; h < side; h++) {
                for (int w = 0; w < side; w++, p++) {
                    positions[p] = (long) b * channels * padded * padded + h * padded + w;
                    gradientPositions[p] = (long) b * channelsOut * side * side + h * side + w;
                }
            }
        }
        long[] outChannels = new long[n];
        for (int j = 0; j < n; j++) {
            outChannels[j] = (long) j * side * side;
        }
        Random random = new Random(1);
        float[] input = new float[batch * channels * padded * padded];
        float[] gradient = new float[batch * channelsOut * side * side];
        for (int i = 0; i < input.length; i++) {
            input[i] = random.nextFloat();
        }
        for (int i = 0; i < gradient.length; i++) {
            gradient[i] = random.nextFloat();
        }
        float[] c = new float[m * n];
        Operand a = new Operand(0, new long[] {0}, taps, positions);
        Operand b = new Operand(0, new long[] {0}, gradientPositions, outChannels);
        if (Boolean.getBoolean("bench.transposed")) { // C[channels out, taps] = gradient · windows
            a = new Operand(0, new long[] {0}, outChannels, gradientPositions);
            b = new Operand(0, new long[] {0}, positions, taps);
            float[] swap = input;
            input = gradient;
            gradient = swap;
            int rows = m;
            m = n;
            n = rows;
        }
        Operand out = new Operand(0, new long[] {0}, KSplit.compact(1, m, n).rows, KSplit.compact(1, m, n).cols);
        long[] nanos = new long[15];
        for (int warm = 0; warm < 30; warm++) {
            Gemm.get().multiply(1, m, n, k, input, a, gradient, b, c, out, null);
        }
        for (int run = 0; run < nanos.length; run++) {
            long start = System.nanoTime();
            Gemm.get().multiply(1, m, n, k, input, a, gradient, b, c, out, null);
            nanos[run] = System.nanoTime() - start;
        }
        Arrays.sort(nanos);
        double median = nanos[nanos.length / 2] / 1e6;
        System.out.printf("dot=%s m=%d n=%d k=%d: %.3f ms, %.1f GFLOP/s%n", System.getProperty("ein4j.cpu.gemm.dot", "auto"),
                m, n, k, median, 2.0 * m * n * k / median / 1e6);
    }
}
