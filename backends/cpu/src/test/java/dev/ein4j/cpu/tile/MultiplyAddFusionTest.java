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

/**
 * Products read by one sum, and constant operands, evaluated as x·y + z passes: against the
 * interpreter bit for bit (signed zeros, NaN, infinities and subnormals among the inputs), with and
 * without the Vector API, and which instructions are fused or skipped.
 */
class MultiplyAddFusionTest {

    private static final int[] SHAPE = {96, 500}; // 48,000 elements: parallel tasks, vector tails
    private static final int[] ROW = {1, 500};
    /** Constant slots: the coefficients of a cubic, a scale, and −0 (an addend that must keep signs). */
    private static final Parameters CONSTANTS = Parameters.ofConstants(0.17087277, -0.82215223, 1.48851587, -1.26551223, 2.5, -0.0);

    /** A kernel over three inputs: x and z of SHAPE, y of ROW (broadcast down the rows). */
    record Case(String name, DType type, Kernel kernel) {
        @Override
        public String toString() {
            return name + " " + type;
        }
    }

    /** A program builder: loads x (0), y (1, broadcast) and z (2) first. */
    private static final class Program {
        final List<Instruction> instructions = new ArrayList<>();
        final DType type;

        Program(DType type) {
            this.type = type;
            instructions.add(Instruction.load(0, type, View.contiguous(SHAPE)));
            instructions.add(Instruction.load(1, type, View.contiguous(ROW).expand(SHAPE)));
            instructions.add(Instruction.load(2, type, View.contiguous(SHAPE)));
        }

        int constant(int slot) {
            instructions.add(Instruction.constant(slot, type, View.broadcastScalar(SHAPE)));
            return instructions.size() - 1;
        }

        int apply(Op op, int... sources) {
            DType result = op == Op.CMPLT || op == Op.CMPEQ ? DType.BOOL : type;
            instructions.add(Instruction.apply(op, result, SHAPE, sources));
            return instructions.size() - 1;
        }

        Kernel kernel(int... outputs) {
            return new Kernel(List.of(type, type, type), instructions, outputs.length == 0
                    ? new int[] {instructions.size() - 1} : outputs);
        }
    }

    /** ((c0·x + c1)·x + c2)·x + c3, the constants first in the program as the scheduler emits them. */
    private static Kernel horner(DType type) {
        Program p = new Program(type);
        int value = p.apply(Op.ADD, p.apply(Op.MUL, 0, p.constant(0)), p.constant(1));
        value = p.apply(Op.ADD, p.apply(Op.MUL, value, 0), p.constant(2));
        p.apply(Op.ADD, p.apply(Op.MUL, value, 0), p.constant(3));
        return p.kernel();
    }

