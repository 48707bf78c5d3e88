package dev.ein4j.benchmarks.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

class BenchMainTest {

    @Test
    void parsesOptionsAndWorkloads() {
        BenchMain.Options options = BenchMain.Options.parse(
                new String[] {"--backend", "cpu", "--threads=2", "--repeat", "5", "softmax", "matmul-256", "softmax"});
        assertThat(options.backend()).isEqualTo("cpu");
        assertThat(options.threads()).isEqualTo(2);
        assertThat(options.repeat()).isEqualTo(5);
        assertThat(options.warmupSeconds()).isEqualTo(BenchMain.Options.DEFAULT_WARMUP_SECONDS);
        assertThat(BenchMain.Options.parse(new String[] {"--warmup", "0.5"}).warmupSeconds()).isEqualTo(0.5);
        assertThat(options.workloads()).containsExactly("softmax", "matmul-256");
    }

    @Test
    void noWorkloadMeansAll() {
        assertThat(BenchMain.Options.parse(new String[0]).workloads()).isEqualTo(BenchMain.WORKLOADS);
    }

    @Test
    void rejectsUnknownWorkloadsAndOptions() {
        assertThatThrownBy(() -> BenchMain.Options.parse(new String[] {"matmul-9"}))
                .hasMessageContaining("unknown workload 'matmul-9'");
        assertThatThrownBy(() -> BenchMain.Options.parse(new String[] {"--fast"}))
                .hasMessageContaining("unknown option '--fast'");
        assertThatThrownBy(() -> BenchMain.Options.parse(new String[] {"--threads", "0"}))
                .hasMessageContaining("positive integer");
        assertThatThrownBy(() -> BenchMain.Options.parse(new String[] {"--repeat"}))
                .hasMessageContaining("needs a value");
    }

    @Test
    void usageErrorsExitWithTwo() {
        Output output = new Output();
        assertThat(BenchMain.run(new String[] {"nonsense"}, output.out, output.err)).isEqualTo(2);
        assertThat(output.err()).contains("unknown workload 'nonsense'").contains("usage:");
        assertThat(output.out()).isEmpty();
    }

    @Test
    void everyWorkloadHasADefinition() {
        for (String name : BenchMain.WORKLOADS) {
            Workloads.Spec spec = Workloads.spec(name);
            assertThat(spec.name()).isEqualTo(name);
            assertThat(spec.work()).isPositive();
        }
        assertThat(Workloads.spec("matmul-1024").work()).isEqualTo(2.0 * 1024 * 1024 * 1024);
        // c64: 2·N·O·C·k²·Hout·Wout with Hout = Wout = 32; fwd-bwd counts three times that
        assertThat(Workloads.spec("conv2d-fwd-c64").work()).isEqualTo(2.0 * 32 * 64 * 64 * 9 * 32 * 32);
        assertThat(Workloads.spec("conv2d-fwd-bwd-c3").work()).isEqualTo(3 * 2.0 * 64 * 32 * 3 * 25 * 28 * 28);
    }

    @Test
    void figures() {
        assertThat(Unit.GFLOPS.figure(2e9, 1000)).isEqualTo(2.0);
        assertThat(Unit.GBPS.figure(1e9, 500)).isEqualTo(2.0);
        assertThat(Unit.MS_PER_STEP.figure(1, 12.5)).isEqualTo(12.5);
        assertThat(Unit.US_PER_CALL.figure(100_000, 5)).isEqualTo(0.05);
        assertThat(Unit.MS_PER_BATCH.figure(1, 7.5)).isEqualTo(7.5);
    }

    @Test
    void runsWorkloadsAndPrintsOneLineEach() {
        Output output = new Output();
        int status = BenchMain.run(new String[] {"--repeat", "3", "--warmup", "0.2", "matmul-256", "rearrange-overhead", "conv2d-fwd-c3"},
                output.out, output.err);
        assertThat(status).as(output.out() + output.err()).isZero();
        List<String> lines = output.out().lines().toList();
        assertThat(lines).hasSize(3);
        assertThat(lines.get(0)).matches("matmul-256 \\S+ \\S+ GFLOP/s");
        assertThat(lines.get(1)).matches("rearrange-overhead \\S+ \\S+ us/call");
        assertThat(lines.get(2)).matches("conv2d-fwd-c3 \\S+ \\S+ GFLOP/s");
        assertThat(output.err()).contains("# matmul-256: ").contains("3 timed runs");
    }

    private static final class Output {
        final ByteArrayOutputStream outBytes = new ByteArrayOutputStream();
        final ByteArrayOutputStream errBytes = new ByteArrayOutputStream();
        final PrintStream out = new PrintStream(outBytes, true, StandardCharsets.UTF_8);
        final PrintStream err = new PrintStream(errBytes, true, StandardCharsets.UTF_8);

        String out() {
            return outBytes.toString(StandardCharsets.UTF_8);
        }

        String err() {
            return errBytes.toString(StandardCharsets.UTF_8);
        }
    }
}
