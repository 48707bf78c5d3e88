package dev.ein4j.cpu;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ein4j.backend.Backends;
import dev.ein4j.ir.DType;
import dev.ein4j.reference.ReferenceBackend;
import dev.ein4j.tensor.Generator;
import dev.ein4j.tensor.Tensor;
import dev.ein4j.testing.Agreement;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Row-local runs (a softmax's max, sum of exponentials and scaled exponentials; a layer norm's
 * mean, variance and normalisation) executed block by block agree with the reference interpreter,
 * and are executed that way (the backend's count of such runs grows). Every input is larger than
 * any L2, so the backend does not decline the blocking.
 */
class RowBlocksTest {

    @AfterEach
    void restore() {
        Backends.use(CpuBackend.NAME);
    }

    private record Case(String name, DType dtype, int[] shape, UnaryOperator<Tensor> program) {
    }

    private static Tensor layerNorm(Tensor x) {
        int last = x.shape().length - 1;
        Tensor mean = x.mean(new int[] {last}, true);
        Tensor centered = x.sub(mean);
        Tensor variance = centered.mul(centered).mean(new int[] {last}, true);
        return centered.mul(variance.add(1e-5).rsqrt());
    }

    private static final Case[] CASES = {
        new Case("softmax over rows", DType.FLOAT32, new int[] {1024, 1500}, x -> x.softmax(1)),
        new Case("softmax, a 3-d input", DType.FLOAT32, new int[] {4, 96, 1300}, x -> x.softmax(2)),
        new Case("softmax over short rows (grouped in tiles)", DType.FLOAT32, new int[] {60000, 10}, x -> x.softmax(1)),
        new Case("log-softmax", DType.FLOAT32, new int[] {700, 2100}, x -> x.logSoftmax(1)),
        new Case("softmax over two trailing axes", DType.FLOAT32, new int[] {64, 30, 300}, x -> x.reshape(64, 9000)
                .softmax(1).reshape(64, 30, 300)),
        new Case("layer norm", DType.FLOAT32, new int[] {800, 1536}, RowBlocksTest::layerNorm),
        new Case("layer norm, float64", DType.FLOAT64, new int[] {300, 2000}, RowBlocksTest::layerNorm),
        new Case("softmax, float64 rows longer than a tile", DType.FLOAT64, new int[] {100, 5000}, x -> x.softmax(1)),
    };

    @Test
    void rowLocalRunsAgreeWithTheReferenceAndRunBlockByBlock() {
        for (Case c : CASES) {
            Backends.use(ReferenceBackend.NAME);
            Tensor expected = c.program().apply(Tensor.randn(new Generator(7), c.dtype(), c.shape()).mul(3)).realize();
            CpuBackend cpu = (CpuBackend) Backends.use(CpuBackend.NAME);
            Tensor x = Tensor.randn(new Generator(7), c.dtype(), c.shape()).mul(3).realize();
            long before = cpu.rowBlockRuns();
            Tensor actual = c.program().apply(x).realize();
            assertThat(cpu.rowBlockRuns()).as(c.name() + " ran block by block").isGreaterThan(before);
            Agreement.compare(c.name(), expected, actual, CpuBackend.NAME);
        }
    }

    @Test
    void anAssignmentIntoATensorTheRunReadsAcrossRowsRunsKernelByKernel() {
        // x[i, j] <- x[i, j] * max over column i of x: the product is written into x row block by row
        // block, while a later block's column maxima read every row of x; interleaved, they would read products
        UnaryOperator<Tensor> update = x -> x.mul(x.permute(1, 0).max(new int[] {1}, true));
        Backends.use(ReferenceBackend.NAME);
        Tensor expected = update.apply(Tensor.randn(new Generator(9), 1024, 1024)).realize();
        Backends.use(CpuBackend.NAME);
        Tensor x = Tensor.randn(new Generator(9), 1024, 1024).realize();
        x.assign(update.apply(x));
        Agreement.compare("x <- x * column maxima", expected, x, CpuBackend.NAME);
    }

    @Test
    void smallRunsAreLeftToTheKernelsOneByOne() {
        CpuBackend cpu = (CpuBackend) Backends.use(CpuBackend.NAME);
        Tensor x = Tensor.randn(new Generator(3), 64, 100).realize();
        long before = cpu.rowBlockRuns();
        Tensor soft = x.softmax(1).realize();
        assertThat(cpu.rowBlockRuns()).as("fits in L2: nothing gained by blocks").isEqualTo(before);
        Backends.use(ReferenceBackend.NAME);
        Tensor expected = Tensor.randn(new Generator(3), 64, 100).softmax(1).realize();
        Agreement.compare("small softmax", expected, soft, CpuBackend.NAME);
    }
}
