package dev.ein4j.opencl.codegen;

import dev.ein4j.ir.DType;
import dev.ein4j.ir.Op;
import dev.ein4j.kernel.Instruction;
import dev.ein4j.kernel.Kernel;
import dev.ein4j.kernel.Parameters;
import java.util.ArrayList;
import java.util.List;

/**
 * How a launch's {@link Parameters} reach a kernel's code: one value per parameter slot the kernel
 * reads. A CONST's value arrives already rounded to the instruction's type ({@code float},
 * {@code double}, {@code int}, {@code uchar}); a RAND's seed arrives as its mixed half of
 * {@link dev.ein4j.kernel.CounterRandom}'s bits ({@code ulong}), computed once per launch on the host.
 * Values are never written into a program, so kernels that differ only in their numbers (a learning
 * rate, Adam's bias corrections, a dropout seed) share one program.
 *
 * <p>Two ways, chosen per kernel:
 * <ul>
 *   <li><b>arguments</b> (the usual one): a scalar kernel argument per slot after the parameter
 *       table, named {@code arg<slot>} (a prefix no generated local variable has, so none hides
 *       it), set with {@code clSetKernelArg} at every launch. The cheapest: OpenCL captures an
 *       argument when the kernel is enqueued, so a launch costs one call per slot, with no device
 *       allocation, no transfer command and no host copy kept alive until a transfer completes.</li>
 *   <li><b>buffer</b>: when the arguments would pass the device's CL_DEVICE_MAX_PARAMETER_SIZE
 *       (1024 bytes may be all a device allows), every slot's 64 bits in one buffer
 *       {@code values}, written before each launch (a pooled buffer and one asynchronous write).</li>
 * </ul>
 *
 * <pre>{@code
 * kernel elementwise f32[4] <- in0 f32 (1 parameter)
 *   %0 = load f32[4] in0
 *   %1 = const f32[4] p0 via [4]:(0)+0
 *   %2 = mul f32[4] %0 %1
 * // becomes: __kernel void ein_output(..., __constant long* restrict p, const float arg0)
 * //          with arg0 = (float) parameters.constant(0) at each launch
 * }</pre>
 */
public final class LaunchArguments {

    /** The name of the buffer holding the values when they do not fit as arguments. */
    static final String BUFFER = "values";
    /** Buffers an argument list may hold besides the kernel's inputs and outputs (temporaries read, the table). */
    private static final int OTHER_BUFFERS = 8;

    /** How a slot's value is passed. */
    public enum Kind {
        /** A float32 constant. */
        FLOAT("float", 4),
        /** A float64 constant. */
        DOUBLE("double", 8),
        /** An int32 constant (truncated and wrapped as {@link DType#round} does). */
        INT("int", 4),
        /** A bool constant, 0 or 1. */
        BOOL("uchar", 1),
        /** A RAND seed, as its mixed half of the counter-based bits. */
        SEED("ulong", 8);

        private final String cName;
        private final int bytes;

        Kind(String cName, int bytes) {
            this.cName = cName;
            this.bytes = bytes;
        }

        /** @return the bytes of the argument (1, 4 or 8) */
        public int bytes() {
            return bytes;
        }
    }

    /**
     * One slot's value.
     *
     * @param slot the parameter slot it carries
     * @param kind how it is passed
     */
    public record Argument(int slot, Kind kind) {

        /**
         * @param parameters a launch's values
         * @return the value's bits in the low {@link Kind#bytes()} bytes: the rounded constant or the mixed seed
         */
        public long bits(Parameters parameters) {
            return switch (kind) {
                case FLOAT -> Float.floatToRawIntBits((float) parameters.constant(slot));
                case DOUBLE -> Double.doubleToRawLongBits(parameters.constant(slot));
                case INT -> (int) DType.INT32.round(parameters.constant(slot));
                case BOOL -> DType.BOOL.round(parameters.constant(slot)) != 0 ? 1 : 0;
                case SEED -> Preamble.mixedSeed(parameters.seed(slot));
            };
        }
    }

    private final List<Argument> arguments;
    private final boolean inBuffer;
    private final Kind[] kinds;

    private LaunchArguments(List<Argument> arguments, boolean inBuffer, Kind[] kinds) {
        this.arguments = arguments;
        this.inBuffer = inBuffer;
        this.kinds = kinds;
    }

    /**
     * @param kernel a kernel
     * @param limits the device's limits (its argument bytes decide between arguments and a buffer)
     * @return how its launches pass their values
     */
    public static LaunchArguments of(Kernel kernel, DeviceLimits limits) {
        Kind[] kinds = new Kind[kernel.parameterCount()];
        for (Instruction instruction : kernel.instructions()) {
            if (instruction.parameter() >= 0) {
                kinds[instruction.parameter()] = kindOf(instruction);
            }
        }
        List<Argument> arguments = new ArrayList<>();
        long bytes = (long) KernelPlanner.POINTER_BYTES * (kernel.inputCount() + Math.max(kernel.outputCount(),
                kernel.reductionCount()) + OTHER_BUFFERS);
        for (int slot = 0; slot < kinds.length; slot++) {
            if (kinds[slot] != null) {
                arguments.add(new Argument(slot, kinds[slot]));
                bytes += kinds[slot].bytes();
            }
        }
        return new LaunchArguments(List.copyOf(arguments), bytes > limits.maxParameterBytes(), kinds);
    }

    private static Kind kindOf(Instruction instruction) {
        if (instruction.op() == Op.RAND) {
            return Kind.SEED;
        }
        return switch (instruction.dtype()) {
            case FLOAT32 -> Kind.FLOAT;
            case FLOAT64 -> Kind.DOUBLE;
            case INT32 -> Kind.INT;
            case BOOL -> Kind.BOOL;
        };
    }

    /** @return one entry per slot the kernel reads, by slot */
    public List<Argument> arguments() {
        return arguments;
    }

    /**
     * @return whether the values travel in one buffer of {@link #bufferSlots()} 64-bit slots (the
     *     last kernel argument) rather than as one argument each
     */
    public boolean inBuffer() {
        return inBuffer;
    }

    /** @return the 64-bit slots of the values' buffer: one per parameter slot, read or not */
    public int bufferSlots() {
        return kinds.length;
    }

    /** @return the kernel parameters that receive the values, after the parameter table */
    List<String> declarations() {
        if (inBuffer) {
            return List.of("__global const long* restrict " + BUFFER);
        }
        List<String> declarations = new ArrayList<>();
        for (Argument argument : arguments) {
            declarations.add("const " + argument.kind().cName + " " + name(argument.slot()));
        }
        return declarations;
    }

    /**
     * @param slot a parameter slot the kernel reads
     * @return an expression of the slot's value, in its C type
     */
    String read(int slot) {
        if (!inBuffer) {
            return name(slot);
        }
        String bits = BUFFER + "[" + slot + "]";
        return switch (kinds[slot]) {
            case FLOAT -> "as_float((int)" + bits + ")";
            case DOUBLE -> "as_double(" + bits + ")";
            case INT -> "((int)" + bits + ")";
            case BOOL -> "((uchar)" + bits + ")";
            case SEED -> "((ulong)" + bits + ")";
        };
    }

    private static String name(int slot) {
        return "arg" + slot;
    }
}