    static Stream<Case> cases() {
        List<Case> cases = new ArrayList<>();
        for (DType type : List.of(DType.FLOAT32, DType.FLOAT64)) {
            cases.add(new Case("a cubic by Horner's rule", type, horner(type)));
            Program shift = new Program(type);
            shift.apply(Op.ADD, 2, shift.apply(Op.MUL, 0, 1));
            cases.add(new Case("z + x·y, all tiles, the product second", type, shift.kernel()));
            Program scale = new Program(type);
            scale.apply(Op.MUL, scale.constant(4), 2);
            cases.add(new Case("c·z alone", type, scale.kernel()));
            Program negativeZero = new Program(type);
            negativeZero.apply(Op.ADD, negativeZero.apply(Op.MUL, 0, 1), negativeZero.constant(5));
            cases.add(new Case("x·y + (−0)", type, negativeZero.kernel()));
            Program twice = new Program(type);
            int product = twice.apply(Op.MUL, 0, 1);
            int sum = twice.apply(Op.ADD, product, 2);
            twice.apply(Op.MUL, sum, product);
            cases.add(new Case("a product read twice stays", type, twice.kernel()));
            Program written = new Program(type);
            int writtenProduct = written.apply(Op.MUL, 0, 2);
            int writtenSum = written.apply(Op.ADD, writtenProduct, written.constant(1));
            cases.add(new Case("a product written out stays", type, written.kernel(writtenSum, writtenProduct)));
            Program compared = new Program(type);
            int c = compared.constant(4);
            int shifted = compared.apply(Op.ADD, 0, c);
            int less = compared.apply(Op.CMPLT, shifted, c);
            compared.apply(Op.WHERE, less, shifted, 2);
            cases.add(new Case("a constant also compared keeps its tile", type, compared.kernel()));
            Program square = new Program(type);
            square.apply(Op.ADD, square.apply(Op.MUL, 0, 0), 0);
            cases.add(new Case("x·x + x", type, square.kernel()));
            Program reduced = new Program(type);
            int scaled = reduced.apply(Op.MUL, 0, reduced.constant(4));
            reduced.apply(Op.ADD, reduced.apply(Op.MUL, scaled, 1), 2);
            reduced.instructions.add(Instruction.reduce(Op.SUM, type, new int[] {96, 1}, new int[] {1}, reduced.instructions.size() - 1));
            cases.add(new Case("summed by a reduction", type, reduced.kernel()));
            Program padded = new Program(type);
            padded.instructions.add(Instruction.constant(4, type, View.broadcastScalar(new int[] {94, 500})
                    .pad(new int[] {1, 0}, new int[] {1, 0}, 7.0)));
            padded.apply(Op.ADD, padded.apply(Op.MUL, 0, padded.instructions.size() - 1), 2);
            cases.add(new Case("a padded constant is a tile", type, padded.kernel()));
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
        java.util.Random random = new java.util.Random(c.toString().hashCode());
        List<HostData> inputs = List.of(values(c.type(), (int) Shapes.size(SHAPE), random),
                values(c.type(), (int) Shapes.size(ROW), random), values(c.type(), (int) Shapes.size(SHAPE), random));
        Kernel kernel = c.kernel();
        List<HostData> expected = new ArrayList<>();
        List<HostData> actual = new ArrayList<>();
        for (int output = 0; output < kernel.outputCount(); output++) {
            DType type = kernel.instruction(kernel.outputIndex(output)).dtype();
            int length = (int) Shapes.size(kernel.instruction(kernel.outputIndex(output)).shape());
            expected.add(HostData.allocate(type, length));
            actual.add(BitEqual.unwritten(type, length));
        }
        KernelInterpreter.run(kernel, expected, inputs, CONSTANTS);
        new TileKernels(ops, WorkerPool.shared()).run(kernel, actual, inputs, CONSTANTS);
        for (int output = 0; output < expected.size(); output++) {
            BitEqual.assertBitEqual(c + " output " + output + " (" + ops.kind() + ")", expected.get(output), actual.get(output));
        }
    }

    private static HostData values(DType type, int size, java.util.Random random) {
        double[] specials = {0.0, -0.0, Double.NaN, 1e-30, -1e-300, 1e-40, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY, 3e38};
        double[] values = new double[size];
        for (int i = 0; i < size; i++) {
            values[i] = random.nextInt(4) == 0 ? specials[random.nextInt(specials.length)] : random.nextGaussian() * 3;
        }
        return HostData.fromDoubles(type, values);
    }

    @Test
    void hornersRuleBecomesOnePassPerCoefficientAndItsConstantsAreNeverFilled() {
        Kernel kernel = horner(DType.FLOAT32);
        MultiplyAddFusion fusion = new MultiplyAddFusion(kernel, kernel.indicesOf(Kernel.Segment.OUTPUT),
                i -> kernel.instruction(i).op() == Op.CONST, CONSTANTS);
        // 0-2 loads; 3 c0, 4 x·c0, 5 c1, 6 +; 7 ·x, 8 c2, 9 +; 10 ·x, 11 c3, 12 +
        assertThat(fusion.plans[6]).isEqualTo(new MultiplyAddFusion.Plan(0, 3, true, 5, true));
        assertThat(fusion.plans[9]).isEqualTo(new MultiplyAddFusion.Plan(6, 0, false, 8, true));
        assertThat(fusion.plans[12]).isEqualTo(new MultiplyAddFusion.Plan(9, 0, false, 11, true));
        assertThat(fusion.number(3, 1.0)).isEqualTo(0.17087277);
        assertThat(fusion.number(-1, -0.0)).isEqualTo(-0.0);
        List<Integer> skipped = new ArrayList<>();
        for (int i = 0; i < kernel.size(); i++) {
            if (fusion.skipped[i]) {
                skipped.add(i);
            }
        }
        assertThat(skipped).as("the products and the constants").containsExactly(3, 4, 5, 7, 8, 10, 11);
    }

    @Test
    void productsReadElsewhereAndConstantsReadAsTilesAreEvaluated() {
        Kernel twice = cases().filter(c -> c.name().startsWith("a product read twice")).findFirst().orElseThrow().kernel();
        MultiplyAddFusion fusion = new MultiplyAddFusion(twice, twice.indicesOf(Kernel.Segment.OUTPUT),
                i -> twice.instruction(i).op() == Op.CONST, CONSTANTS);
        assertThat(fusion.plans[4]).as("x·y + z cannot absorb a product that is read again").isNull();
        assertThat(fusion.skipped[3]).isFalse();
        Kernel compared = cases().filter(c -> c.name().startsWith("a constant also compared")).findFirst().orElseThrow().kernel();
        MultiplyAddFusion comparedFusion = new MultiplyAddFusion(compared, compared.indicesOf(Kernel.Segment.OUTPUT),
                i -> compared.instruction(i).op() == Op.CONST, CONSTANTS);
        assertThat(comparedFusion.plans[4]).as("x + c with c as a number").isEqualTo(new MultiplyAddFusion.Plan(0, -1, false, 3, true));
        assertThat(comparedFusion.skipped[3]).as("the comparison reads its tile").isFalse();
    }
}
