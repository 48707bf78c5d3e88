package dev.ein4j.cpu.tile;

import dev.ein4j.ir.DType;
import dev.ein4j.ir.Op;
import dev.ein4j.kernel.Instruction;
import dev.ein4j.kernel.Kernel;

/**
 * Where a segment computes x ≤ y the way the IR spells it, {@code MAX(CMPLT(x, y), CMPEQ(x, y))} over
 * bools (and x ≥ y as {@code MAX(CMPLT(y, x), CMPEQ(x, y))}), the tiles evaluate it as one
 * less-or-equal pass, and the two comparisons are not evaluated at all when nothing else reads them.
 * Every ReLU is {@code where(x ≤ 0, 0, x)} and its gradient tests the same, so this saves two of the
 * three passes of each such test (an unrolled 2 × 2 max pool over ReLU outputs holds four).
 * The value is the same: both forms are false where x or y is NaN.
 */
final class LessOrEqualFusion {

    /** Per instruction: for a fused MAX, the index of the CMPLT it reads (x and y are its sources), else −1. */
    final int[] lessThanOf;
    /** Per instruction: a comparison read only by fused MAXes, so never evaluated. */
    final boolean[] skipped;

    /**
     * @param kernel the kernel
     * @param members the segment's instructions, in order
     */
    LessOrEqualFusion(Kernel kernel, int[] members) {
        int size = kernel.size();
        lessThanOf = new int[size];
        java.util.Arrays.fill(lessThanOf, -1);
        skipped = new boolean[size];
        boolean[] member = new boolean[size];
        for (int i : members) {
            member[i] = true;
        }
        int[] readers = MultiplyAddFusion.readers(kernel);
        int[] fusedReaders = new int[size];
        for (int i = 0; i < size; i++) {
            Instruction instruction = kernel.instruction(i);
            int lessThan = member[i] ? lessThanIn(kernel, instruction, member) : -1;
            lessThanOf[i] = lessThan;
            for (int k = 0; k < instruction.sourceCount() && lessThan >= 0; k++) {
                fusedReaders[instruction.source(k)]++;
            }
        }
        for (int i : members) {
            skipped[i] = readers[i] > 0 && readers[i] == fusedReaders[i];
        }
    }

    /** @return the CMPLT a bool MAX of (x &lt; y) and (x = y) reads, or −1 if the instruction is not one */
    private static int lessThanIn(Kernel kernel, Instruction max, boolean[] member) {
        if (max.op() != Op.MAX || max.dtype() != DType.BOOL || max.sourceCount() != 2 || max.isReduction()) {
            return -1;
        }
        for (int k = 0; k < 2; k++) {
            int lessThan = max.source(k);
            int equal = max.source(1 - k);
            if (!member[lessThan] || !member[equal]) {
                continue;
            }
            Instruction lt = kernel.instruction(lessThan);
            Instruction eq = kernel.instruction(equal);
            if (lt.op() != Op.CMPLT || eq.op() != Op.CMPEQ || lt.isReduction() || eq.isReduction()) {
                continue;
            }
            DType operands = kernel.instruction(lt.source(0)).dtype();
            boolean floating = operands == DType.FLOAT32 || operands == DType.FLOAT64;
            boolean same = lt.source(0) == eq.source(0) && lt.source(1) == eq.source(1)
                    || lt.source(0) == eq.source(1) && lt.source(1) == eq.source(0);
            if (floating && same) {
                return lessThan;
            }
        }
        return -1;
    }
}
