package dev.ein4j.kernel;

import dev.ein4j.ir.DType;
import dev.ein4j.ir.Op;
import dev.ein4j.ir.View;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Rewrites a reduce kernel whose reduced axes hold few elements (a 2 × 2 pooling window, a pair of
 * gates) as an elementwise kernel over its output shape: the prologue is evaluated once per
 * position of the reduced axes, each copy reading its loads and generators through the view
 * shrunk to that position, and the copies are combined by a chain of ADD, MAX or MUL. A backend
 * whose reductions iterate rows (the CPU's tiles) otherwise walks rows as short as the window.
 *
 * <pre>{@code
 * reduce f32[64,64,12,1,12,1] <- in0 f32                  elementwise f32[64,64,12,1,12,1] <- in0 f32
 *   %0 = load f32[64,64,12,2,12,2] in0                      %0 = load ... in0 via (36864,576,48,0,2,0)+0
 *   %1 = reduce_max f32[64,64,12,1,12,1] %0 axes [3, 5]     %1 = load ... in0 via (36864,576,48,0,2,0)+1
 *                                                           %2 = max %0 %1
 *                                                           %3 = load ... +24, %4 = max %2 %3, %5 = load ... +25
 *                                                           %6 = max %4 %5
 * }</pre>
 *
 * <p>The values are the reduce kernel's exactly: sums and products of float values accumulate in
 * float64 in the reduced axes' row-major order and round once to the result type, as
 * {@link KernelInterpreter} defines them; MAX lets NaN win as REDUCE_MAX does. Identical
 * instructions are emitted once (a bias read through a broadcast is one load for every position).
 */
public final class SmallReductions {

    private SmallReductions() {
    }

    /**
     * @param kernel a kernel
     * @param maxPositions the most positions of the reduced axes to unroll
     * @param maxInstructions the most instructions the rewritten kernel may hold
     * @return the equivalent elementwise kernel, or null when the kernel is not a reduce kernel over
     *         float values with at most {@code maxPositions} reduced positions, reads by index, or
     *         would grow past {@code maxInstructions}
     */
    public static Kernel unrolled(Kernel kernel, int maxPositions, int maxInstructions) {
        if (kernel.kind() != Kernel.Kind.REDUCE || kernel.isIndexed()) {
            return null;
        }
        Instruction first = kernel.instruction(kernel.reductionIndex());
        int[] source = kernel.reductionSourceShape();
        int[] axes = first.axes();
        long positions = 1;
        for (int axis : axes) {
            positions *= source[axis];
        }
        int prologue = kernel.indicesOf(Kernel.Segment.REDUCE_SOURCE).length;
        if (positions < 1 || positions > maxPositions || (long) prologue * positions + 2L * positions * kernel.reductionCount()
                + kernel.size() > maxInstructions) {
            return null;
        }
        for (int index : kernel.reductionIndices()) {
            DType type = kernel.instruction(kernel.instruction(index).source(0)).dtype();
            if (type != DType.FLOAT32 && type != DType.FLOAT64) {
                return null; // integer sums wrap once at the end: not an elementwise chain
            }
        }
        return new Unroller(kernel, source, axes, (int) positions).run();
    }

    /** One rewrite: instructions appended with duplicates shared. */
    private static final class Unroller {
        private final Kernel kernel;
        private final int[] source;
        private final int[] axes;
        private final int positions;
        private final int[] output;
        private final List<Instruction> program = new ArrayList<>();
        private final Map<Instruction, Integer> emitted = new HashMap<>();
        /** Per position, where each prologue instruction went; row 0 also holds the other instructions. */
        private final int[][] placed;

        Unroller(Kernel kernel, int[] source, int[] axes, int positions) {
            this.kernel = kernel;
            this.source = source;
            this.axes = axes;
            this.positions = positions;
            this.output = kernel.outputShape();
            this.placed = new int[positions][kernel.size()];
        }

        Kernel run() {
            for (int i = 0; i < kernel.size(); i++) {
                Instruction instruction = kernel.instruction(i);
                if (kernel.segment(i) == Kernel.Segment.REDUCE_SOURCE) {
                    for (int position = 0; position < positions; position++) {
                        Instruction copy = atPosition(instruction, position);
                        if (copy == null) {
                            return null;
                        }
                        placed[position][i] = emit(copy);
                    }
                } else if (instruction.isReduction()) {
                    placed[0][i] = combine(instruction);
                } else {
                    placed[0][i] = emit(remapped(instruction, 0));
                }
            }
            int[] outputs = new int[kernel.outputCount()];
            for (int k = 0; k < outputs.length; k++) {
                outputs[k] = placed[0][kernel.outputIndex(k)];
            }
            if (Arrays.stream(outputs).distinct().count() != outputs.length) {
                return null; // two outputs became one value (equal reductions): keep the kernel as it is
            }
            List<DType> inputs = new ArrayList<>();
            for (int slot = 0; slot < kernel.inputCount(); slot++) {
                inputs.add(kernel.inputType(slot));
            }
            return new Kernel(inputs, program, outputs);
        }

        /** A prologue instruction evaluated at one position of the reduced axes, in the output shape. */
        private Instruction atPosition(Instruction instruction, int position) {
            if (instruction.view() == null) {
                int[] sources = new int[instruction.sourceCount()];
                for (int s = 0; s < sources.length; s++) {
                    sources[s] = placed[position][instruction.source(s)];
                }
                return Instruction.apply(instruction.op(), instruction.dtype(), output, sources);
            }
            int[] starts = new int[source.length];
            int[] ends = source.clone();
            int rest = position;
            for (int k = axes.length - 1; k >= 0; k--) { // row-major over the reduced axes
                starts[axes[k]] = rest % source[axes[k]];
                ends[axes[k]] = starts[axes[k]] + 1;
                rest /= source[axes[k]];
            }
            View view = instruction.view().shrink(starts, ends).reshape(output);
            if (view == null) {
                return null;
            }
            return instruction.isLoad() ? Instruction.load(instruction.input(), instruction.dtype(), view)
                    : Instruction.generate(instruction.op(), instruction.dtype(), view, instruction.parameter());
        }

        /** An epilogue (or output-space) instruction with its sources moved to their new places. */
        private Instruction remapped(Instruction instruction, int position) {
            if (instruction.view() != null) {
                return instruction;
            }
            int[] sources = new int[instruction.sourceCount()];
            for (int s = 0; s < sources.length; s++) {
                sources[s] = placed[position][instruction.source(s)];
            }
            return Instruction.apply(instruction.op(), instruction.dtype(), instruction.shape(), sources);
        }

        /** The chain that replaces one reduction: values in the reduced axes' row-major order. */
        private int combine(Instruction reduction) {
            DType type = kernel.instruction(reduction.source(0)).dtype();
            boolean maximum = reduction.op() == Op.REDUCE_MAX;
            DType accumulator = maximum ? type : DType.FLOAT64; // the interpreter sums and multiplies in double
            Op step = switch (reduction.op()) {
                case SUM -> Op.ADD;
                case PROD -> Op.MUL;
                case REDUCE_MAX -> Op.MAX;
                default -> throw new IllegalArgumentException(reduction.op() + " is not a reduction");
            };
            int total = -1;
            for (int position = 0; position < positions; position++) {
                int value = widened(placed[position][reduction.source(0)], type, accumulator);
                total = total < 0 ? value : emit(Instruction.apply(step, accumulator, output, total, value));
            }
            return widened(total, accumulator, reduction.dtype());
        }

        private int widened(int value, DType from, DType to) {
            return from == to ? value : emit(Instruction.apply(Op.CAST, to, output, value));
        }

        private int emit(Instruction instruction) {
            Integer known = emitted.get(instruction);
            if (known != null) {
                return known;
            }
            program.add(instruction);
            emitted.put(instruction, program.size() - 1);
            return program.size() - 1;
        }
    }
}
