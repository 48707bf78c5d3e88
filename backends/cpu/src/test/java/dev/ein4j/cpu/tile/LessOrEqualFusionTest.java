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
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** x ≤ y spelled as (x &lt; y) or (x = y), evaluated in one pass: against the interpreter bit for bit. */
class LessOrEqualFusionTest {

    private static final int[] SHAPE = {96, 500}; // 48,000 elements: parallel tasks, vector tails

    /** A kernel over one input of SHAPE and the constant 0 (slot 0). */
    record Case(String name, DType type, Kernel kernel) {
        @Override
        public String toString() {
            return name + " " + type;
        }
    }

    /** x, 0, x &lt; 0 (or 0 &lt; x when flipped), x = 0, then max in the given order. */
    private static List<Instruction> comparisons(DType type, boolean greater, boolean equalFirst) {
        View view = View.contiguous(SHAPE);
        List<Instruction> program = new ArrayList<>();
        program.add(Instruction.load(0, type, view));
        program.add(Instruction.constant(0, type, View.broadcastScalar(SHAPE)));
        program.add(greater ? Instruction.apply(Op.CMPLT, DType.BOOL, SHAPE, 1, 0) : Instruction.apply(Op.CMPLT, DType.BOOL, SHAPE, 0, 1));
        program.add(Instruction.apply(Op.CMPEQ, DType.BOOL, SHAPE, 0, 1));
        program.add(equalFirst ? Instruction.apply(Op.MAX, DType.BOOL, SHAPE, 3, 2) : Instruction.apply(Op.MAX, DType.BOOL, SHAPE, 2, 3));
        return program;
    }

    private static Kernel relu(DType type, boolean greater, boolean equalFirst) {
        List<Instruction> program = comparisons(type, greater, equalFirst);
        program.add(Instruction.apply(Op.WHERE, type, SHAPE, 4, 1, 0));
        return new Kernel(List.of(type), program);
    }

    static Stream<Case> cases() {
        List<Case> cases = new ArrayList<>();
        for (DType type : List.of(DType.FLOAT32, DType.FLOAT64)) {
            cases.add(new Case("relu: where(x <= 0, 0, x)", type, relu(type, false, false)));
            cases.add(new Case("x >= 0, the max's operands swapped", type, relu(type, true, true)));
            List<Instruction> shared = comparisons(type, false, false);
            shared.add(Instruction.apply(Op.WHERE, type, SHAPE, 4, 1, 0));
            shared.add(Instruction.apply(Op.WHERE, type, SHAPE, 2, 5, 0)); // x < 0 read again
            cases.add(new Case("the less-than read elsewhere too", type, new Kernel(List.of(type), shared)));
            cases.add(new Case("the bool result written out", type, new Kernel(List.of(type), comparisons(type, false, false))));
            List<Instruction> counted = comparisons(type, false, false);
            counted.add(Instruction.apply(Op.CAST, type, SHAPE, 4));
            counted.add(Instruction.reduce(Op.SUM, type, new int[] {96, 1}, new int[] {1}, 5));
            cases.add(new Case("counted by a reduction", type, new Kernel(List.of(type), counted)));
        }
        return cases.stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void evaluatesAsTheInterpreter(Case c) {
        evaluate(c, TileOps.get());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void evaluatesAsTheInterpreterWithoutTheVectorApi(Case c) {
        evaluate(c, new ScalarTileOps());
    }

    private static void evaluate(Case c, TileOps ops) {
        int size = (int) Shapes.size(SHAPE);
        double[] values = new double[size];
        double[] specials = {0.0, -0.0, Double.NaN, 1e-30, -1e-30, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY};
        java.util.Random random = new java.util.Random(c.toString().hashCode());
        for (int i = 0; i < size; i++) {
            values[i] = random.nextInt(4) == 0 ? specials[random.nextInt(specials.length)] : random.nextGaussian();
        }
        List<HostData> inputs = List.of(HostData.fromDoubles(c.type(), values));
        Kernel kernel = c.kernel();
        DType result = kernel.instruction(kernel.outputIndex(0)).dtype();
        int length = (int) Shapes.size(kernel.outputShape());
        Parameters zero = Parameters.ofConstants(0.0);
        HostData expected = HostData.allocate(result, length);
        KernelInterpreter.run(kernel, expected, inputs, zero);
        HostData actual = BitEqual.unwritten(result, length);
        new TileKernels(ops, WorkerPool.shared()).run(kernel, List.of(actual), inputs, zero);
        BitEqual.assertBitEqual(c + " (" + ops.kind() + ")", expected, actual);
    }

    @Test
    void fusesTheMaxOfTheComparisonsAndSkipsThemOnlyWhereNothingElseReadsThem() {
        Kernel relu = relu(DType.FLOAT32, false, false);
        LessOrEqualFusion fusion = new LessOrEqualFusion(relu, relu.indicesOf(Kernel.Segment.OUTPUT));
        assertThat(fusion.lessThanOf[4]).as("the max reads the less-than at 2").isEqualTo(2);
        assertThat(fusion.skipped).containsExactly(false, false, true, true, false, false);
        Kernel shared = cases().filter(c -> c.name().startsWith("the less-than read")).findFirst().orElseThrow().kernel();
        LessOrEqualFusion sharedFusion = new LessOrEqualFusion(shared, shared.indicesOf(Kernel.Segment.OUTPUT));
        assertThat(sharedFusion.skipped[2]).as("read by a where too").isFalse();
        assertThat(sharedFusion.skipped[3]).isTrue();
        Kernel written = new Kernel(List.of(DType.FLOAT32), comparisons(DType.FLOAT32, false, false));
        LessOrEqualFusion writtenFusion = new LessOrEqualFusion(written, written.indicesOf(Kernel.Segment.OUTPUT));
        assertThat(writtenFusion.lessThanOf[4]).isEqualTo(2);
        assertThat(writtenFusion.skipped[4]).as("an output is evaluated").isFalse();
    }
}
