package dev.ein4j.kernel;

import dev.ein4j.ir.AxesArgument;
import dev.ein4j.ir.DType;
import dev.ein4j.ir.Op;
import dev.ein4j.ir.View;
import java.util.Arrays;
import java.util.Objects;

/**
 * One step of a {@link Kernel}: a value for every element of its iteration shape, computed from
 * earlier steps (named by their index in the kernel). Immutable and compared by value, so that
 * kernels can be cache keys.
 *
 * <table>
 *   <caption>Kinds</caption>
 *   <tr><th>op</th><th>value at multi-index i</th></tr>
 *   <tr><td>INPUT (a load)</td><td>input buffer {@code input()} at {@code view().bufferIndex(i)}, or the view's pad value</td></tr>
 *   <tr><td>CONST IOTA RAND (a generator)</td><td>the constant (parameter slot {@code parameter()}); the position
 *       p = {@code view().bufferIndex(i)}; {@code CounterRandom} of (seed, p), the seed in parameter slot {@code parameter()}
 *       — a virtual buffer read through a view, so movement folds into generators as into loads</td></tr>
 *   <tr><td>unary, binary, ternary ops</td><td>the op on the sources' values at i (all of this shape)</td></tr>
 *   <tr><td>SUM REDUCE_MAX PROD</td><td>the reduction of the source over {@link #axes()}; its values in the
 *       row-major order of the reduced shape (source shape with those axes of length 1), indexed
 *       by this instruction's shape, which has the same number of elements</td></tr>
 *   <tr><td>CONTRACT</td><td>the contraction {@link #contractSpec()} of the two sources, its values
 *       in the row-major order of the spec's output shape, indexed by this instruction's shape</td></tr>
 *   <tr><td>GATHER (an indexed load)</td><td>input buffer {@code input()} at {@code view().bufferIndex(i)} with
 *       coordinate {@code indexed().axis()} replaced by source 0's value at i (an INT32 of this shape)</td></tr>
 *   <tr><td>SCATTER</td><td>the kernel's output (of this instruction's shape, holding the base on entry) with
 *       source 0's value at j written (or added) at j's coordinates, coordinate {@code indexed().axis()}
 *       replaced by source 1's value at j; j ranges over the sources' shape</td></tr>
 * </table>
 *
 * <p>Every value is rounded to the instruction's type. CONST values and RAND seeds are not part of
 * an instruction: they are {@link Parameters} of the launch, named by slot, so that kernels which
 * differ only in numbers are one kernel.
 */
public final class Instruction {

    private static final int[] NO_SOURCES = new int[0];

    private final Op op;
    private final DType dtype;
    private final int[] shape;
    private final int[] sources;
    /** A load's input slot, or a CONST's or RAND's parameter slot, else −1. */
    private final int slot;
    private final View view;
    private final Object argument;
    private final int hash;

    private Instruction(Op op, DType dtype, int[] shape, int[] sources, int slot, View view, Object argument) {
        this.op = op;
        this.dtype = dtype;
        this.shape = shape;
        this.sources = sources;
        this.slot = slot;
        this.view = view;
        this.argument = argument;
        this.hash = Objects.hash(op, dtype, Arrays.hashCode(shape), Arrays.hashCode(sources), slot, view, argumentHash(argument));
    }

    /**
     * @param input the kernel input slot
     * @param dtype the input buffer's type
     * @param view how this instruction's shape reads the buffer
     * @return a load
     */
    public static Instruction load(int input, DType dtype, View view) {
        return new Instruction(Op.INPUT, dtype, view.shape(), NO_SOURCES, input, view, null);
    }

    /**
     * @param op CONST, IOTA or RAND
     * @param dtype the type
     * @param view how this instruction's shape reads the virtual buffer (position p holds the constant, p, or random(seed, p))
     * @param parameter the parameter slot of the constant or the seed; ignored (−1) for IOTA
     * @return a generator
     */
    public static Instruction generate(Op op, DType dtype, View view, int parameter) {
        if (op.group() != Op.Group.CREATION) {
            throw new IllegalArgumentException(op + " is not a creation op");
        }
        if (op != Op.IOTA && parameter < 0) {
            throw new IllegalArgumentException(op + " needs a parameter slot");
        }
        return new Instruction(op, dtype, view.shape(), NO_SOURCES, op == Op.IOTA ? -1 : parameter, view, null);
    }

