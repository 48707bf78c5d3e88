package dev.ein4j.opencl.codegen;

import dev.ein4j.ir.DType;
import java.util.List;

/**
 * How to run one {@link dev.ein4j.kernel.Kernel}: OpenCL programs to launch in order, and the
 * temporary buffers they pass between them (a contraction's operand prologues).
 *
 * <p>Every step's kernel takes, in order: its output buffer (the kernel's output, or a temporary),
 * one buffer per input slot of the kernel, the temporaries it reads, then its parameter table (a
 * {@code __constant long*} holding {@link Step#parameters()}; empty for baked code).
 *
 * @param steps the launches, in order
 * @param temporaries the buffers to allocate for the run and release after it
 */
public record KernelPlan(List<Step> steps, List<Temporary> temporaries) {

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
     * @param outputTemporary the temporary written, or −1 for the kernel's output buffer
     * @param temporaryInputs the temporaries read, passed after the input slots
     * @param parameters the parameter table's contents (lengths, strides, values the source reads from it)
     * @param what a short description ("elementwise", "reduce (group)", "tiled gemm", ...)
     */
    public record Step(String name, String source, long[] globalSize, long[] localSize, int outputTemporary,
                       int[] temporaryInputs, long[] parameters, String what) {

        /** @return the number of work items of one work group */
        public long groupSize() {
            long size = 1;
            for (long length : localSize) {
                size *= length;
            }
            return size;
        }
    }
}
