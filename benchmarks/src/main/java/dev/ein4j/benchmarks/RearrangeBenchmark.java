package dev.ein4j.benchmarks;

import dev.ein4j.lowering.ArrowLowering;
import dev.ein4j.lowering.LoweringPlan;
import dev.ein4j.pattern.Operation;
import dev.ein4j.tensor.Axes;
import dev.ein4j.tensor.Generator;
import dev.ein4j.tensor.Tensor;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;

/**
 * {@code tensor.rearrange(pattern, axes)} of a cached pattern on a small realized tensor: the plan
 * lookup in the recipe and plan caches plus the IR nodes of the plan's steps, nothing realized
 * (target: at most 1 µs). {@code planLookup} measures the cache lookup alone.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
@State(Scope.Benchmark)
public class RearrangeBenchmark {

    /** "patches": split, permute and merge (3 steps); "channels-last": one permute. */
    @Param({"patches", "channels-last"})
    public String kind;

    private Tensor input;
    private String pattern;
    private Axes axes;
    private Map<String, Integer> axisLengths;
    private int[] shape;

    /** Makes and realizes a [2, 3, 4, 4] tensor and fills the caches. */
    @Setup
    public void setUp() {
        input = Tensor.rand(new Generator(42), 2, 3, 4, 4).realize();
        switch (kind) {
            case "patches" -> {
                pattern = "b c (h p1) (w p2) -> b (h w) (p1 p2 c)";
                axes = Axes.of("p1", 2, "p2", 2);
            }
            case "channels-last" -> {
                pattern = "b c h w -> b h w c";
                axes = Axes.none();
            }
            default -> throw new IllegalArgumentException(kind);
        }
        axisLengths = axes.asMap();
        shape = input.shape();
        input.rearrange(pattern, axes);
    }

    /** @param blackhole receives the lazy result */
    @Benchmark
    public void rearrange(Blackhole blackhole) {
        blackhole.consume(input.rearrange(pattern, axes));
    }

    /** @return the cached plan */
    @Benchmark
    public LoweringPlan planLookup() {
        return ArrowLowering.plan(Operation.REARRANGE, pattern, axisLengths, shape);
    }
}