    /**
     * @param parameter the slot holding the value
     * @param dtype the type (the value is rounded to it)
     * @param view how the instruction's shape reads it (usually all strides 0)
     * @return a CONST generator
     */
    public static Instruction constant(int parameter, DType dtype, View view) {
        return generate(Op.CONST, dtype, view, parameter);
    }

    /**
     * @param parameter the slot holding the seed
     * @param dtype FLOAT32 or FLOAT64
     * @param view how the instruction's shape reads the counter-based stream
     * @return a RAND generator
     */
    public static Instruction random(int parameter, DType dtype, View view) {
        return generate(Op.RAND, dtype, view, parameter);
    }

    /**
     * @param dtype the type
     * @param view how the instruction's shape reads the positions
     * @return an IOTA generator
     */
    public static Instruction iota(DType dtype, View view) {
        return generate(Op.IOTA, dtype, view, -1);
    }

    /**
     * An indexed load: {@code buffer[view.bufferIndex(i) + (index[i] − i[axis]) · view.stride(axis)]}.
     *
     * @param input the kernel input slot
     * @param dtype the input buffer's type
     * @param view how this instruction's shape reads the buffer, coordinate {@code axis} at the index (no mask)
     * @param axis the gathered dimension
     * @param length the buffer's length along it (the valid indices)
     * @param index the instruction giving the positions (INT32, this shape)
     * @return the gather
     */
    public static Instruction gather(int input, DType dtype, View view, int axis, long length, int index) {
        if (view.hasMask()) {
            throw new IllegalArgumentException("a gather reads through a view without a mask");
        }
        return new Instruction(Op.GATHER, dtype, view.shape(), new int[] {index}, input, view, new Indexed(axis, length, false));
    }

    /**
     * Writes (or adds) values into the kernel's output at indexed positions.
     *
     * @param dtype the output's type
     * @param shape the output's shape
     * @param axis the scattered dimension
     * @param accumulate add instead of write
     * @param source the instruction giving the values (over the sources' shape)
     * @param index the instruction giving the positions along axis (INT32, the values' shape)
     * @return the scatter
     */
    public static Instruction scatter(DType dtype, int[] shape, int axis, boolean accumulate, int source, int index) {
        return new Instruction(Op.SCATTER, dtype, shape.clone(), new int[] {source, index}, -1, null,
                new Indexed(axis, shape[axis], accumulate));
    }

    /**
     * @param op a unary, binary or ternary op
     * @param dtype the result type
     * @param shape the shape, also each source's
     * @param sources earlier instructions
     * @return the elementwise step
     */
    public static Instruction apply(Op op, DType dtype, int[] shape, int... sources) {
        if (!op.isElementwise()) {
            throw new IllegalArgumentException(op + " is not elementwise");
        }
        return new Instruction(op, dtype, shape.clone(), sources.clone(), -1, null, null);
    }

    /**
     * @param op SUM, REDUCE_MAX or PROD
     * @param dtype the result type
     * @param shape the shape the result is indexed by (as many elements as the reduced shape)
     * @param axes the reduced axes of the source, ascending
     * @param source an earlier instruction
     * @return the reduction
     */
    public static Instruction reduce(Op op, DType dtype, int[] shape, int[] axes, int source) {
        if (op.group() != Op.Group.REDUCE) {
            throw new IllegalArgumentException(op + " is not a reduction");
        }
        return new Instruction(op, dtype, shape.clone(), new int[] {source}, -1, null, new AxesArgument(axes.clone()));
    }

    /**
     * @param dtype the result type
     * @param shape the shape the result is indexed by (as many elements as the spec's output)
     * @param spec the contraction
     * @param left the instruction giving the left operand (of the spec's left shape)
     * @param right the instruction giving the right operand
     * @return the contraction
     */
    public static Instruction contract(DType dtype, int[] shape, ContractSpec spec, int left, int right) {
        return new Instruction(Op.CONTRACT, dtype, shape.clone(), new int[] {left, right}, -1, null, spec);
    }

