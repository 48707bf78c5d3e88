package dev.ein4j.opencl.codegen;

import dev.ein4j.ir.DType;
import java.util.List;

/**
 * How to run one {@link dev.ein4j.kernel.Kernel}: OpenCL programs to launch in order, the
 * temporary buffers they pass between them (a contraction's operand prologues and product, a split
 * reduction's partial accumulators), and the launch values every step takes.
 *
 * <p>Every step's kernel takes, in order: the buffers it writes (the kernel's outputs, or the
 * temporaries {@link Step#outputTemporaries()} names), one buffer per input slot of the kernel, the
 * temporaries it reads, its parameter table (a {@code __constant long*} holding
 * {@link Step#parameters()}; empty for baked code), the index-error buffer when
 * {@link #indexChecks()} is positive, then the launch's values from its
 * {@link dev.ein4j.kernel.Parameters}, as {@link #launch()} says: one scalar per slot, or one buffer.
 *
 * @param steps the launches, in order
 * @param temporaries the buffers to allocate for the run and release after it
 * @param launch how the launch values arrive, the same for every step
 * @param indexChecks the slots of the index-error buffer ({@link IndexChecks}), 0 for a kernel that
 *     reads and writes no index; the host fills it with {@link IndexChecks#initial}, reads it after
 *     the last step and throws {@link IndexChecks#firstError}
 */
public record KernelPlan(List<Step> steps, List<Temporary> temporaries, LaunchArguments launch, int indexChecks) {

    /** Copies the lists. */
    public KernelPlan {
        steps = List.copyOf(steps);
        temporaries = List.copyOf(temporaries);
    }

    /**
     * A temporary buffer.
     *
     * @param dtype its element type
     * @param size its number of elements
     */
    public record Temporary(DType dtype, long size) {
    }

    /**
     * One launch.
     *
     * @param name the kernel function's name in the source
     * @param source the complete OpenCL C program
     * @param globalSize the global work size per dimension (a multiple of the local size)
     * @param localSize the work-group size per dimension
     * @param outputTemporaries the temporaries written, in order; empty when the step writes the kernel's outputs
     * @param temporaryInputs the temporaries read, passed after the input slots
     * @param parameters the parameter table's contents (lengths, strides, pad values the source reads from it)
     * @param what a short description ("elementwise", "reduce (group)", "tiled gemm", ...)
     */
    public record Step(String name, String source, long[] globalSize, long[] localSize, int[] outputTemporaries,
                       int[] temporaryInputs, long[] parameters, String what) {

        /** @return the number of work items of one work group */
        public long groupSize() {
            long size = 1;
            for (long length : localSize) {
                size *= length;
            }
            return size;
        }

        /** @return whether the step writes the kernel's output buffers (rather than temporaries) */
        public boolean writesOutputs() {
            return outputTemporaries.length == 0;
        }
    }
}
