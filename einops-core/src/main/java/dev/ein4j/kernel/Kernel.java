package dev.ein4j.kernel;

import dev.ein4j.ir.DType;
import dev.ein4j.ir.Op;
import dev.ein4j.ir.View;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * What a backend executes: one or more output buffers computed from input buffers by a short
 * program of {@link Instruction}s. Immutable, compared by value and printable, so it serves as the
 * cache key of generated code (OpenCL sources, specialised CPU loops). Numbers are not part of it:
 * CONST values and RAND seeds are {@link Parameters} of a launch, so a training step whose learning
 * rate or bias correction changes still runs the same kernels.
 *
 * <p>Three shapes of program:
 * <ul>
 *   <li><b>elementwise</b>: every instruction has the output shape; one or more of them are outputs.</li>
 *   <li><b>reduce</b>: a prologue over the source shape, one or more SUM/REDUCE_MAX/PROD over the
 *       same source shape and axes (a batch's mean and variance in one pass), then an optional
 *       elementwise epilogue over the output shape.</li>
 *   <li><b>contract</b>: a prologue per operand (often a single load), one CONTRACT described by a
 *       {@link ContractSpec}, then an optional epilogue (bias, activation, scale); one output.</li>
 *   <li><b>scatter</b>: a prologue over the values' shape giving values and INT32 positions, then one
 *       SCATTER, the last instruction and the only output, which writes (or adds) them into the output
 *       buffer. A scatter kernel updates its output in place: on entry the buffer holds the base
 *       (the runtime copies it there, or scatters straight into an assigned tensor).</li>
 * </ul>
 * Every output buffer is compact (row-major, offset 0) in the output shape; output i holds the
 * values of instruction {@link #outputIndex(int) outputIndex(i)}, which is an instruction of the
 * OUTPUT segment or a reduction. Loads name input slots; slot i is the i-th buffer handed to the
 * backend and has type {@link #inputType(int)}.
 *
 * <pre>{@code
 * kernel elementwise f32[1000,1000] <- in0 f32, in1 f32, in2 f32
 *   %0 = load f32[1000,1000] in0
 *   %1 = load f32[1000,1000] in1
 *   %2 = mul f32[1000,1000] %0 %1
 *   %3 = load f32[1000,1000] in2 via [1000,1000]:(0,1)+0
 *   %4 = add f32[1000,1000] %2 %3
 *   %5 = const f32[1000,1000] p0 via [1000,1000]:(0,0)+0
 *   %6 = cmplt bool[1000,1000] %5 %4
 *   %7 = where f32[1000,1000] %6 %4 %5
 * }</pre>
 */
public final class Kernel {

    /** The three shapes of program. */
    public enum Kind {
        /** No reduction. */
        ELEMENTWISE,
        /** One or more SUM, REDUCE_MAX or PROD over the same axes. */
        REDUCE,
        /** One CONTRACT. */
        CONTRACT,
        /** One SCATTER into the output. */
        SCATTER
    }

    /** Which iteration space an instruction runs in. */
    public enum Segment {
        /** The output's shape: elementwise kernels and epilogues. */
        OUTPUT,
        /** A reduction's source shape. */
        REDUCE_SOURCE,
        /** A contraction's left operand shape. */
        LEFT,
        /** A contraction's right operand shape. */
        RIGHT,
        /** A scatter's values' shape. */
        SCATTER_SOURCE
    }

    private final List<DType> inputTypes;
    private final List<Instruction> instructions;
    private final int[] outputs;
    private final int[] reductions;
    private final int scatter;
    private final int parameterCount;
    private final Segment[] segments;
    private final int hash;

    /**
     * A kernel whose only output is its last instruction.
     *
     * @param inputTypes the type of each input slot
     * @param instructions the program, sources before their users, the output last
     * @throws IllegalArgumentException if the program is malformed
     */
    public Kernel(List<DType> inputTypes, List<Instruction> instructions) {
        this(inputTypes, instructions, new int[] {instructions.size() - 1});
    }

    /**
     * @param inputTypes the type of each input slot
     * @param instructions the program, sources before their users
     * @param outputs the instructions written to the output buffers, in buffer order (distinct)
     * @throws IllegalArgumentException if the program is malformed
     */
    public Kernel(List<DType> inputTypes, List<Instruction> instructions, int[] outputs) {
        this.inputTypes = List.copyOf(inputTypes);
        this.instructions = List.copyOf(instructions);
        if (this.instructions.isEmpty()) {
            throw new IllegalArgumentException("a kernel needs at least one instruction");
        }
        this.outputs = outputs.clone();
        this.reductions = findReductions(this.instructions);
        this.scatter = findScatter(this.instructions);
        this.parameterCount = countParameters(this.instructions);
        this.segments = segments();
        validate();
        this.hash = 31 * (31 * this.inputTypes.hashCode() + this.instructions.hashCode()) + Arrays.hashCode(this.outputs);
    }

    private static int[] findReductions(List<Instruction> instructions) {
        return java.util.stream.IntStream.range(0, instructions.size()).filter(i -> instructions.get(i).isReduction()).toArray();
    }

    private static int findScatter(List<Instruction> instructions) {
        for (int i = 0; i < instructions.size(); i++) {
            if (instructions.get(i).isScatter()) {
                return i;
            }
        }
        return -1;
    }

    private static int countParameters(List<Instruction> instructions) {
        int count = 0;
        for (Instruction instruction : instructions) {
            count = Math.max(count, instruction.parameter() + 1);
        }
        return count;
    }

    /** Marks the prologue instructions (those a reduction reads) with their segment. */
    private Segment[] segments() {
        Segment[] marks = new Segment[instructions.size()];
        Arrays.fill(marks, Segment.OUTPUT);
        for (int reduction : reductions) {
            Instruction reduce = instructions.get(reduction);
            if (reduce.op() == Op.CONTRACT) {
                mark(marks, reduce.source(0), Segment.LEFT);
                mark(marks, reduce.source(1), Segment.RIGHT);
            } else {
                mark(marks, reduce.source(0), Segment.REDUCE_SOURCE);
            }
        }
        if (scatter >= 0) {
            int values = instructions.get(scatter).source(0);
            int positions = instructions.get(scatter).source(1);
            mark(marks, Math.max(values, positions), Segment.SCATTER_SOURCE, values, positions);
        }
        return marks;
    }

    private void mark(Segment[] marks, int root, Segment segment, int... roots) {
        boolean[] reached = new boolean[root + 1];
        reached[root] = true;
        for (int other : roots) {
            reached[other] = true;
        }
        for (int i = root; i >= 0; i--) {
            if (!reached[i]) {
                continue;
            }
            if (marks[i] != Segment.OUTPUT && marks[i] != segment) {
                throw new IllegalArgumentException("instruction %" + i + " is shared by two prologues");
            }
            marks[i] = segment;
            Instruction instruction = instructions.get(i);
            for (int s = 0; s < instruction.sourceCount(); s++) {
                reached[instruction.source(s)] = true;
            }
        }
    }

    private void validate() {
        validateReductions();
        validateScatter();
        validateOutputs();
        for (int i = 0; i < instructions.size(); i++) {
            Instruction instruction = instructions.get(i);
            for (int s = 0; s < instruction.sourceCount(); s++) {
                int source = instruction.source(s);
                if (source < 0 || source >= i) {
                    throw new IllegalArgumentException("instruction %" + i + " reads %" + source + ", which does not precede it");
                }
                if (segments[source] != segments[i] && !isReduction(i) && i != scatter) {
                    throw new IllegalArgumentException("instruction %" + i + " reads %" + source + " across segments");
                }
            }
            if ((instruction.isLoad() || instruction.isGather()) && (instruction.input() < 0
                    || instruction.input() >= inputTypes.size() || inputTypes.get(instruction.input()) != instruction.dtype())) {
                throw new IllegalArgumentException("instruction %" + i + " loads a missing or mistyped input");
            }
            if (instruction.isGather()) {
                Instruction index = instructions.get(instruction.source(0));
                if (index.dtype() != DType.INT32 || !Arrays.equals(index.shape(), instruction.shape())) {
                    throw new IllegalArgumentException("instruction %" + i + " gathers by a non-INT32 index or one of another shape");
                }
            }
            if (instruction.op().isElementwise()) {
                for (int s = 0; s < instruction.sourceCount(); s++) {
                    Instruction source = instructions.get(instruction.source(s));
                    boolean sameShape = Arrays.equals(source.shape(), instruction.shape());
                    boolean positional = isReduction(instruction.source(s)) && source.size() == instruction.size();
                    if (!sameShape && !positional) {
                        throw new IllegalArgumentException("instruction %" + i + " mixes shapes "
                                + Arrays.toString(instruction.shape()) + " and " + Arrays.toString(source.shape()));
                    }
                }
            }
            if (segments[i] == Segment.OUTPUT && !isReduction(i) && i != scatter && !Arrays.equals(instruction.shape(), outputShape())) {
                throw new IllegalArgumentException("instruction %" + i + " of shape " + Arrays.toString(instruction.shape())
                        + " is not in the output shape " + Arrays.toString(outputShape()));
            }
        }
    }

    private void validateReductions() {
        if (reductions.length == 0) {
            return;
        }
        Instruction first = instructions.get(reductions[0]);
        for (int reduction : reductions) {
            Instruction reduce = instructions.get(reduction);
            if (reduce.op() == Op.CONTRACT) {
                if (reductions.length > 1) {
                    throw new IllegalArgumentException("a kernel holds one contraction, or reductions, not both");
                }
                ContractSpec spec = reduce.contractSpec();
                if (reduce.size() != dev.ein4j.ir.Shapes.size(spec.outputShape())) {
                    throw new IllegalArgumentException("the contraction's shape does not hold its results");
                }
                if (!Arrays.equals(instructions.get(reduce.source(0)).shape(), spec.leftShape())
                        || !Arrays.equals(instructions.get(reduce.source(1)).shape(), spec.rightShape())) {
                    throw new IllegalArgumentException("contraction operands do not have the spec's shapes");
                }
                continue;
            }
            int[] source = instructions.get(reduce.source(0)).shape();
            if (!Arrays.equals(source, instructions.get(first.source(0)).shape()) || !Arrays.equals(reduce.axes(), first.axes())
                    || !Arrays.equals(reduce.shape(), first.shape())) {
                throw new IllegalArgumentException("the reductions of a kernel share one source shape, axes and result shape");
            }
            if (reduce.size() != reducedSize(source, reduce.axes())) {
                throw new IllegalArgumentException("the reduction's shape does not hold its " + reducedSize(source, reduce.axes())
                        + " results");
            }
        }
    }

    private void validateScatter() {
        if (scatter < 0) {
            return;
        }
        Instruction write = instructions.get(scatter);
        Instruction values = instructions.get(write.source(0));
        Instruction positions = instructions.get(write.source(1));
        int axis = write.indexed().axis();
        if (reductions.length > 0 || scatter != instructions.size() - 1 || outputs.length != 1 || outputs[0] != scatter) {
            throw new IllegalArgumentException("a scatter kernel holds one SCATTER, its last instruction and only output");
        }
        int[] base = write.shape();
        int[] shape = values.shape();
        boolean fits = positions.dtype() == DType.INT32 && Arrays.equals(positions.shape(), shape) && shape.length == base.length
                && axis >= 0 && axis < base.length;
        for (int d = 0; fits && d < base.length; d++) {
            fits = d == axis || shape[d] == base[d];
        }
        if (!fits || values.dtype() != write.dtype()) {
            throw new IllegalArgumentException("a scatter's values and INT32 positions have one shape, the output's but along axis "
                    + axis + ", and the output's type");
        }
    }

    private void validateOutputs() {
        if (outputs.length == 0) {
            throw new IllegalArgumentException("a kernel needs at least one output");
        }
        if (kind() == Kind.CONTRACT && outputs.length != 1) {
            throw new IllegalArgumentException("a contraction kernel has one output");
        }
        long size = instructions.get(outputs[0]).size();
        for (int k = 0; k < outputs.length; k++) {
            int output = outputs[k];
            if (output < 0 || output >= instructions.size()) {
                throw new IllegalArgumentException("output " + k + " names no instruction: %" + output);
            }
            if (segments[output] != Segment.OUTPUT && !isReduction(output) && output != scatter) {
                throw new IllegalArgumentException("output " + k + " (%" + output + ") is inside a prologue");
            }
            if (instructions.get(output).size() != size) {
                throw new IllegalArgumentException("outputs of a kernel have one size");
            }
            for (int j = 0; j < k; j++) {
                if (outputs[j] == output) {
                    throw new IllegalArgumentException("instruction %" + output + " is written twice");
                }
            }
        }
    }

    private static long reducedSize(int[] shape, int[] axes) {
        int[] reduced = shape.clone();
        for (int axis : axes) {
            reduced[axis] = 1;
        }
        return dev.ein4j.ir.Shapes.size(reduced);
    }

    /** @return the program's shape */
    public Kind kind() {
        if (scatter >= 0) {
            return Kind.SCATTER;
        }
        if (reductions.length == 0) {
            return Kind.ELEMENTWISE;
        }
        return instructions.get(reductions[0]).op() == Op.CONTRACT ? Kind.CONTRACT : Kind.REDUCE;
    }

    /** @return the instructions, sources first */
    public List<Instruction> instructions() {
        return instructions;
    }

    /**
     * @param index an instruction's index
     * @return the instruction
     */
    public Instruction instruction(int index) {
        return instructions.get(index);
    }

    /** @return the number of instructions */
    public int size() {
        return instructions.size();
    }

    /** @return the index of the (first) REDUCE or CONTRACT instruction, −1 for elementwise kernels */
    public int reductionIndex() {
        return reductions.length == 0 ? -1 : reductions[0];
    }

    /** @return the indices of the reductions (one CONTRACT, or REDUCEs over one source shape and axes), ascending */
    public int[] reductionIndices() {
        return reductions.clone();
    }

    /**
     * @return the shape the reductions iterate over: the source shape of the first REDUCE or of the
     *     CONTRACT (every REDUCE of a kernel shares it), a copy; null for elementwise kernels
     */
    public int[] reductionSourceShape() {
        return reductions.length == 0 ? null : instruction(instruction(reductions[0]).source(0)).shape();
    }

    /** @return the number of reductions */
    public int reductionCount() {
        return reductions.length;
    }

    /**
     * @param index an instruction's index
     * @return whether it is a reduction
     */
    public boolean isReduction(int index) {
        return instructions.get(index).isReduction();
    }

    /**
     * @param index an instruction's index
     * @return its iteration space
     */
    public Segment segment(int index) {
        return segments[index];
    }

    /** @return whether the kernel reads or writes at positions data gives (a GATHER or a SCATTER) */
    public boolean isIndexed() {
        if (scatter >= 0) {
            return true;
        }
        for (Instruction instruction : instructions) {
            if (instruction.isGather()) {
                return true;
            }
        }
        return false;
    }

    /** @return the index of the SCATTER instruction, −1 if this is not a scatter kernel */
    public int scatterIndex() {
        return scatter;
    }

    /** @return the number of input slots */
    public int inputCount() {
        return inputTypes.size();
    }

    /**
     * @param slot an input slot
     * @return its buffer's type
     */
    public DType inputType(int slot) {
        return inputTypes.get(slot);
    }

    /** @return the number of parameter slots ({@link Parameters#size()} of every launch) */
    public int parameterCount() {
        return parameterCount;
    }

    /** @return the number of output buffers */
    public int outputCount() {
        return outputs.length;
    }

    /**
     * @param output an output buffer's position
     * @return the instruction whose values it receives
     */
    public int outputIndex(int output) {
        return outputs[output];
    }

    /** @return the instructions written to the outputs, in buffer order */
    public int[] outputIndices() {
        return outputs.clone();
    }

    /**
     * @param output an output buffer's position
     * @return the instruction it receives
     */
    public Instruction output(int output) {
        return instructions.get(outputs[output]);
    }

    /**
     * @param output an output buffer's position
     * @return that buffer's type
     */
    public DType outputType(int output) {
        return output(output).dtype();
    }

    /** @return the first output buffer's type */
    public DType outputType() {
        return outputType(0);
    }

    /** @return the output shape, every output buffer's (compact, row-major) */
    public int[] outputShape() {
        return instructions.get(outputs[0]).shape();
    }

    /** @return the number of elements of each output */
    public long outputSize() {
        return instructions.get(outputs[0]).size();
    }

    /** @return the contraction's spec, or null if this is not a contract kernel */
    public ContractSpec contractSpec() {
        return kind() == Kind.CONTRACT ? instructions.get(reductions[0]).contractSpec() : null;
    }

    /**
     * @return the contraction's left operand when it is read straight from a buffer (the spec's
     *         strides are then that load's), or null when its prologue must be evaluated first
     */
    public Instruction leftOperand() {
        return directOperand(0);
    }

    /** @return like {@link #leftOperand()}, for the right operand */
    public Instruction rightOperand() {
        return directOperand(1);
    }

    private Instruction directOperand(int side) {
        if (kind() != Kind.CONTRACT) {
            return null;
        }
        Instruction operand = instructions.get(instructions.get(reductions[0]).source(side));
        return operand.isLoad() && !operand.view().hasMask() ? operand : null;
    }

    /**
     * @param segment a segment
     * @return the indices of its instructions, ascending
     */
    public int[] indicesOf(Segment segment) {
        return java.util.stream.IntStream.range(0, segments.length).filter(i -> segments[i] == segment).toArray();
    }

    /** @return whether an elementwise epilogue follows the reductions (some output is not a reduction) */
    public boolean hasEpilogue() {
        if (reductions.length == 0) {
            return false;
        }
        for (int output : outputs) {
            if (!isReduction(output)) {
                return true;
            }
        }
        return false;
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof Kernel that && hash == that.hash && inputTypes.equals(that.inputTypes)
                && instructions.equals(that.instructions) && Arrays.equals(outputs, that.outputs);
    }

    @Override
    public int hashCode() {
        return hash;
    }

    @Override
    public String toString() {
        List<String> inputs = new ArrayList<>();
        for (int slot = 0; slot < inputTypes.size(); slot++) {
            inputs.add("in" + slot + " " + KernelFormat.type(inputTypes.get(slot)));
        }
        StringBuilder text = new StringBuilder("kernel ").append(kind().name().toLowerCase(java.util.Locale.ROOT)).append(' ');
        for (int k = 0; k < outputs.length; k++) {
            text.append(k == 0 ? "" : ", ").append(KernelFormat.type(outputType(k)));
        }
        text.append(KernelFormat.shape(outputShape()))
                .append(" <- ").append(inputs.isEmpty() ? "nothing" : String.join(", ", inputs));
        if (parameterCount > 0) {
            text.append(" (").append(parameterCount).append(parameterCount == 1 ? " parameter)" : " parameters)");
        }
        for (int i = 0; i < instructions.size(); i++) {
            text.append("\n  ").append(instructions.get(i).format(i));
        }
        if (outputs.length > 1 || outputs[0] != instructions.size() - 1) {
            text.append("\n  outputs");
            for (int output : outputs) {
                text.append(" %").append(output);
            }
        }
        return text.toString();
    }

    /**
     * A single-load kernel that copies a view into a compact buffer, converting the type if asked.
     *
     * @param dtype the source buffer's type
     * @param view how the source is read
     * @param outputType the copy's type
     * @return the copy kernel
     */
    public static Kernel copy(DType dtype, View view, DType outputType) {
        List<Instruction> program = new ArrayList<>();
        program.add(Instruction.load(0, dtype, view));
        if (outputType != dtype) {
            program.add(Instruction.apply(Op.CAST, outputType, view.shape(), 0));
        }
        return new Kernel(List.of(dtype), program);
    }
}
