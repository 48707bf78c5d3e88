package dev.ein4j.cpu.gemm;

import dev.ein4j.cpu.WorkerPool;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
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

    /** Other processes' share of the machine below which a run counts as undisturbed. */
    private static final double QUIET = 0.05;
    private static final int CPUS = Runtime.getRuntime().availableProcessors();

    private GemmBench() {
    }

    /**
     * @param args the sizes, by default 256 512 1024 2048
     */
    public static void main(String[] args) {
        int[] sizes = args.length == 0 ? new int[] {256, 512, 1024, 2048}
                : Arrays.stream(args).mapToInt(Integer::parseInt).toArray();
        Gemm gemm = Gemm.get();
        int threads = WorkerPool.shared().parallelism();
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
            // about a quarter of a second per run: the process CPU clock ticks coarsely
            int inner = (int) Math.max(1, 2.5e10 * threads / flops);
            double[] times = new double[runs];
            double[] others = new double[runs];
            for (int r = 0; r < runs; r++) {
                long busy0 = machineBusyNanos();
                long cpu0 = processCpuNanos();
                long t0 = System.nanoTime();
                for (int i = 0; i < inner; i++) {
                    call.run();
                }
                long wall = System.nanoTime() - t0;
                times[r] = wall / 1e9 / inner;
                long own = processCpuNanos() - cpu0;
                others[r] = Math.max(0, machineBusyNanos() - busy0 - own) / (double) wall / CPUS;
            }
            System.out.printf("n=%d  %.1f GFLOP/s  (median %.3f ms; %s)%n", n, flops / clean(times, others) / 1e9,
                    clean(times, others) * 1e3, describe(others));
        }
    }

    /**
     * @return the median time of the runs during which other processes used under 5 % of the machine
     *     (on a shared machine their work slows a run), or of all runs when fewer than three were quiet
     */
    private static double clean(double[] times, double[] others) {
        double[] kept = new double[times.length];
        int count = 0;
        for (int r = 0; r < times.length; r++) {
            if (others[r] < QUIET) {
                kept[count++] = times[r];
            }
        }
        double[] pick = count >= 3 ? Arrays.copyOf(kept, count) : times.clone();
        Arrays.sort(pick);
        return pick[pick.length / 2];
    }

    private static String describe(double[] others) {
        int quiet = 0;
        double most = 0;
        for (double share : others) {
            quiet += share < QUIET ? 1 : 0;
            most = Math.max(most, share);
        }
        return String.format("%d/%d runs quiet, others used up to %.0f%%%s", quiet, others.length, most * 100,
                quiet >= 3 ? "" : " CONTENDED");
    }

    /** @return the CPU time all processes spent busy so far, from /proc/stat (0 where there is none) */
    private static long machineBusyNanos() {
        try {
            String[] f = Files.readAllLines(Path.of("/proc/stat")).get(0).trim().split("\\s+");
            long busy = 0;
            for (int i = 1; i < Math.min(f.length, 9); i++) {
                busy += i == 4 || i == 5 ? 0 : Long.parseLong(f[i]);
            }
            return busy * 10_000_000L; // USER_HZ = 100
        } catch (IOException | RuntimeException e) {
            return 0;
        }
    }

    private static long processCpuNanos() {
        return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
                .getProcessCpuTime();
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
