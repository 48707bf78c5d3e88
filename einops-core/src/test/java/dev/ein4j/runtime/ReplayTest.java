package dev.ein4j.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ein4j.backend.Backends;
import dev.ein4j.error.AllocationException;
import dev.ein4j.ir.Op;
import dev.ein4j.kernel.Kernel;
import dev.ein4j.reference.ReferenceBackend;
import dev.ein4j.tensor.Ein;
import dev.ein4j.tensor.Generator;
import dev.ein4j.tensor.Tensor;
import dev.ein4j.tensor.TensorScope;
import dev.ein4j.tensor.internal.TensorInternals;
import dev.ein4j.testing.CountingBackend;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Repeated steps replay their schedule: graphs of one structure, shapes and types (new data, new
 * numbers) find the schedule the first one made and give their own results; anything structural
 * makes a new schedule. Also: random tensors made once, broadcast axes never looped over, and the
 * message of a failed allocation.
 */
class ReplayTest {

    private CountingBackend counting;
    private TensorScope scope;

    @BeforeEach
    void useCountingBackend() {
        counting = (CountingBackend) Backends.use(CountingBackend.NAME);
        counting.reset();
        RuntimeContext.global().clearSchedules(); // another test's graphs of the same structure would be hits
        scope = Tensor.scope();
    }

    @AfterEach
    void restoreReference() {
        scope.close();
        assertThat(counting.doubleReleases()).as("buffers released twice").isZero();
        Backends.use(ReferenceBackend.NAME);
    }

    private static Tensor data(long seed, int... shape) {
        return Tensor.rand(new Generator(seed), shape).sub(0.5).realize();
    }

    private static RuntimeContext.Statistics statistics() {
        return RuntimeContext.global().statistics();
    }

    /** A step of a layer: new input, new scale, the same structure. */
    private static Tensor step(Tensor x, Tensor w, double scale) {
        return Ein.einsum("b i, o i -> b o", x, w).mul(scale).relu().sum(1);
    }

    @Test
    void aGraphOfTheSameStructureReplaysTheScheduleWithItsOwnDataAndNumbers() {
        Tensor w = data(1, 16, 32);
        Tensor first = step(data(2, 8, 32), w, 0.5);
        RuntimeContext.Statistics before = statistics();
        first.realize();
        assertThat(statistics().since(before).schedulesBuilt()).isEqualTo(1);
        for (int i = 0; i < 5; i++) {
            Tensor x = data(10 + i, 8, 32);
            double scale = 0.25 * (i + 1);
            Tensor y = step(x, w, scale);
            assertThat(y.explain()).contains("schedule: from the cache");
            RuntimeContext.Statistics at = statistics();
            float[] replayed = y.toFloatArray();
            RuntimeContext.Statistics done = statistics().since(at);
            assertThat(done.scheduleHits()).as("step " + i + " replays").isEqualTo(1);
            assertThat(done.schedulesBuilt()).isZero();
            RuntimeContext.global().setCaching(false);
            try {
                float[] fresh = step(x, w, scale).toFloatArray();
                assertThat(replayed).as("a replay computes what a fresh schedule computes").isEqualTo(fresh);
            } finally {
                RuntimeContext.global().setCaching(true);
            }
        }
    }

    @Test
    void numbersAreKernelParametersSoTheSameKernelsRunEveryStep() {
        Tensor w = data(3, 16, 32);
        Tensor x = data(4, 8, 32);
        step(x, w, 0.5).realize();
        List<Kernel> firstKernels = counting.kernels();
        counting.reset();
        step(x, w, -2.0).realize();
        assertThat(counting.kernels()).as("other numbers, the same kernels").isEqualTo(firstKernels.subList(
                firstKernels.size() - counting.kernels().size(), firstKernels.size()));
    }

