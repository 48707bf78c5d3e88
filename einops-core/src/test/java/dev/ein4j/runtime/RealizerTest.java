package dev.ein4j.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import dev.ein4j.backend.Backends;
import dev.ein4j.backend.DeviceBuffer;
import dev.ein4j.ir.DType;
import dev.ein4j.ir.Op;
import dev.ein4j.reference.ReferenceBackend;
import dev.ein4j.tensor.Axes;
import dev.ein4j.tensor.Tensor;
import dev.ein4j.tensor.internal.TensorInternals;
import dev.ein4j.testing.Close;
import dev.ein4j.testing.CountingBackend;
import dev.ein4j.runtime.Results;
import dev.ein4j.testing.NdArray;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class RealizerTest {

    private CountingBackend counting;

    @BeforeEach
    void useCountingBackend() {
        counting = (CountingBackend) Backends.use(CountingBackend.NAME);
        counting.reset();
    }

    @AfterEach
    void restoreReference() {
        assertThat(counting.doubleReleases()).as("buffers released twice").isZero();
        Backends.use(ReferenceBackend.NAME);
    }

    private static NdArray random(long seed, int... shape) {
        return NdArray.random(new SplittableRandom(seed), shape, -3, 3);
    }

    private static Tensor tensor(NdArray array) {
        return Tensor.of(array.data, array.shape);
    }

    @Test
    void aChainOf100000AddsRealizesWithoutRecursion() {
        Tensor t = Tensor.of(new double[] {0.5, -2.0}, 2);
        for (int i = 0; i < 100_000; i++) {
            t = t.add(1.0);
        }
        Tensor result = t;
        assertThatCode(result::realize).doesNotThrowAnyException();
        assertThat(result.toDoubleArray()).containsExactly(100_000.5, 99_998.0);
    }

    @Test
    void aLongChainOfMovementsAndUnaryOpsRealizes() {
        Tensor t = Tensor.of(new double[] {1, 2, 3, 4, 5, 6}, 2, 3);
        for (int i = 0; i < 20_000; i++) {
            t = t.transpose(0, 1).neg();
        }
        // an even number of transposes and negations: the input again
        assertThat(t.shape()).containsExactly(2, 3);
        assertThat(t.toDoubleArray()).containsExactly(1, 2, 3, 4, 5, 6);
    }

    @Test
    void targetsRealizedTogetherShareTheirCommonWork() {
        Tensor x = tensor(random(1, 3, 4));
        Tensor shared = x;
        for (int i = 0; i < 5; i++) {
            shared = shared.exp().log(); // ten primitives: too costly to recompute, so stored once
        }
        Tensor a = shared.mul(2.0);
        Tensor b = shared.add(1.0);
        counting.reset();
        Tensor.realizeAll(a, b);
        assertThat(counting.computed(Op.EXP)).as("each exp computed once for both targets").isEqualTo(5);
        assertThat(counting.kernels()).as("the shared part, then one kernel writing both targets").hasSize(2);
        assertThat(counting.kernels().get(1).outputCount()).isEqualTo(2);
        assertThat(Results.get(TensorInternals.node(a))).isNotNull();
        assertThat(Results.get(TensorInternals.node(b))).isNotNull();
        assertThat(Results.get(TensorInternals.node(shared))).as("an intermediate keeps no result").isNull();

        double[] expA = new double[12];
        double[] expB = new double[12];
        double[] data = random(1, 3, 4).data;
        for (int i = 0; i < 12; i++) {
            expA[i] = data[i] * 2.0;
            expB[i] = data[i] + 1.0;
        }
        Close.assertClose("a", a.toDoubleArray(), expA, 1e-13, 1e-14);
        Close.assertClose("b", b.toDoubleArray(), expB, 1e-13, 1e-14);
        assertThat(counting.computed(Op.EXP)).as("reading realized targets computes nothing").isEqualTo(5);
    }

    @Test
    void targetsOfOneShapeReadingOneBufferAreOneKernelWithTwoOutputs() {
        Tensor x = tensor(random(1, 3, 4)).realize();
        Tensor shared = x.exp();
        Tensor a = shared.mul(2.0);
        Tensor b = shared.add(1.0);
        counting.reset();
        Tensor.realizeAll(a, b);
        assertThat(counting.kernels()).hasSize(1);
        assertThat(counting.kernels().get(0).outputCount()).isEqualTo(2);
        assertThat(counting.computed(Op.EXP)).as("exp is evaluated once for both outputs").isEqualTo(1);
        assertThat(counting.allocations()).as("no buffer for exp(x): only the two results").isEqualTo(2);
        double[] data = random(1, 3, 4).data;
        for (int i = 0; i < 12; i++) {
            assertThat(a.toDoubleArray()[i]).isEqualTo(Math.exp(data[i]) * 2.0);
            assertThat(b.toDoubleArray()[i]).isEqualTo(Math.exp(data[i]) + 1.0);
        }
    }

    @Test
    void aCheapSharedNodeIsRecomputedByEachKernelInsteadOfStored() {
        Tensor x = tensor(random(1, 3, 4)).realize();
        Tensor shared = x.exp();
        Tensor a = shared.mul(2.0);
        Tensor b = shared.sum(1); // another iteration space: a kernel of its own
        counting.reset();
        Tensor.realizeAll(a, b);
        assertThat(counting.kernels()).hasSize(2);
        assertThat(counting.computed(Op.EXP)).as("exp is evaluated in both kernels").isEqualTo(2);
        assertThat(counting.allocations()).as("no buffer for exp(x): only the two results").isEqualTo(2);
        double[] data = random(1, 3, 4).data;
        for (int i = 0; i < 12; i++) {
            assertThat(a.toDoubleArray()[i]).isEqualTo(Math.exp(data[i]) * 2.0);
        }
        for (int row = 0; row < 3; row++) {
            double total = 0;
            for (int j = 0; j < 4; j++) {
                total += Math.exp(data[row * 4 + j]);
            }
            assertThat(b.toDoubleArray()[row]).isCloseTo(total, org.assertj.core.data.Offset.offset(1e-12));
        }
    }

    @Test
    void realizeAllWithATargetThatFeedsAnotherKeepsBoth() {
        Tensor x = tensor(random(2, 5));
        Tensor first = x.exp();
        Tensor second = first.log();
        counting.reset();
        Tensor.realizeAll(second, first);
        assertThat(counting.computed(Op.EXP)).isEqualTo(1);
        assertThat(counting.computed(Op.LOG)).isEqualTo(1);
        assertThat(counting.kernels()).as("exp(x) is an extra output of the kernel that reads it").hasSize(1);
        DeviceBuffer firstBuffer = counting.outputsOf(Op.EXP).get(0);
        assertThat(counting.releasedBy(firstBuffer)).as("a target's buffer is kept").isNull();
        Close.assertClose("log exp", second.toDoubleArray(), random(2, 5).data, 1e-14, 1e-15);
        assertThat(Results.get(TensorInternals.node(first))).isNotNull();
    }

    @Test
    void rearrangeOfARealizedContiguousTensorAllocatesNothing() {
        NdArray data = random(3, 2, 3, 4, 5);
        Tensor x = tensor(data).realize();
        counting.reset();
        Tensor channelsLast = x.rearrange("b c h w -> b h w c").realize();
        assertThat(counting.allocations()).as("b c h w -> b h w c is a view").isZero();

        Tensor flat = tensor(random(4, 2, 12)).realize();
        counting.reset();
        Tensor split = flat.rearrange("b (h w) -> b h w", Axes.of("h", 3)).realize();
        assertThat(counting.allocations()).as("b (h w) -> b h w is a view").isZero();
        Tensor merged = x.rearrange("b c h w -> b (c h w)").realize();
        assertThat(counting.allocations()).as("b c h w -> b (c h w) is a view").isZero();

        Close.assertExact("channels last", channelsLast.toDoubleArray(), data.permute(0, 2, 3, 1).data);
        Close.assertExact("split", split.toDoubleArray(), random(4, 2, 12).data);
        Close.assertExact("merged", merged.toDoubleArray(), data.data);
        assertThat(split.shape()).containsExactly(2, 3, 4);
    }

    @Test
    void aReshapeThatNeedsACopyAllocatesExactlyOneBuffer() {
        NdArray data = random(5, 3, 4);
        Tensor x = tensor(data).realize();
        counting.reset();
        Tensor flat = x.transpose(0, 1).reshape(12).realize();
        assertThat(counting.allocations()).isEqualTo(1);
        Close.assertExact("transpose then flatten", flat.toDoubleArray(), data.permute(1, 0).data);
    }

    @Test
    void intermediatesAreReleasedAsSoonAsTheyAreConsumed() {
        NdArray data = random(6, 4, 3);
        Tensor x = tensor(data).realize();
        Tensor result = x.sub(x.max(1).reshape(4, 1)).exp().sum(1); // the row max feeds a second kernel
        counting.reset();
        result.realize();
        assertThat(counting.kernels()).hasSize(2);
        List<DeviceBuffer> negatedMax = counting.outputsOf(Op.MUL);
        assertThat(negatedMax).as("kernel 1: -max(x) over rows (a reduction with its epilogue)").hasSize(1);
        assertThat(counting.releasedBy(negatedMax.get(0))).as("the intermediate is released by the runtime")
                .isSameAs(Thread.currentThread());
        DeviceBuffer sum = counting.outputsOf(Op.SUM).get(0);
        assertThat(counting.releasedBy(sum)).as("the result is kept").isNull();
        double[] expected = new double[4];
        for (int r = 0; r < 4; r++) {
            double max = Double.NEGATIVE_INFINITY;
            for (int c = 0; c < 3; c++) {
                max = Math.max(max, data.data[3 * r + c]);
            }
            for (int c = 0; c < 3; c++) {
                expected[r] += Math.exp(data.data[3 * r + c] - max);
            }
        }
        Close.assertClose("sum exp(x - max)", result.toDoubleArray(), expected, 1e-14, 1e-15);
        assertThat(x.toDoubleArray()).as("the input survives").hasSize(12);
    }

    @Test
    void aViewOfAnIntermediateKeepsItsBufferAlive() {
        Tensor x = tensor(random(7, 3, 4)).realize();
        Tensor result = x.exp().transpose(0, 1); // a target that is a view of exp's buffer
        counting.reset();
        result.realize();
        DeviceBuffer exp = counting.outputsOf(Op.EXP).get(0);
        assertThat(counting.releasedBy(exp)).as("the target reads exp's buffer").isNull();
        NdArray expected = random(7, 3, 4);
        for (int i = 0; i < 12; i++) {
            expected.data[i] = Math.exp(expected.data[i]);
        }
        Close.assertClose("exp transposed", result.toDoubleArray(), expected.permute(1, 0).data, 1e-15, 0);
    }

    @Test
    void aRealizedResultIsNotRecomputed() {
        Tensor x = tensor(random(8, 6));
        Tensor y = x.exp();
        counting.reset();
        double[] first = y.toDoubleArray();
        double[] second = y.toDoubleArray();
        y.realize();
        assertThat(second).containsExactly(first);
        assertThat(counting.computed(Op.EXP)).isEqualTo(1);
        Tensor z = y.add(1.0).realize();
        assertThat(counting.computed(Op.EXP)).as("a realized node is a leaf for later graphs").isEqualTo(1);
        assertThat(z.toDoubleArray()[0]).isEqualTo(first[0] + 1.0);
    }

    @Test
    void tensorsOfTwoBackendsCombine() {
        NdArray a = random(9, 2, 3);
        NdArray b = random(10, 2, 3);
        Tensor onCounting = tensor(a);
        Backends.use(ReferenceBackend.NAME);
        Tensor onReference = tensor(b);
        Tensor sum = onReference.add(onCounting.transpose(0, 1).transpose(0, 1));
        double[] expected = new double[6];
        for (int i = 0; i < 6; i++) {
            expected[i] = a.data[i] + b.data[i];
        }
        Close.assertExact("cross-backend add", sum.toDoubleArray(), expected);
        Backends.use(CountingBackend.NAME);
    }

    @Test
    void readingAFloat32ConstantBroadcastGivesEveryElement() {
        Tensor full = Tensor.full(0.1, DType.FLOAT32, 2, 3);
        double[] values = full.toDoubleArray();
        assertThat(values).hasSize(6).containsOnly((double) 0.1f);
    }

    @Test
    void zeroSizeTensorsRealize() {
        Tensor empty = Tensor.zeros(0, 3).exp().add(Tensor.ones(3)).rearrange("a b -> b a");
        assertThat(empty.shape()).containsExactly(3, 0);
        assertThat(empty.toDoubleArray()).isEmpty();
        assertThat(Tensor.zeros(0, 3).sum(0).toDoubleArray()).containsExactly(0, 0, 0);
    }

    /** A tensor and the naive model of its values. */
    private record Pair(Tensor tensor, NdArray model) {
    }

    private static NdArray mapModel(NdArray a, java.util.function.DoubleUnaryOperator f) {
        double[] out = new double[a.size()];
        for (int i = 0; i < out.length; i++) {
            out[i] = f.applyAsDouble(a.data[i]);
        }
        return new NdArray(a.shape, out);
    }

    private static NdArray zipModel(NdArray a, NdArray b, java.util.function.DoubleBinaryOperator f) {
        double[] out = new double[a.size()];
        for (int i = 0; i < out.length; i++) {
            out[i] = f.applyAsDouble(a.data[i], b.data[i]);
        }
        return new NdArray(a.shape, out);
    }

    private static int[] randomOrder(SplittableRandom random, int rank) {
        int[] order = java.util.stream.IntStream.range(0, rank).toArray();
        for (int k = rank - 1; k > 0; k--) {
            int j = random.nextInt(k + 1);
            int swap = order[k];
            order[k] = order[j];
            order[j] = swap;
        }
        return order;
    }

    /** One random op on nodes of the pool; every result is exact in float64 so models compare exactly. */
    private static Pair randomNode(SplittableRandom random, List<Pair> pool) {
        Pair x = pool.get(random.nextInt(pool.size()));
        Tensor t = x.tensor();
        NdArray m = x.model();
        int rank = m.rank();
        switch (random.nextInt(10)) {
            case 0: {
                List<Pair> same = pool.stream().filter(p -> java.util.Arrays.equals(p.model().shape, m.shape)).toList();
                Pair y = same.get(random.nextInt(same.size()));
                return new Pair(t.add(y.tensor()), zipModel(m, y.model(), Double::sum));
            }
            case 1: {
                List<Pair> same = pool.stream().filter(p -> java.util.Arrays.equals(p.model().shape, m.shape)).toList();
                Pair y = same.get(random.nextInt(same.size()));
                return new Pair(t.maximum(y.tensor()), zipModel(m, y.model(), Math::max));
            }
            case 2:
                return new Pair(t.mul(0.5).neg(), mapModel(m, v -> -(v * 0.5)));
            case 3: {
                int[] order = randomOrder(random, rank);
                return new Pair(t.permute(order), m.permute(order));
            }
            case 4: {
                boolean[] axes = new boolean[rank];
                List<Integer> flipped = new ArrayList<>();
                for (int k = 0; k < rank; k++) {
                    axes[k] = random.nextBoolean();
                    if (axes[k]) {
                        flipped.add(k);
                    }
                }
                return new Pair(t.flip(flipped.stream().mapToInt(Integer::intValue).toArray()), m.flip(axes));
            }
            case 5: {
                int size = m.size();
                int first = 1;
                for (int d = 2; d <= size; d++) {
                    if (size % d == 0 && random.nextBoolean()) {
                        first = d;
                        break;
                    }
                }
                int[] target = size == 0 ? new int[] {0, 2} : new int[] {first, size / first};
                return new Pair(t.reshape(target), m.reshape(target));
            }
            case 6: {
                int axis = random.nextInt(rank);
                int length = m.shape[axis];
                int from = random.nextInt(length + 1);
                int to = from + random.nextInt(length - from + 1);
                int[] starts = new int[rank];
                int[] ends = m.shape.clone();
                starts[axis] = from;
                ends[axis] = to;
                return new Pair(t.slice(axis, from, to), m.shrink(starts, ends));
            }
            case 7: {
                int[] before = new int[rank];
                int[] after = new int[rank];
                before[random.nextInt(rank)] = 1;
                after[random.nextInt(rank)] = 1;
                double fill = random.nextBoolean() ? 0.0 : 1.5;
                return new Pair(t.pad(before, after, fill), m.pad(before, after, fill));
            }
            case 8: {
                if (rank < 2) {
                    return new Pair(t.unsqueeze(0).expand(2, m.shape[0]), m.reshape(1, m.shape[0]).expand(2, m.shape[0]));
                }
                int axis = random.nextInt(rank);
                return new Pair(t.sum(axis), m.reduceKeep(NdArray.Kind.SUM, axis).dropAxes(axis));
            }
            default:
                return new Pair(t.contiguous(), m);
        }
    }

    @Test
    void randomGraphsWithSharedNodesAndSeveralTargetsAgreeWithTheModel() {
        SplittableRandom random = new SplittableRandom(77);
        for (int graph = 0; graph < 60; graph++) {
            List<Pair> pool = new ArrayList<>();
            for (int leaf = 0; leaf < 2; leaf++) {
                int[] shape = {1 + random.nextInt(4), 1 + random.nextInt(4)};
                double[] data = new double[shape[0] * shape[1]];
                for (int i = 0; i < data.length; i++) {
                    data[i] = random.nextInt(-8, 9) * 0.25; // dyadic: every op above is exact
                }
                NdArray model = new NdArray(shape, data);
                Tensor tensor = Tensor.of(data, shape);
                if (random.nextBoolean()) {
                    tensor.realize();
                }
                pool.add(new Pair(tensor, model));
            }
            for (int node = 0; node < 25; node++) {
                Pair made = randomNode(random, pool);
                if (made.model().size() <= 400 && made.model().rank() <= 4) {
                    pool.add(made);
                }
            }
            List<Pair> targets = new ArrayList<>();
            for (int t = 0; t < 4; t++) {
                targets.add(pool.get(2 + random.nextInt(pool.size() - 2)));
            }
            counting.reset();
            Tensor.realizeAll(targets.stream().map(Pair::tensor).toArray(Tensor[]::new));
            for (Pair target : targets) {
                assertThat(Results.get(TensorInternals.node(target.tensor()))).isNotNull();
            }
            for (Pair pair : pool) {
                assertThat(pair.tensor().shape()).as("graph " + graph).containsExactly(pair.model().shape);
                Close.assertExact("graph " + graph + " node " + TensorInternals.node(pair.tensor()), pair.tensor().toDoubleArray(), pair.model().data);
            }
        }
    }
}
