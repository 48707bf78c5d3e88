package dev.ein4j.benchmarks;

import dev.ein4j.pattern.Operation;
import dev.ein4j.pattern.ParsedPattern;
import dev.ein4j.pattern.PatternParser;
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

/**
 * {@link PatternParser#parse} of a pattern already in the cache (target: well under 1 µs), against
 * {@link PatternParser#parseUncached} (ANTLR parse, AST, validation) of the same pattern.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
@State(Scope.Benchmark)
public class ParseBenchmark {

    /** Which pattern: a rearrange, an einsum in einops notation, the same einsum in numpy notation. */
    @Param({"rearrange", "einsum", "numpy-einsum"})
    public String kind;

    private Operation operation;
    private String pattern;

    /** Picks the pattern and puts it in the cache. */
    @Setup
    public void setUp() {
        switch (kind) {
            case "rearrange" -> {
                operation = Operation.REARRANGE;
                pattern = "b c (h p1) (w p2) -> b (h w) (p1 p2 c)";
            }
            case "einsum" -> {
                operation = Operation.EINSUM;
                pattern = "b h i d, b h j d -> b h i j";
            }
            case "numpy-einsum" -> {
                operation = Operation.NUMPY_EINSUM;
                pattern = "bhid,bhjd->bhij";
            }
            default -> throw new IllegalArgumentException(kind);
        }
        PatternParser.parse(operation, pattern);
    }

    /** @return the cached parse (a hash lookup) */
    @Benchmark
    public ParsedPattern parseCached() {
        return PatternParser.parse(operation, pattern);
    }

    /** @return a fresh parse, bypassing the cache */
    @Benchmark
    public ParsedPattern parseUncached() {
        return PatternParser.parseUncached(operation, pattern);
    }
}