    @Test
    void anotherShapeOrAnotherStructureIsAnotherSchedule() {
        Tensor w = data(5, 16, 32);
        step(data(6, 8, 32), w, 1.0).realize();
        Tensor smaller = data(7, 4, 32);
        RuntimeContext.Statistics before = statistics();
        step(smaller, w, 1.0).realize();
        assertThat(statistics().since(before).schedulesBuilt()).as("another batch size").isEqualTo(1);
        Tensor same = data(8, 8, 32);
        before = statistics();
        Ein.einsum("b i, o i -> b o", same, w).mul(1.0).exp().sum(1).realize();
        assertThat(statistics().since(before).schedulesBuilt()).as("exp instead of relu").isEqualTo(1);
        Tensor transposed = data(9, 32, 8).rearrange("i b -> b i");
        before = statistics();
        step(transposed, w, 1.0).realize();
        assertThat(statistics().since(before).schedulesBuilt()).as("an input read through another view").isEqualTo(1);
    }

    @Test
    void dropoutStepsReplayWithTheirOwnMasks() {
        Tensor x = data(10, 64);
        Generator generator = new Generator(11);
        float[] previous = null;
        RuntimeContext.Statistics before = null;
        for (int i = 0; i < 4; i++) {
            Tensor mask = TensorInternals.uniformOnce(generator, dev.ein4j.ir.DType.FLOAT32, new int[] {64}).lt(0.5);
            float[] dropped = Tensor.where(mask, x, Tensor.scalar(0.0)).toFloatArray();
            if (i == 1) {
                before = statistics();
            }
            if (previous != null) {
                assertThat(dropped).as("a new seed, a new mask").isNotEqualTo(previous);
            }
            previous = dropped;
        }
        assertThat(statistics().since(before).schedulesBuilt()).as("the seed is a parameter").isZero();
    }

    @Test
    void assignmentsReplayAndStillWriteInPlace() {
        Tensor w = data(12, 32, 32);
        Tensor m = data(13, 32, 32);
        for (int i = 0; i < 3; i++) {
            Tensor g = data(20 + i, 32, 32);
            Tensor newM = m.mul(0.9).add(g.mul(0.1));
            counting.reset();
            Tensor.assign(List.of(m, w), List.of(newM, w.sub(newM.mul(0.01 * (i + 1)))));
            assertThat(counting.kernels()).as("one kernel writes both").hasSize(1);
            assertThat(counting.kernels().get(0).outputCount()).isEqualTo(2);
            assertThat(counting.allocations()).as("in place").isZero();
        }
    }

    @Test
    void threadsReplayingOneScheduleGetTheirOwnResults() throws Exception {
        Tensor w = data(14, 16, 32);
        step(data(15, 8, 32), w, 1.0).realize();
        List<CompletableFuture<Boolean>> runs = new java.util.ArrayList<>();
        for (int t = 0; t < 4; t++) {
            int thread = t;
            runs.add(CompletableFuture.supplyAsync(() -> {
                Backends.use(CountingBackend.NAME);
                boolean all = true;
                for (int i = 0; i < 20; i++) {
                    Tensor x = data(100 * thread + i, 8, 32);
                    float[] replayed = step(x, w, 1.0 + i).toFloatArray();
                    float[] expected = expected(x, w, 1.0 + i);
                    for (int j = 0; j < expected.length; j++) {
                        all &= Math.abs(replayed[j] - expected[j]) <= 1e-4 * (1 + Math.abs(expected[j]));
                    }
                }
                return all;
            }));
        }
        for (CompletableFuture<Boolean> run : runs) {
            assertThat(run.get()).isTrue();
        }
    }

    private static float[] expected(Tensor x, Tensor w, double scale) {
        float[] a = x.toFloatArray();
        float[] b = w.toFloatArray();
        float[] out = new float[8];
        for (int r = 0; r < 8; r++) {
            double total = 0;
            for (int o = 0; o < 16; o++) {
                double dot = 0;
                for (int i = 0; i < 32; i++) {
                    dot += a[r * 32 + i] * b[o * 32 + i];
                }
                total += Math.max(0, (float) dot * (float) scale);
            }
            out[r] = (float) total;
        }
        return out;
    }

