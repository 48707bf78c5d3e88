package dev.ein4j.benchmarks;

import dev.ein4j.backend.Backends;
import dev.ein4j.reference.ReferenceBackend;
import dev.ein4j.tensor.Generator;
import dev.ein4j.tensor.Tensor;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;

/**
 * Realizing a rearrange of a contiguous [4, 16, 32, 32] tensor (65,536 elements) on the reference
 * backend. {@code viewRealize} ("b c h w -> b h w c") is a pure view: run with {@code -prof gc},
 * its B/op is the graph and runtime bookkeeping only, with no buffer. {@code copyRealize}
 * ("b c h w -> b (h w c)", a permute that no strided view can merge) needs one compact copy, which
 * shows in B/op as the size of that buffer.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
@State(Scope.Benchmark)
public class ViewRealizeBenchmark {

    private Tensor input;

    /** Makes and realizes the input on the reference backend. */
    @Setup
    public void setUp() {
        Backends.use(ReferenceBackend.NAME);
        input = Tensor.rand(new Generator(7), 4, 16, 32, 32).realize();
        input.rearrange("b c h w -> b h w c").realize();
        input.rearrange("b c h w -> b (h w c)").realize();
    }

    /** @param blackhole receives the realized view */
    @Benchmark
    public void viewRealize(Blackhole blackhole) {
        blackhole.consume(input.rearrange("b c h w -> b h w c").realize());
    }

    /** @param blackhole receives the realized copy */
    @Benchmark
    public void copyRealize(Blackhole blackhole) {
        blackhole.consume(input.rearrange("b c h w -> b (h w c)").realize());
    }
}
