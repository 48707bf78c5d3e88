package dev.ein4j.kernel;

import dev.ein4j.ir.DType;
import dev.ein4j.ir.Op;
import dev.ein4j.ir.View;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * What a backend executes: one output buffer computed from input buffers by a short program of
 * {@link Instruction}s. Immutable, compared by value and printable, so it serves as the cache key
 * of generated code (OpenCL sources, specialised CPU loops).
 *
 * <p>Three shapes of program:
 * <ul>
 *   <li><b>elementwise</b>: every instruction has the output's shape; the last is the output.</li>
 *   <li><b>reduce</b>: a prologue over the source's shape, one SUM/REDUCE_MAX/PROD, then an
 *       optional elementwise epilogue over the output's shape.</li>
 *   <li><b>contract</b>: a prologue per operand (often a single load), one CONTRACT described by a
 *       {@link ContractSpec}, then an optional epilogue (bias, activation, scale).</li>
 * </ul>
 * The output buffer is compact (row-major, offset 0) in the last instruction's shape. Loads name
 * input slots; slot i is the i-th buffer handed to the backend and has type {@link #inputType(int)}.
 *
 * <pre>{@code
 * kernel elementwise f32[1000,1000] <- in0 f32, in1 f32, in2 f32
 *   %0 = load f32[1000,1000] in0
 *   %1 = load f32[1000,1000] in1
 *   %2 = mul f32[1000,1000] %0 %1
 *   %3 = load f32[1000,1000] in2 via [1000,1000]:(0,1)+0
 *   %4 = add f32[1000,1000] %2 %3
 *   %5 = const f32[1000,1000] 0 via [1000,1000]:(0,0)+0
 *   %6 = cmplt bool[1000,1000] %5 %4
 *   %7 = where f32[1000,1000] %6 %4 %5
 * }</pre>
 */
public final class Kernel {

    /** The three shapes of program. */
    public enum Kind {
        /** No reduction. */
        ELEMENTWISE,
        /** One SUM, REDUCE_MAX or PROD. */
        REDUCE,
        /** One CONTRACT. */
        CONTRACT
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
        RIGHT
    }

    private final List<DType> inputTypes;
    private final List<Instruction> instructions;
    private final int reduction;
    private final Segment[] segments;
    private final int hash;

    /**
     * @param inputTypes the type of each input slot
     * @param instructions the program, sources before their users, the output last
     * @throws IllegalArgumentException if the program is malformed
     */
    public Kernel(List<DType> inputTypes, List<Instruction> instructions) {
        this.inputTypes = List.copyOf(inputTypes);
        this.instructions = List.copyOf(instructions);
        if (this.instructions.isEmpty()) {
            throw new IllegalArgumentException("a kernel needs at least one instruction");
        }
        this.reduction = findReduction(this.instructions);
        this.segments = segments();
        validate();
        this.hash = 31 * this.inputTypes.hashCode() + this.instructions.hashCode();
    }

    private static int findReduction(List<Instruction> instructions) {
        int found = -1;
        for (int i = 0; i < instructions.size(); i++) {
            if (instructions.get(i).isReduction()) {
                if (found >= 0) {
                    throw new IllegalArgumentException("a kernel holds at most one reduction or contraction");
                }
                found = i;
            }
        }
        return found;
    }

    /** Marks the prologue instructions (those a reduction reads) with their segment. */
    private Segment[] segments() {
        Segment[] marks = new Segment[instructions.size()];
        Arrays.fill(marks, Segment.OUTPUT);
        if (reduction < 0) {
            return marks;
        }
        Instruction reduce = instructions.get(reduction);
        if (reduce.op() == Op.CONTRACT) {
            mark(marks, reduce.source(0), Segment.LEFT);
            mark(marks, reduce.source(1), Segment.RIGHT);
        } else {
            mark(marks, reduce.source(0), Segment.REDUCE_SOURCE);
        }
        return marks;
    }

    private void mark(Segment[] marks, int root, Segment segment) {
        boolean[] reached = new boolean[root + 1];
        reached[root] = true;
        for (int i = root; i >= 0; i--) {
            if (!reached[i]) {
                continue;
            }
            if (marks[i] != Segment.OUTPUT) {
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
        for (int i = 0; i < instructions.size(); i++) {
            Instruction instruction = instructions.get(i);
            for (int s = 0; s < instruction.sourceCount(); s++) {
                int source = instruction.source(s);
                if (source < 0 || source >= i) {
                    throw new IllegalArgumentException("instruction %" + i + " reads %" + source + ", which does not precede it");
                }
                if (segments[source] != segments[i] && i != reduction) {
                    throw new IllegalArgumentException("instruction %" + i + " reads %" + source + " across segments");
                }
            }
            if (instruction.isLoad() && (instruction.input() < 0 || instruction.input() >= inputTypes.size()
                    || inputTypes.get(instruction.input()) != instruction.dtype())) {
                throw new IllegalArgumentException("instruction %" + i + " loads a missing or mistyped input");
            }
            if (instruction.op().isElementwise()) {
                for (int s = 0; s < instruction.sourceCount(); s++) {
                    Instruction source = instructions.get(instruction.source(s));
                    boolean sameShape = Arrays.equals(source.shape(), instruction.shape());
                    boolean positional = instruction.source(s) == reduction && source.size() == instruction.size();
                    if (!sameShape && !positional) {
                        throw new IllegalArgumentException("instruction %" + i + " mixes shapes "
                                + Arrays.toString(instruction.shape()) + " and " + Arrays.toString(source.shape()));
                    }
                }
            }
        }
        if (reduction >= 0) {
            Instruction reduce = instructions.get(reduction);
            long expected = reduce.op() == Op.CONTRACT ? dev.ein4j.ir.Shapes.size(reduce.contractSpec().outputShape())
                    : reducedSize(instructions.get(reduce.source(0)).shape(), reduce.axes());
            if (reduce.size() != expected) {
                throw new IllegalArgumentException("the reduction's shape does not hold its " + expected + " results");
            }
            if (reduce.op() == Op.CONTRACT) {
                ContractSpec spec = reduce.contractSpec();
                if (!Arrays.equals(instructions.get(reduce.source(0)).shape(), spec.leftShape())
                        || !Arrays.equals(instructions.get(reduce.source(1)).shape(), spec.rightShape())) {
                    throw new IllegalArgumentException("contraction operands do not have the spec's shapes");
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
        if (reduction < 0) {
            return Kind.ELEMENTWISE;
        }
        return instructions.get(reduction).op() == Op.CONTRACT ? Kind.CONTRACT : Kind.REDUCE;
    }

    /** @return the instructions, sources first, output last */
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

    /** @return the index of the REDUCE or CONTRACT instruction, −1 for elementwise kernels */
    public int reductionIndex() {
        return reduction;
    }

    /**
     * @param index an instruction's index
     * @return its iteration space
     */
    public Segment segment(int index) {
        return segments[index];
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

    /** @return the output instruction (the last) */
    public Instruction output() {
        return instructions.get(instructions.size() - 1);
    }

    /** @return the output buffer's type */
    public DType outputType() {
        return output().dtype();
    }

    /** @return the output buffer's shape (compact, row-major) */
    public int[] outputShape() {
        return output().shape();
    }

    /** @return the number of output elements */
    public long outputSize() {
        return output().size();
    }

    /** @return the contraction's spec, or null if this is not a contract kernel */
    public ContractSpec contractSpec() {
        return kind() == Kind.CONTRACT ? instructions.get(reduction).contractSpec() : null;
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
        Instruction operand = instructions.get(instructions.get(reduction).source(side));
        return operand.isLoad() && !operand.view().hasMask() ? operand : null;
    }

    /**
     * @param segment a segment
     * @return the indices of its instructions, ascending
     */
    public int[] indicesOf(Segment segment) {
        return java.util.stream.IntStream.range(0, segments.length).filter(i -> segments[i] == segment).toArray();
    }

    /** @return whether an elementwise epilogue follows the reduction */
    public boolean hasEpilogue() {
        return reduction >= 0 && reduction < instructions.size() - 1;
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof Kernel that && hash == that.hash && inputTypes.equals(that.inputTypes)
                && instructions.equals(that.instructions);
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
        StringBuilder text = new StringBuilder("kernel ").append(kind().name().toLowerCase(java.util.Locale.ROOT))
                .append(' ').append(KernelFormat.type(outputType())).append(KernelFormat.shape(outputShape()))
                .append(" <- ").append(inputs.isEmpty() ? "nothing" : String.join(", ", inputs));
        for (int i = 0; i < instructions.size(); i++) {
            text.append("\n  ").append(instructions.get(i).format(i));
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
