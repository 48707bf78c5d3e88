package dev.ein4j.opencl.codegen;

import dev.ein4j.ir.DType;
import dev.ein4j.ir.Op;
import dev.ein4j.ir.View;
import dev.ein4j.kernel.Indexed;
import dev.ein4j.kernel.Instruction;
import dev.ein4j.kernel.Kernel;
import java.util.Arrays;
import java.util.function.IntFunction;

/**
 * Writes the statements of one segment of a kernel for one element of its iteration space: each
 * instruction becomes {@code T vN = ...;}, in program order, with loads and generators reading
 * through their views at the element's multi-index (given as index expressions, one per axis).
 */
final class SegmentEmitter {

    private final Kernel kernel;
    private final OpEmitter ops;
    private final Constants constants;

    /**
     * @param kernel the kernel
     * @param fp64 whether the device has double
     * @param constants where view numbers, pad values and constants go
     */
    SegmentEmitter(Kernel kernel, boolean fp64, Constants constants) {
        this.kernel = kernel;
        this.ops = new OpEmitter(fp64);
        this.constants = constants;
    }

    /**
     * @param index an instruction
     * @return the variable holding its value
     */
    static String variable(int index) {
        return "v" + index;
    }

    /**
     * @param instruction an instruction
     * @return the C type of its values
     */
    static CType typeOf(Instruction instruction) {
        return CType.of(instruction.dtype());
    }

    /**
     * Checks that every instruction of a segment runs over the segment's shape (the reductions, read
     * by flat index, aside), which the generated code assumes.
     *
     * @param members the segment's instructions
     * @param shape the segment's iteration shape
     * @throws UnsupportedKernelException otherwise
     */
    void requireShape(int[] members, int[] shape) {
        for (int i : members) {
            if (!kernel.isReduction(i) && !Arrays.equals(kernel.instruction(i).shape(), shape)) {
                throw new UnsupportedKernelException("instruction %" + i + " has shape "
                        + Arrays.toString(kernel.instruction(i).shape()) + ", not its segment's " + Arrays.toString(shape));
            }
        }
    }

    /**
     * @param out where to write
     * @param members the instructions to evaluate, ascending
     * @param axes index expressions of the element, one per axis of the segment's shape
     * @param reductionValues each reduction's (rounded) value for this element, by instruction index;
     *     null for a segment without reductions
     */
    void emit(SourceWriter out, int[] members, String[] axes, IntFunction<String> reductionValues) {
        for (int i : members) {
            Instruction instruction = kernel.instruction(i);
            CType type = typeOf(instruction);
            String value;
            if (kernel.isReduction(i)) {
                value = reductionValues.apply(i);
            } else if (instruction.isGather()) {
                value = gather(out, i, axes);
            } else if (instruction.isLoad() || instruction.op().group() == Op.Group.CREATION) {
                value = read(instruction, axes);
            } else {
                String[] sources = new String[instruction.sourceCount()];
                CType[] types = new CType[sources.length];
                for (int s = 0; s < sources.length; s++) {
                    sources[s] = variable(instruction.source(s));
                    types[s] = typeOf(kernel.instruction(instruction.source(s)));
                }
                value = ops.apply(instruction.op(), type, sources, types);
            }
            out.line("const " + type.cName() + " " + variable(i) + " = " + value + ";");
        }
    }

    /**
     * A GATHER: the index is checked against the buffer's length along the axis; out of range, it is
     * recorded ({@link IndexChecks}) and nothing is read (the value is 0).
     *
     * @return the gathered value's expression, after the statements checking the index
     */
    private String gather(SourceWriter out, int i, String[] axes) {
        Instruction instruction = kernel.instruction(i);
        View view = instruction.view();
        if (view.rank() != axes.length) {
            throw new UnsupportedKernelException("a view of rank " + view.rank() + " in a space of rank " + axes.length);
        }
        Indexed indexed = instruction.indexed();
        String index = "x" + i;
        String valid = "ok" + i;
        out.line("const int " + index + " = " + variable(instruction.source(0)) + ";");
        out.line("const int " + valid + " = " + index + " >= 0 && " + index + " < " + constants.integer(indexed.length()) + ";");
        out.line("if (!" + valid + ") " + IndexChecks.record(IndexChecks.slotOf(kernel, i),
                IndexChecks.position(instruction.shape(), axes, constants), index));
        String position = Indexing.gatherPosition(view, axes, indexed.axis(), index, indexed.length(), constants);
        CType type = typeOf(instruction);
        return "(" + valid + " ? in" + instruction.input() + "[" + position + "] : " + CExpressions.literal(type, 0.0) + ")";
    }

    /** A load or generator: the (virtual) buffer at the view's position, or the pad value outside the mask. */
    private String read(Instruction instruction, String[] axes) {
        View view = instruction.view();
        if (view.rank() != axes.length) {
            throw new UnsupportedKernelException("a view of rank " + view.rank() + " in a space of rank " + axes.length);
        }
        CType type = typeOf(instruction);
        String mask = Indexing.maskCondition(view, axes, constants);
        if (mask.equals("0")) {
            return CExpressions.literal(type, instruction.dtype().round(view.padValue()));
        }
        String position = Indexing.position(view, axes, constants);
        String value = switch (instruction.op()) {
            case INPUT -> "in" + instruction.input() + "[" + position + "]";
            case CONST -> constants.launch().read(instruction.parameter());
            case IOTA -> CExpressions.convert("(long)" + position, CType.LONG, type);
            case RAND -> random(instruction, position);
            default -> throw new UnsupportedKernelException(instruction.op() + " does not read");
        };
        if (mask.equals("1")) {
            return value;
        }
        String pad = constants.typed(type, instruction.dtype().round(view.padValue()));
        return "(" + mask + " ? " + value + " : " + pad + ")";
    }

    /**
     * Stores instructions' values at one flat index into the step's output buffers, in order, after
     * every instruction of the element is evaluated: an output may be an input read in place, so
     * no store may precede a load.
     *
     * @param out where to write
     * @param flat the element's flat index
     * @param roots the instruction stored to {@code out0}, {@code out1}, ...
     */
    static void store(SourceWriter out, String flat, int[] roots) {
        for (int k = 0; k < roots.length; k++) {
            out.line(Signature.output(k) + "[" + flat + "] = " + variable(roots[k]) + ";");
        }
    }

    /** RAND: CounterRandom's bits of (seed, position), the seed's half mixed on the host; the top 24 bits for float32, 53 for float64. */
    private String random(Instruction instruction, String position) {
        String bits = "ein_random_bits(" + constants.launch().read(instruction.parameter()) + ", (long)" + position + ")";
        if (instruction.dtype() == DType.FLOAT64) {
            return "((double)(" + bits + " >> 11) * 0x1.0p-53)";
        }
        String single = "((float)(" + bits + " >> 40) * 0x1.0p-24f)";
        return CExpressions.convert(single, CType.FLOAT, typeOf(instruction));
    }
}
