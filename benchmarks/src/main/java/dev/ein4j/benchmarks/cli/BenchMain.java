package dev.ein4j.benchmarks.cli;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The command line of {@code ein4j-bench.jar}: reads the options, sets the system properties that
 * ein4j reads once when its classes load, then hands over to {@link BenchRunner}.
 *
 * <p>This class must not mention any ein4j class: {@code --threads} sets {@code ein4j.cpu.threads},
 * which the CPU backend's worker pool reads once, when it is first loaded.
 */
public final class BenchMain {

    /** Every workload, in the order they run when none is named. */
    static final List<String> WORKLOADS = List.of(
            "matmul-256", "matmul-512", "matmul-1024", "matmul-2048",
            "attention-scores", "attention-values",
            "transpose", "rearrange-overhead", "softmax",
            "mlp-step", "mlp-step-adam",
            "conv2d-fwd-c64", "conv2d-fwd-bwd-c64", "conv2d-fwd-c3", "conv2d-fwd-bwd-c3",
            "cnn-step",
            "resnet18-fwd", "vit-tiny-fwd", "gpt2-decode");

    /** The system property the CPU backend's worker pool reads for its thread count. */
    static final String THREADS_PROPERTY = "ein4j.cpu.threads";

    static final String USAGE = String.join("\n",
            "usage: java --add-modules jdk.incubator.vector -jar ein4j-bench.jar [OPTIONS] [WORKLOAD...]",
            "",
            "Prints one line per workload on stdout: name median_ms figure unit",
            "(or: name error MESSAGE). Run details (runs, min, max) go to stderr as '#' lines.",
            "",
            "options:",
            "  --backend NAME   run on this backend (Backends.use); default: the default backend",
            "  --threads N      sets the system property " + THREADS_PROPERTY + " (CPU backend worker threads)",
            "  --repeat R       timed runs per workload (default: chosen per workload, about 2 s of runs)",
            "  --warmup S       warm up each workload for at least S seconds (default 3; longer while the",
            "                   run time still falls, at most max(12, 4 S) seconds)",
            "  --explain        print the kernels of each workload's graph (tensor.explain()) to stderr",
            "  --list           list the workloads and exit",
            "  -h, --help       this message",
            "",
            "workloads (none given = all):",
            "  " + String.join(" ", WORKLOADS.subList(0, 6)),
            "  " + String.join(" ", WORKLOADS.subList(6, 10)),
            "  " + String.join(" ", WORKLOADS.subList(10, WORKLOADS.size())),
            "",
            "exit status: 0 all ran, 1 some workload failed, 2 usage error");

    private BenchMain() {
    }

    /**
     * @param args the command line
     */
    public static void main(String[] args) {
        int status = run(args, System.out, System.err);
        System.out.flush();
        System.exit(status);
    }

    /**
     * @param args the command line
     * @param out where results go
     * @param err where usage and details go
     * @return the exit status
     */
    static int run(String[] args, PrintStream out, PrintStream err) {
        Options options;
        try {
            options = Options.parse(args);
        } catch (IllegalArgumentException usage) {
            err.println("error: " + usage.getMessage());
            err.println(USAGE);
            return 2;
        }
        if (options.help()) {
            out.println(USAGE);
            return 0;
        }
        if (options.list()) {
            WORKLOADS.forEach(out::println);
            return 0;
        }
        if (options.threads() > 0) {
            System.setProperty(THREADS_PROPERTY, Integer.toString(options.threads()));
        }
        return BenchRunner.run(options, out, err);
    }

    /**
     * The parsed command line.
     *
     * @param backend the backend's name, or null for the default one
     * @param threads CPU backend threads, or 0 for the backend's default
     * @param repeat timed runs, or 0 for the per-workload default
     * @param warmupSeconds the least warm-up time per workload
     * @param explain whether to print each workload's kernels
     * @param list whether to list the workloads only
     * @param help whether to print the usage only
     * @param workloads the workloads to run, in order
     */
    record Options(String backend, int threads, int repeat, double warmupSeconds, boolean explain, boolean list,
                   boolean help, List<String> workloads) {

        /** The default least warm-up time, seconds. */
        static final double DEFAULT_WARMUP_SECONDS = 3.0;

        static Options parse(String[] args) {
            String backend = null;
            int threads = 0;
            int repeat = 0;
            double warmup = DEFAULT_WARMUP_SECONDS;
            boolean explain = false;
            boolean list = false;
            boolean help = false;
            Set<String> chosen = new LinkedHashSet<>();
            for (int i = 0; i < args.length; i++) {
                String arg = args[i];
                String inline = null;
                if (arg.startsWith("--") && arg.contains("=")) {
                    inline = arg.substring(arg.indexOf('=') + 1);
                    arg = arg.substring(0, arg.indexOf('='));
                }
                switch (arg) {
                    case "--backend" -> {
                        backend = inline != null ? inline : value(args, ++i, arg);
                        if (backend.isBlank()) {
                            throw new IllegalArgumentException("--backend needs a name");
                        }
                    }
                    case "--threads" -> threads = positive(inline != null ? inline : value(args, ++i, arg), arg);
                    case "--repeat" -> repeat = positive(inline != null ? inline : value(args, ++i, arg), arg);
                    case "--warmup" -> warmup = seconds(inline != null ? inline : value(args, ++i, arg), arg);
                    case "--explain" -> explain = flag(inline, arg);
                    case "--list" -> list = flag(inline, arg);
                    case "-h", "--help" -> help = flag(inline, arg);
                    default -> {
                        if (arg.startsWith("-")) {
                            throw new IllegalArgumentException("unknown option '" + args[i] + "'");
                        }
                        if (!WORKLOADS.contains(arg)) {
                            throw new IllegalArgumentException("unknown workload '" + arg + "'");
                        }
                        chosen.add(arg);
                    }
                }
            }
            List<String> workloads = chosen.isEmpty() ? WORKLOADS : new ArrayList<>(chosen);
            return new Options(backend, threads, repeat, warmup, explain, list, help, List.copyOf(workloads));
        }

        private static boolean flag(String inline, String option) {
            if (inline != null) {
                throw new IllegalArgumentException(option + " takes no value");
            }
            return true;
        }

        private static String value(String[] args, int at, String option) {
            if (at >= args.length) {
                throw new IllegalArgumentException(option + " needs a value");
            }
            return args[at];
        }

        private static double seconds(String text, String option) {
            try {
                double value = Double.parseDouble(text.trim());
                if (value >= 0 && value <= 3600) {
                    return value;
                }
            } catch (NumberFormatException ignored) {
                // reported below
            }
            throw new IllegalArgumentException(option + " needs a number of seconds (0 to 3600), not '" + text + "'");
        }

        private static int positive(String text, String option) {
            try {
                int value = Integer.parseInt(text.trim());
                if (value >= 1) {
                    return value;
                }
            } catch (NumberFormatException ignored) {
                // reported below
            }
            throw new IllegalArgumentException(option + " needs a positive integer, not '" + text + "'");
        }
    }
}
