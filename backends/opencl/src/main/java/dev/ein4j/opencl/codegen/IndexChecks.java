package dev.ein4j.opencl.codegen;

import dev.ein4j.error.IndexOutOfRangeException;
import dev.ein4j.ir.Shapes;
import dev.ein4j.kernel.Indexed;
import dev.ein4j.kernel.Instruction;
import dev.ein4j.kernel.Kernel;
import dev.ein4j.kernel.KernelInterpreter;
import java.util.ArrayList;
import java.util.List;

/**
 * How generated code reports an index outside [0, length) and how the host turns the report into
 * the exception the {@link KernelInterpreter} throws. Every GATHER and the SCATTER of a kernel has
 * a slot, numbered in program order, in a {@code ulong} buffer {@value #BUFFER} that starts all
 * ones ("no error"). An element whose index is out of range does {@code atom_min} on its slot with
 * {@code (position << 32) | (uint) index}, position being the element's row-major flat index in the
 * instruction's iteration space (for a SCATTER, the values' shape); so each slot ends holding its
 * instruction's first offending element and that element's index, whatever the order work items
 * ran in. (A 64-bit minimum needs cl_khr_int64_extended_atomics; the position must stay below
 * 2^32 − 1, {@link #MAX_POSITIONS}.)
 *
 * <p>The interpreter evaluates a kernel segment by segment (a reduction's or a contraction's
 * prologues before the epilogue), each in runs of at most {@link KernelInterpreter#CHUNK_LENGTH}
 * elements along the innermost axis, instruction by instruction within a run; it throws at the
 * first bad index in that order. {@link #firstError} applies the same order to the slots: the
 * element that fails first there is evaluated from correct values (everything before it in the
 * order is), so its recorded index is the one the interpreter reports. The kernel's outputs are
 * undefined after an error; a bad gather reads nothing (its value is 0) and a bad scatter writes
 * nothing.
 */
public final class IndexChecks {

    /** The name of the error buffer in generated kernels. */
    static final String BUFFER = "index_errors";
    /** Iteration spaces with at least this many elements do not fit the 32 bits of a recorded position. */
    static final long MAX_POSITIONS = 0xFFFF_FFFFL;
    /** A slot nothing was recorded in. */
    private static final long NONE = -1L;

    private IndexChecks() {
    }

    /**
     * @param kernel a kernel
     * @return its GATHER and SCATTER instructions, ascending: slot s checks instruction {@code checked(kernel)[s]}
     */
    static int[] checked(Kernel kernel) {
        List<Integer> found = new ArrayList<>();
        for (int i = 0; i < kernel.size(); i++) {
            Instruction instruction = kernel.instruction(i);
            if (instruction.isGather() || instruction.isScatter()) {
                found.add(i);
            }
        }
        return found.stream().mapToInt(Integer::intValue).toArray();
    }

    /**
     * @param kernel a kernel
     * @return the number of slots its error buffer has (0: no buffer)
     */
    public static int slots(Kernel kernel) {
        return checked(kernel).length;
    }

    /**
     * @param kernel a kernel
     * @param instruction one of its GATHER or SCATTER instructions
     * @return its slot
     */
    static int slotOf(Kernel kernel, int instruction) {
        int[] checked = checked(kernel);
        for (int s = 0; s < checked.length; s++) {
            if (checked[s] == instruction) {
                return s;
            }
        }
        throw new IllegalArgumentException("instruction %" + instruction + " reads or writes no index");
    }

    /**
     * @param slots how many
     * @return the error buffer's initial contents: no error in any slot
     */
    public static long[] initial(int slots) {
        long[] values = new long[slots];
        java.util.Arrays.fill(values, NONE);
        return values;
    }

    /**
     * The statement recording a bad index.
     *
     * @param slot the instruction's slot
     * @param position the element's flat position (a long expression)
     * @param index the offending index (an int expression)
     * @return {@code atom_min(...)} as a statement
     */
    static String record(int slot, String position, String index) {
        return "atom_min((volatile __global ulong*)(" + BUFFER + " + " + slot + "), ((ulong)(" + position + ") << 32) | (ulong)(uint)("
                + index + "));";
    }

    /**
     * The flat row-major position of an element of a shape, in 64 bits.
     *
     * @param shape the iteration shape
     * @param axes the element's index expressions, one per axis ("0" for an axis known to be 0)
     * @param constants where the strides go
     * @return a long expression
     */
    static String position(int[] shape, String[] axes, Constants constants) {
        long[] strides = Shapes.contiguousStrides(shape);
        List<String> terms = new ArrayList<>();
        for (int k = 0; k < shape.length; k++) {
            if (!"0".equals(axes[k])) {
                terms.add("(long)" + axes[k] + " * " + constants.wide(strides[k]));
            }
        }
        return terms.isEmpty() ? "0L" : "(" + String.join(" + ", terms) + ")";
    }

    /**
     * @param kernel a kernel
     * @param recorded the error buffer's contents after the launch
     * @return the exception the interpreter would throw, or null when every index was in range
     */
    public static IndexOutOfRangeException firstError(Kernel kernel, long[] recorded) {
        int[] checked = checked(kernel);
        long[] best = null;
        int bestSlot = -1;
        for (int s = 0; s < checked.length; s++) {
            if (recorded[s] == NONE) {
                continue;
            }
            long[] order = evaluationOrder(kernel, checked[s], recorded[s] >>> 32);
            if (best == null || compare(order, best) < 0) {
                best = order;
                bestSlot = s;
            }
        }
        if (bestSlot < 0) {
            return null;
        }
        Instruction instruction = kernel.instruction(checked[bestSlot]);
        Indexed indexed = instruction.indexed();
        return new IndexOutOfRangeException(instruction.isScatter() ? "scatter" : "gather", (int) recorded[bestSlot],
                indexed.axis(), indexed.length());
    }

    /**
     * @return where the interpreter meets element {@code position} of the instruction: (segment's
     *     turn, run, instruction, place in the run), compared in that order
     */
    private static long[] evaluationOrder(Kernel kernel, int instruction, long position) {
        Instruction checked = kernel.instruction(instruction);
        int[] shape = checked.isScatter() ? kernel.instruction(checked.source(0)).shape() : checked.shape();
        long rowLength = shape.length == 0 ? 1 : shape[shape.length - 1];
        long runsPerRow = (rowLength + KernelInterpreter.CHUNK_LENGTH - 1) / KernelInterpreter.CHUNK_LENGTH;
        long row = position / rowLength;
        long column = position % rowLength;
        long run = row * runsPerRow + column / KernelInterpreter.CHUNK_LENGTH;
        return new long[] {turn(kernel, instruction), run, instruction, column % KernelInterpreter.CHUNK_LENGTH};
    }

    /** The prologues run before the epilogue; a contraction's left operand before its right. */
    private static int turn(Kernel kernel, int instruction) {
        if (kernel.instruction(instruction).isScatter()) {
            return 0;
        }
        return switch (kernel.segment(instruction)) {
            case REDUCE_SOURCE, LEFT, SCATTER_SOURCE -> 0;
            case RIGHT -> 1;
            case OUTPUT -> 2;
        };
    }

    private static int compare(long[] a, long[] b) {
        for (int k = 0; k < a.length; k++) {
            int order = Long.compare(a[k], b[k]);
            if (order != 0) {
                return order;
            }
        }
        return 0;
    }
}
