package dev.ein4j.cpu;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ein4j.backend.Backends;
import dev.ein4j.backend.DeviceBuffer;
import dev.ein4j.error.EinopsException;
import dev.ein4j.ir.DType;
import dev.ein4j.kernel.HostData;
import dev.ein4j.reference.ReferenceBackend;
import dev.ein4j.tensor.Ein;
import dev.ein4j.tensor.Generator;
import dev.ein4j.tensor.Tensor;
import dev.ein4j.testing.Agreement;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class CpuBackendTest {

    @AfterEach
    void restore() {
        Backends.use(ReferenceBackend.NAME);
    }

    @Test
    void theCpuBackendIsPreferredAndReportsItsVectorization() {
        assertThat(Backends.available().get(0)).isEqualTo(CpuBackend.NAME);
        CpuBackend cpu = (CpuBackend) Backends.get(CpuBackend.NAME);
        boolean expectVector = !"false".equals(System.getProperty("ein4j.cpu.expectVector", "true"));
        assertThat(cpu.vectorization()).isEqualTo(expectVector ? "vector" : "scalar");
        assertThat(cpu.threads()).isGreaterThanOrEqualTo(1);
    }

    @Test
    void buffersRoundTripInTheirOwnTypeAndReleasedOnesAreRecycled() {
        CpuBackend cpu = new CpuBackend();
        DeviceBuffer buffer = cpu.allocate(DType.FLOAT32, 3);
        cpu.write(buffer, new HostData.Float32(new float[] {1.5f, -2f, 3f}));
        assertThat(((HostData.Float32) cpu.read(buffer)).values()).containsExactly(1.5f, -2f, 3f);
        cpu.release(buffer);
        cpu.release(buffer); // idempotent
        assertThatThrownBy(() -> cpu.read(buffer)).isInstanceOf(IllegalStateException.class);
        long fresh = cpu.freshAllocations();
        DeviceBuffer again = cpu.allocate(DType.FLOAT32, 3);
        assertThat(cpu.freshAllocations()).as("served from the pool").isEqualTo(fresh);
        assertThatThrownBy(() -> cpu.allocate(DType.FLOAT32, Long.MAX_VALUE)).isInstanceOf(EinopsException.class);
        cpu.release(again);
    }

    @Test
    void intermediatesComeFromThePoolSoOnlyResultsAreFreshUntilCollected() {
        CpuBackend cpu = (CpuBackend) Backends.use(CpuBackend.NAME);
        Generator generator = new Generator(5);
        Tensor x = Tensor.randn(generator, 64, 32).realize();
        Tensor w = Tensor.randn(generator, 32, 16).realize();
        long before = 0;
        for (int step = 0; step < 30; step++) {
            if (step == 10) {
                System.gc(); // results of earlier steps come back through the cleaner
                before = cpu.freshAllocations();
            }
            Tensor h = Ein.einsum("b i, i o -> b o", x, w).tanh(); // h is an intermediate of the next realization
            w = w.sub(Ein.einsum("b i, b o -> i o", x, h).mul(1e-3)).realize();
        }
        assertThat(cpu.freshAllocations() - before).as("fresh arrays in 20 steps: at most the 20 results")
                .isLessThanOrEqualTo(20);
    }

    @Test
    void inPlaceUpdatesWriteTheTargetBufferElementForElement() {
        Backends.use(CpuBackend.NAME);
        int n = 10_007; // not a multiple of any vector length
        float[] start = new float[n];
        float[] step = new float[n];
        for (int i = 0; i < n; i++) {
            start[i] = i * 0.5f;
            step[i] = (i % 7) - 3;
        }
        Tensor w = Tensor.of(start, n);
        Tensor g = Tensor.of(step, n);
        w.assign(w.sub(g.mul(0.25)));
        w.assign(w.flip(0).add(w));
        float[] got = w.toFloatArray();
        for (int i = 0; i < n; i++) {
            int j = n - 1 - i;
            float expected = (start[j] - step[j] * 0.25f) + (start[i] - step[i] * 0.25f);
            assertThat(got[i]).as("element %d", i).isEqualTo(expected);
        }
    }

    @Test
    void largeKernelsOverShortRowsAgreeWithTheReference() {
        // big enough to run on several tasks, with rows short enough to be grouped and reordered
        Generator generator = new Generator(11);
        Tensor x = Tensor.randn(generator, 64, 24, 14, 14).realize();
        Tensor channelsLast = Tensor.randn(generator, 64, 14, 14, 24).realize().rearrange("b h w c -> b c h w");
        List<java.util.function.Supplier<Tensor>> programs = List.of(
                () -> x.reduce("b c (h 2) (w 2) -> b c h w", "max"),
                () -> channelsLast.reduce("b c (h 2) (w 2) -> b c h w", "max"),
                () -> channelsLast.add(x).reduce("b c h w -> c", "sum"),
                () -> x.reduce("b c h w -> b h", "mean"),
                () -> channelsLast.mul(x).reduce("b c h w -> b c w", "sum"),
                () -> x.pad(new int[] {0, 0, 1, 2}, new int[] {0, 0, 2, 1}, -1.0).add(1).reduce(
                        "b c (h + kh) (w + kw) -> b c h w", "max", dev.ein4j.tensor.Axes.of("kh", 3, "kw", 3)),
                () -> channelsLast.relu().mul(2).sub(x.flip(3)),
                () -> x.rearrange("b c (h p) (w q) -> b c h w (p q)", dev.ein4j.tensor.Axes.of("p", 2, "q", 2)).add(1).exp().sum(4));
        for (int i = 0; i < programs.size(); i++) {
            Backends.use(ReferenceBackend.NAME);
            float[] expected = programs.get(i).get().toFloatArray();
            Backends.use(CpuBackend.NAME);
            float[] actual = programs.get(i).get().toFloatArray();
            assertThat(actual).as("program %d", i).hasSameSizeAs(expected);
            for (int j = 0; j < expected.length; j++) {
                assertThat(actual[j]).as("program %d element %d", i, j)
                        .isCloseTo(expected[j], org.assertj.core.data.Offset.offset(1e-4f * Math.max(1f, Math.abs(expected[j]))));
            }
        }
    }

    @Test
    void matmulsOfManyLayoutsAgreeWithTheReference() {
        Generator generator = new Generator(7);
        int[][] shapes = {{1, 1, 1}, {7, 13, 5}, {65, 33, 129}, {128, 96, 200}, {3, 1, 300}};
        for (int[] s : shapes) {
            for (DType dtype : List.of(DType.FLOAT32, DType.FLOAT64)) {
                Backends.use(ReferenceBackend.NAME);
                Tensor a = Tensor.randn(new Generator(s[0] * 31 + s[1]), dtype, s[0], s[2]);
                Tensor b = Tensor.randn(new Generator(s[1] * 17 + s[2]), dtype, s[1], s[2]);
                Tensor bias = Tensor.randn(new Generator(s[1]), dtype, s[1]);
                Tensor expected = Ein.einsum("m k, n k -> m n", a, b).add(bias).relu().realize();
                Tensor expectedT = Ein.einsum("m k, n k -> n m", a, b).realize();
                Backends.use(CpuBackend.NAME);
                Tensor a2 = Tensor.randn(new Generator(s[0] * 31 + s[1]), dtype, s[0], s[2]);
                Tensor b2 = Tensor.randn(new Generator(s[1] * 17 + s[2]), dtype, s[1], s[2]);
                Tensor bias2 = Tensor.randn(new Generator(s[1]), dtype, s[1]);
                compare("linear " + java.util.Arrays.toString(s), expected,
                        Ein.einsum("m k, n k -> m n", a2, b2).add(bias2).relu());
                compare("transposed output " + java.util.Arrays.toString(s), expectedT,
                        Ein.einsum("m k, n k -> n m", a2, b2));
            }
        }
        Backends.use(ReferenceBackend.NAME);
        Tensor q = Tensor.randn(generator, 2, 3, 17, 8);
        Tensor k = Tensor.randn(generator, 2, 3, 19, 8);
        Tensor scores = Ein.einsum("b h i d, b h j d -> b h i j", q, k).realize();
        Tensor mixed = Ein.einsum("b h i d, b h j d -> b h i j", q.cast(DType.FLOAT64), k).realize();
        double[] qv = q.toDoubleArray();
        double[] kv = k.toDoubleArray();
        Backends.use(CpuBackend.NAME);
        Tensor q2 = Tensor.of(qv, DType.FLOAT32, 2, 3, 17, 8);
        Tensor k2 = Tensor.of(kv, DType.FLOAT32, 2, 3, 19, 8);
        compare("batched attention scores", scores, Ein.einsum("b h i d, b h j d -> b h i j", q2, k2));
        compare("mixed precision (a cast prologue)", mixed,
                Ein.einsum("b h i d, b h j d -> b h i j", q2.cast(DType.FLOAT64), k2));
    }

    /**
     * An operand read through a broadcast view along an output axis (the gradient of a sum: a seed of
     * ones): the product is computed once along that axis and copied, and must equal the reference.
     */
    @Test
    void contractionsWithAnOperandBroadcastAlongAnOutputAxisAgreeWithTheReference() {
        for (DType dtype : List.of(DType.FLOAT32, DType.FLOAT64)) {
            Backends.use(ReferenceBackend.NAME);
            List<Tensor> expected = broadcastContractions(dtype).stream().map(Tensor::realize).toList();
            Backends.use(CpuBackend.NAME);
            List<Tensor> actual = broadcastContractions(dtype);
            for (int i = 0; i < expected.size(); i++) {
                compare("broadcast contraction " + i + " " + dtype, expected.get(i), actual.get(i));
            }
            // every row of "i j k, j k l -> i l" with the left operand constant along i is the same
            double[] rows = actual.get(0).toDoubleArray();
            for (int i = 1; i < 4; i++) {
                assertThat(java.util.Arrays.copyOfRange(rows, i * 7, i * 7 + 7)).containsExactly(java.util.Arrays.copyOfRange(rows, 0, 7));
            }
        }
    }

    /** Contractions whose operands are realized scalars or rows read through broadcast views. */
    private static List<Tensor> broadcastContractions(DType dtype) {
        Tensor two = Tensor.of(new double[] {2}, dtype, 1);
        Tensor row = Tensor.randn(new Generator(5), dtype, 1, 6).realize();
        Tensor right = Tensor.randn(new Generator(6), dtype, 5, 6, 7);
        Tensor left = Tensor.randn(new Generator(7), dtype, 4, 6);
        Tensor batched = Tensor.randn(new Generator(8), dtype, 2, 5, 3);
        Tensor bias = Tensor.randn(new Generator(9), dtype, 7);
        return List.of(
                Ein.einsum("i j k, j k l -> i l", two.reshape(1, 1, 1).expand(4, 5, 6), right),
                Ein.einsum("i k, k l -> i l", left, two.reshape(1, 1).expand(6, 7)),
                Ein.einsum("b i k, b k l -> b i l", two.reshape(1, 1, 1).expand(2, 4, 5), batched),
                Ein.einsum("i j k, j k l -> l i", two.reshape(1, 1, 1).expand(4, 5, 6), right),
                Ein.einsum("i j k, j k l -> i l", row.reshape(1, 1, 6).expand(4, 5, 6), right).add(bias).relu(),
                Ein.einsum("i j k, j k l -> i l", row.reshape(1, 1, 6).expand(4, 5, 6), right));
    }

    @Test
    void reductionsOfEveryLayoutAgreeWithTheReference() {
        int[][] shapes = {{4096}, {3, 5000}, {5000, 3}, {64, 64, 33}, {1, 1, 70000}};
        for (int[] shape : shapes) {
            for (int axis = 0; axis < shape.length; axis++) {
                Backends.use(ReferenceBackend.NAME);
                Tensor x = Tensor.randn(new Generator(axis * 100 + shape.length), DType.FLOAT32, shape);
                Tensor sum = x.sum(axis).realize();
                Tensor max = x.max(new int[] {axis}, true).realize();
                Tensor soft = x.softmax(axis).realize();
                Backends.use(CpuBackend.NAME);
                Tensor y = Tensor.randn(new Generator(axis * 100 + shape.length), DType.FLOAT32, shape);
                compare("sum", sum, y.sum(axis));
                compare("max", max, y.max(new int[] {axis}, true));
                compare("softmax", soft, y.softmax(axis));
            }
        }
    }

    private static void compare(String what, Tensor expected, Tensor actual) {
        Agreement.compare(what, expected, actual, CpuBackend.NAME);
    }
}
