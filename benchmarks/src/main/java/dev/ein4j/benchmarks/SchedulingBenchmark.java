package dev.ein4j.benchmarks;

import dev.ein4j.runtime.RuntimeContext;
import dev.ein4j.tensor.TensorScope;
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
 * scheduling, planning and submission). {@code realizeMiss} schedules every time (the schedule cache
 * off), {@code realizeHit} replays the cached schedule of the graph's structure (a training step's
 * case; the multiply's number differs each call, as a learning rate would): their difference, less
 * {@code buildGraph}, is the scheduling a replay saves, per node.
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

    private double scale = 1.0001;

    private Tensor chain() {
        Tensor x = input;
        scale = scale == 1.0001 ? 1.0002 : 1.0001;
        for (int i = 0; i < nodes; i++) {
            x = i % 2 == 0 ? x.mul(scale) : x.add(input);
        }
        return x;
    }

    /** @param blackhole receives the result of a graph scheduled from scratch */
    @Benchmark
    public void realizeMiss(Blackhole blackhole) {
        RuntimeContext.global().setCaching(false);
        try (TensorScope step = Tensor.scope()) {
            blackhole.consume(chain().realize().get(0) > 0);
        } finally {
            RuntimeContext.global().setCaching(true);
        }
    }

    /** @param blackhole receives the result of a graph whose schedule is replayed */
    @Benchmark
    public void realizeHit(Blackhole blackhole) {
        try (TensorScope step = Tensor.scope()) {
            blackhole.consume(chain().realize().get(0) > 0);
        }
    }

    /** @return the kernel list of the whole graph (scheduling only) */
    @Benchmark
    public String schedule() {
        try (TensorScope step = Tensor.scope()) {
            return chain().explain();
        }
    }

    /** @param blackhole receives the realized result */
    @Benchmark
    public void scheduleAndRun(Blackhole blackhole) {
        try (TensorScope step = Tensor.scope()) {
            blackhole.consume(chain().realize());
        }
    }

    /** @param blackhole receives the graph (its construction alone, the baseline of the ones above) */
    @Benchmark
    public void buildGraph(Blackhole blackhole) {
        try (TensorScope step = Tensor.scope()) {
            blackhole.consume(chain());
        }
    }
}
