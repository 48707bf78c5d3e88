package dev.ein4j.cpu.tile;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ein4j.cpu.WorkerPool;
import dev.ein4j.ir.DType;
import dev.ein4j.ir.Op;
import dev.ein4j.ir.Shapes;
import dev.ein4j.ir.View;
import dev.ein4j.kernel.HostData;
import dev.ein4j.kernel.Instruction;
import dev.ein4j.kernel.Kernel;
import dev.ein4j.kernel.KernelInterpreter;
import dev.ein4j.kernel.Parameters;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Kernels whose rows are read through patterns ({@link RowPatterns}), against the interpreter bit for
 * bit: broadcasts over window axes, flips, generators, masks on outer axes, integer and bool loads,
 * a reduction, and the space choices themselves.
 */
class RowPatternsTest {

    /** [b, c, h, 2, w, 2]: x of a 2 × 2 max pool, split; 100,352 elements (parallel tasks). */
    private static final int[] WINDOWS = {8, 16, 14, 2, 14, 2};
    private static final int[] POOLED = {8, 16, 14, 1, 14, 1};

    /** A kernel, its inputs' lengths and its parameters. */
    record Case(String name, Kernel kernel, List<DType> inputTypes, int[] inputLengths, Parameters parameters) {
        @Override
        public String toString() {
            return name;
        }
    }

    private static View pooledOverWindows() {
        return View.contiguous(POOLED).expand(WINDOWS);
    }

    private static Case binary(String name, DType type, View left, int leftLength, View right, int rightLength, Op op) {
        DType result = op == Op.CMPEQ || op == Op.CMPLT ? DType.BOOL : type;
        List<Instruction> program = List.of(Instruction.load(0, type, left), Instruction.load(1, type, right),
                Instruction.apply(op, result, left.shape(), 0, 1));
        return new Case(name, new Kernel(List.of(type, type), program), List.of(type, type),
                new int[] {leftLength, rightLength}, Parameters.NONE);
    }