    /** @return the primitive (INPUT for loads) */
    public Op op() {
        return op;
    }

    /** @return the value type */
    public DType dtype() {
        return dtype;
    }

    /** @return a copy of the iteration shape */
    public int[] shape() {
        return shape.clone();
    }

    /** @return the number of elements of the iteration shape */
    public long size() {
        return dev.ein4j.ir.Shapes.size(shape);
    }

    /** @return the number of source instructions */
    public int sourceCount() {
        return sources.length;
    }

    /**
     * @param index which source
     * @return the index of that source instruction in the kernel
     */
    public int source(int index) {
        return sources[index];
    }

    /** @return the input slot of a load or gather, −1 otherwise */
    public int input() {
        return op == Op.INPUT || op == Op.GATHER ? slot : -1;
    }

    /** @return whether this is an indexed load */
    public boolean isGather() {
        return op == Op.GATHER;
    }

    /** @return whether this is a scatter into the kernel's output */
    public boolean isScatter() {
        return op == Op.SCATTER;
    }

    /** @return a GATHER's or SCATTER's axis, length and mode */
    public Indexed indexed() {
        return (Indexed) argument;
    }

    /** @return the parameter slot of a CONST (its value) or RAND (its seed), −1 otherwise */
    public int parameter() {
        return op == Op.CONST || op == Op.RAND ? slot : -1;
    }

    /** @return the view of a load or generator, null otherwise */
    public View view() {
        return view;
    }

    /** @return whether this is a load from an input buffer */
    public boolean isLoad() {
        return op == Op.INPUT;
    }

    /** @return whether this is a REDUCE or CONTRACT step */
    public boolean isReduction() {
        return op.group() == Op.Group.REDUCE || op == Op.CONTRACT;
    }

    /** @return a reduction's axes */
    public int[] axes() {
        return ((AxesArgument) argument).axes();
    }

    /** @return CONTRACT's spec */
    public ContractSpec contractSpec() {
        return (ContractSpec) argument;
    }

    /** @return the raw argument (AxesArgument, ContractSpec, Indexed or null) */
    public Object argument() {
        return argument;
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof Instruction that && hash == that.hash && op == that.op && dtype == that.dtype
                && slot == that.slot && Arrays.equals(shape, that.shape) && Arrays.equals(sources, that.sources)
                && Objects.equals(view, that.view) && argumentEquals(argument, that.argument);
    }

    @Override
    public int hashCode() {
        return hash;
    }

    private static int argumentHash(Object argument) {
        return argument instanceof AxesArgument axes ? Arrays.hashCode(axes.axes()) : Objects.hashCode(argument);
    }

    private static boolean argumentEquals(Object a, Object b) {
        if (a instanceof AxesArgument x && b instanceof AxesArgument y) {
            return Arrays.equals(x.axes(), y.axes());
        }
        return Objects.equals(a, b);
    }

    /**
     * @param index this instruction's index, for the name {@code %index}
     * @return one line: {@code %3 = mul f32[4,5] %1 %2}
     */
    public String format(int index) {
        StringBuilder line = new StringBuilder("%").append(index).append(" = ");
        line.append(op == Op.INPUT ? "load" : op.name().toLowerCase(java.util.Locale.ROOT));
        line.append(' ').append(KernelFormat.type(dtype)).append(KernelFormat.shape(shape));
        if (op == Op.INPUT || op == Op.GATHER) {
            line.append(" in").append(slot);
        } else if (op == Op.CONST || op == Op.RAND) {
            line.append(" p").append(slot);
        }
        for (int source : sources) {
            line.append(" %").append(source);
        }
        if (argument instanceof AxesArgument) {
            line.append(" axes ").append(Arrays.toString(axes()));
        } else if (argument instanceof ContractSpec spec) {
            line.append(' ').append(spec);
        } else if (argument instanceof Indexed indexed) {
            line.append(" axis ").append(indexed.axis()).append(" of ").append(indexed.length())
                    .append(op == Op.SCATTER ? indexed.accumulate() ? " add" : " set" : "");
        }
        if (view != null && !view.equals(View.contiguous(shape))) {
            line.append(" via ").append(KernelFormat.view(view));
        }
        return line.toString();
    }
}
