package dev.ein4j.cpu.tile;

import dev.ein4j.ir.DType;
import dev.ein4j.ir.Op;
import dev.ein4j.kernel.Instruction;
import dev.ein4j.kernel.Kernel;
import dev.ein4j.kernel.Parameters;
import java.util.function.IntPredicate;

/**
 * Float arithmetic of a segment evaluated as {@code x·y + z} passes, where y and z are tiles or
 * numbers: a MUL read only by one ADD is computed inside that ADD's pass (a polynomial by Horner's
 * rule, a scale and shift, a batch norm's {@code x̂·γ + β}), and an ADD or MUL with a constant
 * operand takes the constant as a number, so that its tile is neither filled nor read. A fused pass
 * rounds after the product and again after the sum, as the two primitives do (it is no fused
 * multiply-add), so its values are those of the instructions one by one. A plain ADD is
 * {@code x·1 + z} and a plain MUL {@code x·y + (−0)}, both exact identities. The absorbed MULs and
 * the constants read only as numbers are not evaluated at all.
 *
 * <p>Why: every primitive is a pass over tiles in memory, and an exact GELU's erfc in float32 (nine
 * multiply-adds by Horner's rule, nineteen constants) cost 42 such passes plus 19 tile fills, most
 * of them reading two tiles; fused, it is 29 passes, most reading one.
 */
final class MultiplyAddFusion {

    /**
     * How one fused instruction is evaluated: {@code x·y + z}. y and z are instruction indices, read
     * as tiles or, where {@code yNumber} / {@code zNumber}, as the number of a constant; −1 stands for
     * the identity (y = 1, z = −0).
     */
    record Plan(int x, int y, boolean yNumber, int z, boolean zNumber) {
    }

    /** Per instruction: its plan, or null where it is evaluated as it is. */
    final Plan[] plans;
    /** Per instruction: a MUL computed inside its ADD's pass, or a constant read only as a number. */
    final boolean[] skipped;
    /** Per instruction: a constant's value where it is read without a mask (its tile all one number), else NaN. */
    private final double[] numbers;
    private final boolean[] whole;

    /**
     * @param kernel the kernel
     * @param members the segment's instructions, in order
     * @param wholeConstant whether an instruction is a CONST read without a mask
     * @param parameters the launch's constants
     */
    MultiplyAddFusion(Kernel kernel, int[] members, IntPredicate wholeConstant, Parameters parameters) {
        int size = kernel.size();
        plans = new Plan[size];
        skipped = new boolean[size];
        numbers = new double[size];
        whole = new boolean[size];
        boolean[] member = new boolean[size];
        for (int i : members) {
            member[i] = true;
            whole[i] = wholeConstant.test(i);
            numbers[i] = whole[i] ? parameters.constant(kernel.instruction(i).parameter()) : Double.NaN;
        }
        int[] readers = readers(kernel);
        boolean[] absorbed = new boolean[size];
        for (int i : members) {
            Instruction instruction = kernel.instruction(i);
            if (!floatArithmetic(kernel, instruction)) {
                continue;
            }
            int mul = instruction.op() == Op.ADD ? productOf(kernel, instruction, member, readers) : -1;
            Plan plan = plan(kernel, instruction, mul);
            plans[i] = plan;
            if (plan != null && mul >= 0 && plan.x() != mul && plan.y() != mul && plan.z() != mul) {
                absorbed[mul] = true;
            }
        }
        int[] numberReads = new int[size];
        for (int i : members) {
            Plan plan = plans[i];
            if (absorbed[i] || plan == null) {
                plans[i] = null; // evaluated inside its ADD
                continue;
            }
            if (plan.yNumber()) {
                numberReads[plan.y()]++;
            }
            if (plan.zNumber()) {
                numberReads[plan.z()]++;
            }
        }
        for (int i : members) {
            skipped[i] = absorbed[i] || whole[i] && readers[i] > 0 && readers[i] == numberReads[i];
        }
    }

    /** @return the value a plan reads as a number (y or z), or the identity where the index is −1 */
    double number(int index, double identity) {
        return index < 0 ? identity : numbers[index];
    }

    /**
     * @return per instruction, its readers anywhere in the kernel (a reduction reads its source from
     *     another segment), an output counting as one; {@link LessOrEqualFusion} counts the same way
     */
    static int[] readers(Kernel kernel) {
        int[] readers = new int[kernel.size()];
        for (int i = 0; i < kernel.size(); i++) {
            Instruction instruction = kernel.instruction(i);
            for (int k = 0; k < instruction.sourceCount(); k++) {
                readers[instruction.source(k)]++;
            }
        }
        for (int output : kernel.outputIndices()) {
            readers[output]++;
        }
        return readers;
    }

    /** ADD or MUL of two operands of its own float type. */
    private static boolean floatArithmetic(Kernel kernel, Instruction instruction) {
        DType type = instruction.dtype();
        return (instruction.op() == Op.ADD || instruction.op() == Op.MUL) && (type == DType.FLOAT32 || type == DType.FLOAT64)
                && instruction.sourceCount() == 2
                && kernel.instruction(instruction.source(0)).dtype() == type && kernel.instruction(instruction.source(1)).dtype() == type;
    }

    /** @return the MUL an ADD may absorb (a member of the segment read only by that ADD, once), or −1 */
    private static int productOf(Kernel kernel, Instruction add, boolean[] member, int[] readers) {
        for (int k = 0; k < 2; k++) {
            int source = add.source(k);
            Instruction mul = kernel.instruction(source);
            if (member[source] && mul.op() == Op.MUL && readers[source] == 1 && add.source(1 - k) != source
                    && floatArithmetic(kernel, mul)) {
                return source;
            }
        }
        return -1;
    }

    /** @return the plan of an ADD (absorbing {@code mul} where it is not −1) or MUL, or null where fusing does not pay */
    private Plan plan(Kernel kernel, Instruction instruction, int mul) {
        int a = instruction.source(0);
        int b = instruction.source(1);
        if (instruction.op() == Op.MUL) { // x·c + (−0): pays only with a constant factor
            return whole[a] == whole[b] ? null : whole[a] ? new Plan(b, a, true, -1, false) : new Plan(a, b, true, -1, false);
        }
        if (mul >= 0) {
            int addend = a == mul ? b : a;
            Instruction product = kernel.instruction(mul);
            int p = product.source(0);
            int q = product.source(1);
            if (!(whole[p] && whole[q])) { // both constant: a constant expression, computed by the scheduler as a scalar
                int x = whole[p] ? q : p;
                int y = whole[p] ? p : q;
                return new Plan(x, y, whole[y], addend, whole[addend]);
            }
        }
        // x·1 + c: pays only with a constant addend
        return whole[a] == whole[b] ? null : whole[a] ? new Plan(b, -1, false, a, true) : new Plan(a, -1, false, b, true);
    }
}