    @Test
    void aRandomTensorIsMadeOnceWhateverReadsIt() {
        Tensor w = Tensor.randn(new Generator(16), 64, 64);
        float[] first = w.mul(1.0).toFloatArray();
        counting.reset();
        for (int i = 0; i < 10; i++) {
            w.mul((double) i).sum().realize();
        }
        assertThat(counting.computed(Op.RAND)).as("no RAND evaluated after the first use").isZero();
        assertThat(w.toFloatArray()).as("one draw").isEqualTo(first);
    }

    @Test
    void aRandomDrawReadByTwoKernelsIsGeneratedOnceForBoth() {
        Tensor u = TensorInternals.uniformOnce(new Generator(17), dev.ein4j.ir.DType.FLOAT32, new int[] {32, 8});
        Tensor rows = u.sum(1);
        Tensor all = u.rearrange("a b -> b a").mul(2.0);
        counting.reset();
        Tensor.realizeAll(rows, all);
        assertThat(counting.computed(Op.RAND)).isEqualTo(1);
        float[] sums = rows.toFloatArray();
        float[] doubled = all.toFloatArray();
        double total = 0;
        for (int b = 0; b < 8; b++) {
            total += doubled[b * 32] / 2;
        }
        assertThat(sums[0]).isCloseTo((float) total, org.assertj.core.data.Offset.offset(1e-5f));
    }

    @Test
    void broadcastAxesAreNeverLoopedOverInAReduction() {
        counting.reset();
        assertThat(Tensor.zeros(100_000, 100_000, 100_000).sum().item()).isZero();
        assertThat(Tensor.ones(30_000, 40_000).sum().item()).isEqualTo(1.2e9);
        Tensor row = data(18, 1, 7);
        float[] values = row.toFloatArray();
        float[] sums = row.expand(5000, 7).sum(0).toFloatArray();
        float[] maxima = row.expand(5000, 7).max(0).toFloatArray();
        for (int j = 0; j < 7; j++) {
            assertThat(sums[j]).isEqualTo(values[j] * 5000);
            assertThat(maxima[j]).isEqualTo(values[j]);
        }
        Tensor two = Tensor.full(2.0, dev.ein4j.ir.DType.FLOAT64, 1, 3).expand(40, 3);
        assertThat(two.prod(0).toDoubleArray()).containsExactly(Math.pow(2, 40), Math.pow(2, 40), Math.pow(2, 40));
        Tensor ints = Tensor.of(new int[] {3}, 1).expand(1_500_000_000).sum();
        assertThat(ints.item()).as("int32 sums wrap as they would element by element").isEqualTo((int) (3L * 1_500_000_000L));
        assertThat(counting.peakBytes() - counting.liveBytes()).as("no broadcast materialized").isLessThan(1 << 20);
    }

    @Test
    void aFailedAllocationSaysWhatWasAskedAndWhatIsLive() {
        Tensor big = data(19, 512, 512);
        counting.limitMemory(counting.liveBytes() + 3 * 512 * 512 * 4 / 2); // room for one more result, not two
        Tensor kept = big.mul(2.0).realize();
        assertThatThrownBy(() -> big.mul(3.0).add(kept).realize()).isInstanceOf(AllocationException.class)
                .hasMessageContaining("cannot allocate 1.0 MiB (262144 float32 elements)")
                .hasMessageContaining("live tensors hold")
                .hasMessageContaining("largest live tensors: float32[512, 512] (1.0 MiB)")
                .hasMessageContaining("Close tensors you no longer need");
        assertThat(counting.trims()).as("the pool trimmed once before giving up").isEqualTo(1);
        counting.limitMemory(Long.MAX_VALUE);
    }
}
