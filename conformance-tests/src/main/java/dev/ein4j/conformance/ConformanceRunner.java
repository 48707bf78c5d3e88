package dev.ein4j.conformance;

import dev.ein4j.backend.Backends;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The conformance runner:
 * {@code java -jar conformance-tests/target/ein4j-conformance.jar [--backend NAME] [--no-grad] PATH...}.
 * Runs every case of the fixture files (folders are searched for *.json), prints one line per
 * failing case ({@code file:id: reason}), and ends with {@code N passed, M failed}. Exits 0 only when
 * nothing failed; a case that cannot be read counts as failed.
 */
public final class ConformanceRunner {

    private ConformanceRunner() {
    }

    /**
     * @param args {@code [--backend NAME] [--no-grad] PATH...}
     */
    public static void main(String[] args) {
        System.exit(run(args, System.out));
    }

    /**
     * @param args the command line
     * @param out where to report
     * @return the exit status: 0 if every case passed, 1 if some failed, 2 for a bad command line
     */
    public static int run(String[] args, PrintStream out) {
        String backend = null;
        boolean gradients = true;
        List<Path> paths = new ArrayList<>();
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--backend" -> {
                    if (++i >= args.length) {
                        return usage(out, "--backend needs a name");
                    }
                    backend = args[i];
                }
                case "--no-grad" -> gradients = false;
                case "-h", "--help" -> {
                    return usage(out, null);
                }
                default -> {
                    if (args[i].startsWith("--")) {
                        return usage(out, "unknown option " + args[i]);
                    }
                    paths.add(Path.of(args[i]));
                }
            }
        }
        if (paths.isEmpty()) {
            return usage(out, "no fixture files or folders given");
        }
        if (backend == null) {
            backend = Backends.current().name();
        } else if (!Backends.available().contains(backend)) {
            out.println("backend '" + backend + "' is not available; available: " + Backends.available());
            return 2;
        }
        FixtureReader.Fixtures fixtures = FixtureReader.read(paths);
        int failed = 0;
        for (FixtureReader.UnreadableCase unreadable : fixtures.unreadable()) {
            out.println(unreadable.name() + ": " + unreadable.reason());
            failed++;
        }
        CaseRunner runner = new CaseRunner(gradients);
        int passed = 0;
        for (ConformanceCase testCase : fixtures.cases()) {
            Optional<String> failure = runner.run(testCase, backend);
            if (failure.isPresent()) {
                out.println(testCase.name() + ": " + failure.get());
                failed++;
            } else {
                passed++;
            }
        }
        out.println(passed + " passed, " + failed + " failed");
        return failed == 0 ? 0 : 1;
    }

    private static int usage(PrintStream out, String problem) {
        if (problem != null) {
            out.println(problem);
        }
        out.println("usage: java -jar ein4j-conformance.jar [--backend NAME] [--no-grad] PATH...");
        out.println("  backends here: " + Backends.available());
        return 2;
    }
}