    static Stream<Case> cases() {
        int windows = (int) Shapes.size(WINDOWS);
        int pooled = (int) Shapes.size(POOLED);
        View x = View.contiguous(WINDOWS);
        List<Case> cases = new ArrayList<>();
        for (DType type : List.of(DType.FLOAT32, DType.FLOAT64)) {
            cases.add(binary("tie mask " + type, type, x, windows, pooledOverWindows(), pooled, Op.CMPEQ));
            cases.add(binary("pooled gradient times a mask " + type, type, pooledOverWindows(), pooled, x, windows, Op.MUL));
            cases.add(binary("flipped broadcast " + type, type, x, windows,
                    pooledOverWindows().flip(new boolean[] {false, true, false, false, true, true}), pooled, Op.ADD));
            View paddedBatch = View.contiguous(new int[] {6, 16, 14, 2, 14, 2}).pad(new int[] {1, 0, 0, 0, 0, 0},
                    new int[] {1, 0, 0, 0, 0, 0}, -2.5);
            cases.add(binary("padded batch (a mask on an outer axis) " + type, type, paddedBatch, windows / 8 * 6,
                    pooledOverWindows(), pooled, Op.MAX));
        }
        View repeated = View.contiguous(new int[] {40, 1, 30, 1}).expand(new int[] {40, 3, 30, 3});
        cases.add(new Case("iota and rand through a broadcast", new Kernel(List.of(), List.of(
                Instruction.iota(DType.FLOAT32, repeated), Instruction.random(0, DType.FLOAT32, repeated),
                Instruction.apply(Op.ADD, DType.FLOAT32, repeated.shape(), 0, 1))), List.of(), new int[0],
                Parameters.ofBits(987654321L)));
        cases.add(new Case("int32 broadcast, cast", new Kernel(List.of(DType.INT32), List.of(
                Instruction.load(0, DType.INT32, repeated), Instruction.apply(Op.CAST, DType.FLOAT32, repeated.shape(), 0))),
                List.of(DType.INT32), new int[] {1200}, Parameters.NONE));
        cases.add(new Case("bool broadcast, where", new Kernel(List.of(DType.BOOL, DType.FLOAT32), List.of(
                Instruction.load(0, DType.BOOL, repeated), Instruction.load(1, DType.FLOAT32, View.contiguous(repeated.shape())),
                Instruction.constant(0, DType.FLOAT32, View.broadcastScalar(repeated.shape())),
                Instruction.apply(Op.WHERE, DType.FLOAT32, repeated.shape(), 0, 1, 2))),
                List.of(DType.BOOL, DType.FLOAT32), new int[] {1200, 10800}, Parameters.ofConstants(7.0)));
        View broadcastRows = View.contiguous(new int[] {64, 7, 1}).expand(new int[] {64, 7, 2});
        cases.add(new Case("a sum over the outer axis of a broadcast", new Kernel(List.of(DType.FLOAT32), List.of(
                Instruction.load(0, DType.FLOAT32, broadcastRows),
                Instruction.reduce(Op.SUM, DType.FLOAT32, new int[] {1, 7, 2}, new int[] {0}, 0))),
                List.of(DType.FLOAT32), new int[] {448}, Parameters.NONE));
        return cases.stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void evaluatesAsTheInterpreter(Case c) {
        Random random = new Random(c.name().hashCode());
        List<HostData> inputs = new ArrayList<>();
        for (int k = 0; k < c.inputLengths().length; k++) {
            double[] values = new double[c.inputLengths()[k]];
            for (int i = 0; i < values.length; i++) {
                // few distinct values, so that comparisons tie; NaN now and then
                values[i] = random.nextInt(11) == 0 ? Double.NaN : random.nextInt(5) - 2;
            }
            inputs.add(HostData.fromDoubles(c.inputTypes().get(k), values));
        }
        Kernel kernel = c.kernel();
        int[] shape = kernel.outputShape();
        DType type = kernel.instruction(kernel.outputIndex(0)).dtype();
        int size = (int) Shapes.size(shape);
        HostData expected = HostData.allocate(type, size);
        KernelInterpreter.run(kernel, expected, inputs, c.parameters());
        HostData actual = BitEqual.unwritten(type, size);
        new TileKernels(TileOps.get(), WorkerPool.shared()).run(kernel, List.of(actual), inputs, c.parameters());
        BitEqual.assertBitEqual(c.name(), expected, actual);
    }

    @Test
    void aBroadcastOverWindowsReadsLongPatternedRows() {
        Space space = Space.of(WINDOWS, List.of(View.contiguous(WINDOWS), pooledOverWindows()),
                List.of(Shapes.contiguousStrides(WINDOWS)), true);
        assertThat(space.rowLength()).as("rows of whole windows, up to a tile").isGreaterThanOrEqualTo(784)
                .isLessThanOrEqualTo(SegmentEvaluator.TILE);
        assertThat(space.accesses.get(0).patterned()).as("the contiguous view keeps one stride").isFalse();
        assertThat(space.accesses.get(2).patterned()).as("the output keeps one stride").isFalse();
        Space.Access broadcast = space.accesses.get(1);
        assertThat(broadcast.patterned()).isTrue();
        assertThat(java.util.Arrays.copyOf(broadcast.pattern(), 6)).as("each pooled value twice along w")
                .containsExactly(0, 0, 1, 1, 2, 2);
        assertThat(broadcast.pattern()[28]).as("the second row of a window reads the first row's values again").isZero();
    }

    @Test
    void unitAxesNoLongerStopTheMerge() {
        int[] shape = {128, 32, 14, 1, 14, 1};
        View everyOther = View.contiguous(new int[] {128, 32, 28, 28}).reshape(new int[] {128, 32, 14, 2, 14, 2})
                .shrink(new int[6], new int[] {128, 32, 14, 1, 14, 1});
        Space space = Space.of(shape, List.of(everyOther), List.of(Shapes.contiguousStrides(shape)));
        assertThat(space.shape[space.shape.length - 1]).as("h and w in one patterned row, a factor of b·c·h absorbed")
                .isGreaterThan(14);
        assertThat(Shapes.size(space.shape)).isEqualTo(Shapes.size(shape));
    }

    @Test
    void masksAlongTheRowAndOutputsThatCannotFollowKeepStrides() {
        View paddedWindows = View.contiguous(new int[] {4, 14, 1, 14, 1}).expand(new int[] {4, 14, 2, 14, 2})
                .pad(new int[] {0, 0, 0, 1, 0}, new int[] {0, 0, 0, 1, 0}, 0.0);
        int[] shape = paddedWindows.shape();
        Space masked = Space.of(shape, List.of(paddedWindows), List.of(Shapes.contiguousStrides(shape)));
        assertThat(masked.accesses.get(0).patterned()).as("a mask on an absorbed axis").isFalse();
        int[] small = {64, 7, 2};
        long[] accumulator = {0, 0, 1}; // a reduction over 7 along its row: the accumulator cannot follow
        Space reduced = Space.of(small, List.of(View.contiguous(new int[] {64, 7, 1}).expand(small)), List.of(accumulator));
        assertThat(reduced.accesses.stream().noneMatch(Space.Access::patterned)).isTrue();
    }
}
