package dev.ein4j.opencl.codegen;

import dev.ein4j.ir.DType;
import dev.ein4j.ir.Op;
import dev.ein4j.kernel.Instruction;
import dev.ein4j.kernel.Kernel;
import dev.ein4j.kernel.Parameters;
import java.util.ArrayList;
import java.util.List;

/**
 * The scalar kernel arguments that carry a launch's {@link Parameters}: one per parameter slot the
 * kernel reads, after the parameter table, named {@code c<slot>}. A CONST's slot arrives already
 * rounded to the instruction's type ({@code float}, {@code double}, {@code int}, {@code uchar}); a
 * RAND's slot arrives as the seed's mixed half of {@link dev.ein4j.kernel.CounterRandom}'s bits
 * ({@code ulong}), computed once per launch on the host.
 *
 * <p>Values are set with {@code clSetKernelArg} at every launch and never written into a program,
 * so kernels that differ only in their numbers (a learning rate, Adam's bias corrections, a
 * dropout seed) share one program. Arguments rather than a per-launch buffer of values: OpenCL
 * captures an argument when the kernel is enqueued, so a launch costs one call per slot and needs
 * no device allocation, no transfer command, and no host copy kept alive until a transfer completes.
 *
 * <pre>{@code
 * kernel elementwise f32[4] <- in0 f32 (1 parameter)
 *   %0 = load f32[4] in0
 *   %1 = const f32[4] p0 via [4]:(0)+0
 *   %2 = mul f32[4] %0 %1
 * // becomes: __kernel void ein_output(..., __constant long* restrict p, const float c0)
 * //          with c0 = (float) parameters.constant(0) at each launch
 * }</pre>
 */
public final class LaunchArguments {

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
     * One argument.
     *
     * @param slot the parameter slot it carries
     * @param kind how it is passed
     */
    public record Argument(int slot, Kind kind) {

        /**
         * @param parameters a launch's values
         * @return the argument's bits in the low {@link Kind#bytes()} bytes: the rounded constant or the mixed seed
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

        /** @return the parameter's declaration in a kernel's parameter list */
        String declaration() {
            return "const " + kind.cName + " " + name(slot);
        }
    }

    private LaunchArguments() {
    }

    /**
     * @param slot a parameter slot
     * @return the kernel argument's name
     */
    static String name(int slot) {
        return "c" + slot;
    }

    /**
     * @param kernel a kernel
     * @return one argument per parameter slot some CONST or RAND of it reads, by slot
     */
    public static List<Argument> of(Kernel kernel) {
        Kind[] kinds = new Kind[kernel.parameterCount()];
        for (Instruction instruction : kernel.instructions()) {
            if (instruction.parameter() >= 0) {
                kinds[instruction.parameter()] = instruction.op() == Op.RAND ? Kind.SEED : switch (instruction.dtype()) {
                    case FLOAT32 -> Kind.FLOAT;
                    case FLOAT64 -> Kind.DOUBLE;
                    case INT32 -> Kind.INT;
                    case BOOL -> Kind.BOOL;
                };
            }
        }
        List<Argument> arguments = new ArrayList<>();
        for (int slot = 0; slot < kinds.length; slot++) {
            if (kinds[slot] != null) {
                arguments.add(new Argument(slot, kinds[slot]));
            }
        }
        return List.copyOf(arguments);
    }
}
