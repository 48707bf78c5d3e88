package dev.ein4j.benchmarks;

import dev.ein4j.backend.Backends;
import dev.ein4j.reference.ReferenceBackend;
import dev.ein4j.tensor.Ein;
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
 * A baseline: {@code einsum("i j, j k -> i k")} of two realized float32 64×64 matrices, built and
 * realized on the reference backend (an element-at-a-time interpreter, slow on purpose).
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
@State(Scope.Benchmark)
public class ReferenceBackendBenchmark {

    private Tensor left;
    private Tensor right;

    /** Makes and realizes the operands on the reference backend. */
    @Setup
    public void setUp() {
        Backends.use(ReferenceBackend.NAME);
        left = Tensor.rand(new Generator(1), 64, 64).realize();
        right = Tensor.rand(new Generator(2), 64, 64).realize();
    }

    /** @param blackhole receives the realized product */
    @Benchmark
    public void matmul64(Blackhole blackhole) {
        blackhole.consume(Ein.einsum("i j, j k -> i k", left, right).realize());
    }
}
