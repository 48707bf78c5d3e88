package dev.ein4j.kernel;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ein4j.ir.DType;
import dev.ein4j.ir.Op;
import dev.ein4j.ir.Shapes;
import dev.ein4j.ir.View;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.api.Test;

/** Reduce kernels over few positions, unrolled to elementwise kernels, against the interpreter bit for bit. */
class SmallReductionsTest {

    /** A kernel to unroll and the data it reads. */
    record Case(String name, Kernel kernel, List<HostData> inputs, Parameters parameters) {
        @Override
        public String toString() {
            return name;
        }
    }

    static Stream<Arguments> cases() {
        return Stream.of(
                maxPool(DType.FLOAT32), maxPool(DType.FLOAT64), paddedWindowMean(), squeezedRowSum(), meanAndSquares(),
                productOverOuterAxis(), randomPrologue(), singlePosition())
                .map(Arguments::of);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void theUnrolledKernelComputesTheReductionsValuesExactly(Case c) {
        Kernel unrolled = SmallReductions.unrolled(c.kernel(), 16, 1000);
        assertThat(unrolled).as("unrolled " + c.name()).isNotNull();
        assertThat(unrolled.kind()).isEqualTo(Kernel.Kind.ELEMENTWISE);
        assertThat(unrolled.outputShape()).isEqualTo(c.kernel().outputShape());
        List<HostData> expected = run(c.kernel(), c);
        List<HostData> actual = run(unrolled, c);
        for (int k = 0; k < expected.size(); k++) {
            assertThat(actual.get(k).dtype()).isEqualTo(expected.get(k).dtype());
            double[] x = expected.get(k).toDoubles();
            double[] y = actual.get(k).toDoubles();
            for (int i = 0; i < x.length; i++) {
                assertThat(Double.doubleToLongBits(y[i])).as(c.name() + " output " + k + " element " + i + ": " + x[i] + " vs " + y[i]
                        + "\n" + unrolled).isEqualTo(Double.doubleToLongBits(x[i]));
            }
        }
    }

    @Test
    void aMaxPoolWindowBecomesFourShiftedLoadsAndThreeMaxima() {
        Kernel unrolled = SmallReductions.unrolled(maxPool(DType.FLOAT32).kernel(), 16, 1000);
        long loads = unrolled.instructions().stream().filter(i -> i.isLoad()).count();
        long maxima = unrolled.instructions().stream().filter(i -> i.op() == Op.MAX).count();
        assertThat(loads).as("four window positions of x, one load of the broadcast bias").isEqualTo(5);
        assertThat(maxima).isEqualTo(3);
    }

    @Test
    void kernelsItCannotOrShouldNotUnrollAreLeftAlone() {
        assertThat(SmallReductions.unrolled(maxPool(DType.FLOAT32).kernel(), 3, 1000)).as("more positions than allowed").isNull();
        assertThat(SmallReductions.unrolled(maxPool(DType.FLOAT32).kernel(), 16, 20)).as("too many instructions").isNull();
        assertThat(SmallReductions.unrolled(integerSum(), 16, 1000)).as("an integer sum wraps once at the end").isNull();
        Kernel elementwise = new Kernel(List.of(DType.FLOAT32), List.of(Instruction.load(0, DType.FLOAT32, View.contiguous(new int[] {4}))));
        assertThat(SmallReductions.unrolled(elementwise, 16, 1000)).isNull();
    }

    // ------------------------------------------------------------------ the table

    /** relu(x + bias) over 2 × 2 windows of x[2, 3, 8, 8], maximum per window; NaN in some windows. */
    private static Case maxPool(DType type) {
        int[] split = {2, 3, 4, 2, 4, 2};
        int[] pooled = {2, 3, 4, 1, 4, 1};
        List<Instruction> p = new ArrayList<>();
        p.add(Instruction.load(0, type, View.contiguous(new int[] {2, 3, 8, 8}).reshape(split)));            // %0 x
        p.add(Instruction.load(1, type, View.contiguous(new int[] {1, 3, 1, 1, 1, 1}).expand(split)));      // %1 bias
        p.add(Instruction.apply(Op.ADD, type, split, 0, 1));                                                // %2
        p.add(Instruction.constant(0, type, View.broadcastScalar(split)));                                  // %3 0
        p.add(Instruction.apply(Op.CMPLT, DType.BOOL, split, 2, 3));                                        // %4
        p.add(Instruction.apply(Op.WHERE, type, split, 4, 3, 2));                                           // %5 relu
        p.add(Instruction.reduce(Op.REDUCE_MAX, type, pooled, new int[] {3, 5}, 5));                        // %6
        HostData x = data(type, 2 * 3 * 64, 1);
        x.set(5, Double.NaN);
        x.set(77, Double.NaN);
        return new Case("max pool " + type, new Kernel(List.of(type, type), p), List.of(x, data(type, 3, 2)), Parameters.ofConstants(0));
    }

    /**
     * The mean over windows of x[2, 2, 2, 2, 2] padded with zeros, one before on a kept axis and one
     * before on a reduced axis: windows of 2 × 3 positions, some of them padding, the mean an epilogue.
     */
    private static Case paddedWindowMean() {
        DType type = DType.FLOAT32;
        int[] split = {2, 3, 2, 2, 3};
        int[] pooled = {2, 3, 1, 2, 1};
        View padded = View.contiguous(new int[] {2, 2, 2, 2, 2}).pad(new int[] {0, 1, 0, 0, 1}, new int[] {0, 0, 0, 0, 0}, 0.0);
        assertThat(padded.shape()).isEqualTo(split);
        List<Instruction> p = new ArrayList<>();
        p.add(Instruction.load(0, type, padded));
        p.add(Instruction.reduce(Op.SUM, type, pooled, new int[] {2, 4}, 0));
        p.add(Instruction.constant(0, type, View.broadcastScalar(pooled)));
        p.add(Instruction.apply(Op.MUL, type, pooled, 1, 2));
        return new Case("padded window mean", new Kernel(List.of(type), p), List.of(data(type, 32, 3)), Parameters.ofConstants(1 / 6.0));
    }

    /** Σ over the last axis of x[5, 4] with the result indexed as [5], and an epilogue reading it there. */
    private static Case squeezedRowSum() {
        DType type = DType.FLOAT32;
        int[] shape = {5, 4};
        List<Instruction> p = new ArrayList<>();
        p.add(Instruction.load(0, type, View.contiguous(shape)));
        p.add(Instruction.apply(Op.EXP, type, shape, 0));
        p.add(Instruction.reduce(Op.SUM, type, new int[] {5}, new int[] {1}, 1));
        p.add(Instruction.apply(Op.LOG, type, new int[] {5}, 2));
        return new Case("squeezed row sum", new Kernel(List.of(type), p), List.of(data(type, 20, 4)), Parameters.NONE);
    }

    /** Σ x and Σ x² over the middle axis (3 positions) in one kernel: two outputs. */
    private static Case meanAndSquares() {
        DType type = DType.FLOAT32;
        int[] shape = {4, 3, 5};
        int[] reduced = {4, 1, 5};
        List<Instruction> p = new ArrayList<>();
        p.add(Instruction.load(0, type, View.contiguous(shape)));
        p.add(Instruction.apply(Op.MUL, type, shape, 0, 0));
        p.add(Instruction.reduce(Op.SUM, type, reduced, new int[] {1}, 0));
        p.add(Instruction.reduce(Op.SUM, type, reduced, new int[] {1}, 1));
        return new Case("sum and sum of squares", new Kernel(List.of(type), p, new int[] {2, 3}), List.of(data(type, 60, 5)),
                Parameters.NONE);
    }

    /** Π over the outermost axis of a float64 x[3, 50], read transposed. */
    private static Case productOverOuterAxis() {
        DType type = DType.FLOAT64;
        int[] shape = {3, 50};
        List<Instruction> p = new ArrayList<>();
        p.add(Instruction.load(0, type, View.contiguous(new int[] {50, 3}).permute(new int[] {1, 0})));
        p.add(Instruction.reduce(Op.PROD, type, new int[] {1, 50}, new int[] {0}, 0));
        return new Case("product over the outer axis", new Kernel(List.of(type), p), List.of(data(type, 150, 6)), Parameters.NONE);
    }

    /** x + noise over pairs: the RAND generator is read at each position's own counters. */
    private static Case randomPrologue() {
        DType type = DType.FLOAT32;
        int[] shape = {6, 2};
        List<Instruction> p = new ArrayList<>();
        p.add(Instruction.load(0, type, View.contiguous(shape)));
        p.add(Instruction.random(0, type, View.contiguous(shape)));
        p.add(Instruction.apply(Op.ADD, type, shape, 0, 1));
        p.add(Instruction.reduce(Op.SUM, type, new int[] {6, 1}, new int[] {1}, 2));
        return new Case("random prologue", new Kernel(List.of(type), p), List.of(data(type, 12, 7)), Parameters.ofBits(99));
    }

    /** A reduction over an axis of length 1: a cast, nothing to combine. */
    private static Case singlePosition() {
        DType type = DType.FLOAT32;
        List<Instruction> p = new ArrayList<>();
        p.add(Instruction.load(0, type, View.contiguous(new int[] {7, 1})));
        p.add(Instruction.reduce(Op.SUM, type, new int[] {7, 1}, new int[] {1}, 0));
        return new Case("one position", new Kernel(List.of(type), p), List.of(data(type, 7, 8)), Parameters.NONE);
    }

    private static Kernel integerSum() {
        int[] shape = {4, 2};
        List<Instruction> p = new ArrayList<>();
        p.add(Instruction.load(0, DType.INT32, View.contiguous(shape)));
        p.add(Instruction.reduce(Op.SUM, DType.INT32, new int[] {4, 1}, new int[] {1}, 0));
        return new Kernel(List.of(DType.INT32), p);
    }

    // ------------------------------------------------------------------ helpers

    private static List<HostData> run(Kernel kernel, Case c) {
        List<HostData> outputs = new ArrayList<>();
        for (int k = 0; k < kernel.outputCount(); k++) {
            outputs.add(HostData.allocate(kernel.outputType(k), (int) Shapes.size(kernel.outputShape())));
        }
        KernelInterpreter.run(kernel, outputs, c.inputs(), c.parameters());
        return outputs;
    }

    private static HostData data(DType type, int length, long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        double[] values = new double[length];
        for (int i = 0; i < length; i++) {
            values[i] = random.nextDouble(-2, 2);
        }
        return HostData.fromDoubles(type, values);
    }
}
