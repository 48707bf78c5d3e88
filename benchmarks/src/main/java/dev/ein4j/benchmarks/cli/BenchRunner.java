package dev.ein4j.benchmarks.cli;

import dev.ein4j.backend.Backend;
import dev.ein4j.backend.Backends;
import java.io.PrintStream;
import java.util.Arrays;
import java.util.Locale;

/**
 * Runs the chosen workloads: for each, prepares it (untimed), warms it up, times R runs and prints
 * {@code name median_ms figure unit}. A failing workload prints {@code name error MESSAGE}; the
 * others still run and the exit status is 1.
 */
final class BenchRunner {

    /**
     * Warm-up: at least {@link #WARMUP_RUNS} runs and {@code --warmup} seconds (3 by default), and until
     * the median of the last three runs is within {@link #SETTLED} of the fastest run so far (the Vector
     * API runs its slow Java fallback until C2 has compiled it, later on a busy machine), and the fastest
     * run has not improved by {@link #IMPROVED} for {@link #QUIET_NANOS} and a third of the warm-up
     * (C1 code runs steadily too: on JDK 17, mlp-step's five warm-up runs ended inside C1 code and the
     * timed ones went on in it for seconds); at most max(12 s, 4 × the warm-up time).
     */
    static final int WARMUP_RUNS = 5;
    static final double SETTLED = 1.5;
    static final double IMPROVED = 0.9;
    static final long QUIET_NANOS = 1_000_000_000L;
    static final int WARMUP_MAX_RUNS = 100_000;
    /** The default number of timed runs: about this much time, within [MIN_RUNS, MAX_RUNS]. */
    static final double TARGET_SECONDS = 2.0;
    static final int MIN_RUNS = 3;
    static final int MAX_RUNS = 100;

    private BenchRunner() {
    }

    static int run(BenchMain.Options options, PrintStream out, PrintStream err) {
        Backend backend;
        try {
            backend = options.backend() == null ? Backends.current() : Backends.use(options.backend());
        } catch (RuntimeException unavailable) {
            err.println("error: " + unavailable.getMessage());
            err.println(BenchMain.USAGE);
            return 2;
        }
        boolean vector = ModuleLayer.boot().findModule("jdk.incubator.vector").isPresent();
        err.printf(Locale.ROOT, "# ein4j-bench: backend %s (available %s), %s=%s, %d processors, java %s (%s), "
                        + "jdk.incubator.vector %s, max heap %d MiB%n",
                backend.name(), Backends.available(), BenchMain.THREADS_PROPERTY,
                System.getProperty(BenchMain.THREADS_PROPERTY, "unset"), Runtime.getRuntime().availableProcessors(),
                System.getProperty("java.version"), System.getProperty("java.vm.name"), vector ? "present" : "ABSENT",
                Runtime.getRuntime().maxMemory() >> 20);
        if (!vector) {
            err.println("# warning: without --add-modules jdk.incubator.vector the cpu backend runs its scalar path");
        }
        err.println("# name median_ms figure unit");
        boolean failed = false;
        for (String name : options.workloads()) {
            failed |= !runOne(name, options, out, err);
            System.gc();
        }
        return failed ? 1 : 0;
    }

    /** One run, its tensors closed when it ends (their buffers back in the pool, no collector involved): the release is timed too. */
    private static void runScoped(Trial trial) {
        try (dev.ein4j.tensor.TensorScope run = dev.ein4j.tensor.Tensor.scope()) {
            trial.run();
        }
    }

    private static boolean runOne(String name, BenchMain.Options options, PrintStream out, PrintStream err) {
        try {
            Workloads.Spec spec = Workloads.spec(name);
            Trial trial = spec.prepare().get();
            if (options.explain()) {
                err.println("# explain " + name + ":");
                for (String line : trial.explain().split("\n")) {
                    err.println("#   " + line);
                }
            }
            // warm-up; the default count of timed runs comes from the median of the last warm-up runs
            long warmupNs = (long) (options.warmupSeconds() * 1e9);
            long warmupMaxNs = Math.max(12_000_000_000L, 4 * warmupNs);
            long start = System.nanoTime();
            long[] recent = new long[3];
            long fastest = Long.MAX_VALUE;
            long improvedAt = start;
            int warm = 0;
            long estimate;
            while (true) {
                long t0 = System.nanoTime();
                runScoped(trial);
                long t1 = System.nanoTime();
                recent[warm % recent.length] = t1 - t0;
                if (t1 - t0 < IMPROVED * fastest) {
                    improvedAt = t1;
                }
                fastest = Math.min(fastest, t1 - t0);
                warm++;
                long[] last = Arrays.copyOf(recent, Math.min(warm, recent.length));
                Arrays.sort(last);
                estimate = last[last.length / 2];
                long elapsed = t1 - start;
                boolean quiet = t1 - improvedAt >= Math.max(QUIET_NANOS, elapsed / 3);
                boolean settled = warm >= WARMUP_RUNS && elapsed >= warmupNs && estimate <= SETTLED * fastest && quiet;
                if (settled || elapsed >= warmupMaxNs || warm >= WARMUP_MAX_RUNS) {
                    break;
                }
            }
            int runs = options.repeat() > 0 ? options.repeat()
                    : (int) Math.max(MIN_RUNS, Math.min(MAX_RUNS, Math.round(TARGET_SECONDS * 1e9 / Math.max(1, estimate))));
            double[] ms = new double[runs];
            for (int r = 0; r < runs; r++) {
                long t0 = System.nanoTime();
                runScoped(trial);
                ms[r] = (System.nanoTime() - t0) / 1e6;
            }
            double[] sorted = ms.clone();
            Arrays.sort(sorted);
            double median = runs % 2 == 1 ? sorted[runs / 2] : (sorted[runs / 2 - 1] + sorted[runs / 2]) / 2;
            double figure = spec.unit().figure(spec.work(), median);
            out.printf(Locale.ROOT, "%s %s %s %s%n", name, format(median), format(figure), spec.unit().label());
            out.flush();
            String summary = trial.summary();
            err.printf(Locale.ROOT, "# %s: %d warm-up runs, %d timed runs, min %s ms, median %s ms, max %s ms%s%n",
                    name, warm, runs, format(sorted[0]), format(median), format(sorted[runs - 1]),
                    summary == null ? "" : ", " + summary);
            return true;
        } catch (Throwable failure) {
            out.printf("%s error %s%n", name, message(failure));
            out.flush();
            if (Boolean.getBoolean("ein4j.bench.trace")) {
                failure.printStackTrace(err);
            }
            return false;
        }
    }

    static String message(Throwable failure) {
        String text = failure.getMessage();
        String kind = failure.getClass().getSimpleName();
        text = text == null || text.isBlank() ? kind : kind + ": " + text;
        return text.replaceAll("\\s*\\R\\s*", " | ").trim();
    }

    /** Three significant digits at least, no exponent for ordinary figures. */
    static String format(double value) {
        double magnitude = Math.abs(value);
        if (magnitude == 0 || Double.isNaN(value) || Double.isInfinite(value)) {
            return String.valueOf(value);
        }
        if (magnitude >= 100) {
            return String.format(Locale.ROOT, "%.1f", value);
        }
        if (magnitude >= 1) {
            return String.format(Locale.ROOT, "%.2f", value);
        }
        if (magnitude >= 0.001) {
            return String.format(Locale.ROOT, "%.4f", value);
        }
        return String.format(Locale.ROOT, "%.3e", value);
    }
}
