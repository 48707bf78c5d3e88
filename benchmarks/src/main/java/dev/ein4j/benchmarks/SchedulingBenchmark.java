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
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;

/**
 * The runtime's own cost: a graph of {@code nodes} elementwise nodes over a 16-element tensor
 * (alternating multiply and add, so nothing folds away), scheduled into kernels ({@code explain},
 * nothing runs) and realized on the reference backend (the kernels are tiny: the time is the
 * scheduling, planning and submission).
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
@State(Scope.Benchmark)
public class SchedulingBenchmark {

    /** How many elementwise nodes the graph holds. */
    @Param({"1000"})
    public int nodes;

    private Tensor input;

    /** Realizes the input on the reference backend. */
    @Setup
    public void setUp() {
        Backends.use(ReferenceBackend.NAME);
        input = Tensor.rand(new Generator(1), 16).realize();
    }

    private Tensor chain() {
        Tensor x = input;
        for (int i = 0; i < nodes; i++) {
            x = i % 2 == 0 ? x.mul(1.0001) : x.add(input);
        }
        return x;
    }

    /** @return the kernel list of the whole graph (scheduling only) */
    @Benchmark
    public String schedule() {
        return chain().explain();
    }

    /** @param blackhole receives the realized result */
    @Benchmark
    public void scheduleAndRun(Blackhole blackhole) {
        blackhole.consume(chain().realize());
    }

    /** @param blackhole receives the graph (its construction alone, the baseline of the two above) */
    @Benchmark
    public void buildGraph(Blackhole blackhole) {
        blackhole.consume(chain());
    }
}
