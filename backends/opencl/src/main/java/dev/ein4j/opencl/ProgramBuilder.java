package dev.ein4j.opencl;

import dev.ein4j.error.EinopsException;
import java.nio.charset.StandardCharsets;
import org.jocl.CL;
import org.jocl.Pointer;
import org.jocl.cl_device_id;
import org.jocl.cl_kernel;
import org.jocl.cl_program;

/**
 * Compiles OpenCL C for the backend's device. A failed build is an {@link EinopsException} carrying
 * the compiler's log and the numbered source, since a generated program that does not compile is a
 * bug to report with both.
 */
final class ProgramBuilder {

    /** One compiled kernel function and the program it lives in. */
    static final class Built implements AutoCloseable {
        private final ClHandle<cl_program> program;
        private final ClHandle<cl_kernel> kernel;
        private final long workGroupSize;

        Built(ClHandle<cl_program> program, ClHandle<cl_kernel> kernel, long workGroupSize) {
            this.program = program;
            this.kernel = kernel;
            this.workGroupSize = workGroupSize;
        }

        /** @return the kernel object; set its arguments and enqueue it only under the queue's lock */
        cl_kernel kernel() {
            return kernel.get();
        }

        /** @return CL_KERNEL_WORK_GROUP_SIZE: the largest group this kernel runs with on the device */
        long workGroupSize() {
            return workGroupSize;
        }

        @Override
        public void close() {
            kernel.close();
            program.close();
        }
    }

    private final DeviceQueue queue;
    private final String options;

    /** @param queue the context and device to build for */
    ProgramBuilder(DeviceQueue queue) {
        this.queue = queue;
        // the interpreter divides and takes square roots correctly rounded; OpenCL's float32 may not unless asked
        this.options = queue.device().correctlyRoundedDivideSqrt() ? "-cl-fp32-correctly-rounded-divide-sqrt" : "";
    }

    /**
     * @param source a complete OpenCL C program
     * @param name the kernel function to take from it
     * @return the compiled kernel
     * @throws EinopsException with the build log and the source if it does not compile
     */
    Built build(String source, String name) {
        int[] status = new int[1];
        cl_program program = CL.clCreateProgramWithSource(queue.context(), 1, new String[] {source},
                new long[] {source.length()}, status);
        ClErrors.check(status[0], "clCreateProgramWithSource");
        ClHandle<cl_program> programHandle = new ClHandle<>(program, CL::clReleaseProgram, "program");
        try {
            cl_device_id[] devices = {queue.device().device()};
            int built = CL.clBuildProgram(program, 1, devices, options, null, null);
            if (built != CL.CL_SUCCESS) {
                throw new EinopsException("opencl backend: building a program for " + queue.device().deviceName() + " failed with "
                        + CL.stringFor_errorCode(built) + "\n--- build log ---\n" + buildLog(program) + "\n--- source ---\n"
                        + numbered(source));
            }
            cl_kernel kernel = CL.clCreateKernel(program, name, status);
            ClErrors.check(status[0], "clCreateKernel " + name);
            ClHandle<cl_kernel> kernelHandle = new ClHandle<>(kernel, CL::clReleaseKernel, "kernel");
            return new Built(programHandle, kernelHandle, workGroupSize(kernel));
        } catch (RuntimeException failure) {
            programHandle.close();
            throw failure;
        }
    }

    private long workGroupSize(cl_kernel kernel) {
        long[] size = new long[1];
        ClErrors.check(CL.clGetKernelWorkGroupInfo(kernel, queue.device().device(), CL.CL_KERNEL_WORK_GROUP_SIZE,
                org.jocl.Sizeof.size_t, Pointer.to(size), null), "clGetKernelWorkGroupInfo");
        return size[0];
    }

    private String buildLog(cl_program program) {
        long[] size = new long[1];
        cl_device_id device = queue.device().device();
        if (CL.clGetProgramBuildInfo(program, device, CL.CL_PROGRAM_BUILD_LOG, 0, null, size) != CL.CL_SUCCESS || size[0] == 0) {
            return "(no build log)";
        }
        byte[] log = new byte[(int) size[0]];
        CL.clGetProgramBuildInfo(program, device, CL.CL_PROGRAM_BUILD_LOG, log.length, Pointer.to(log), null);
        int length = log.length;
        while (length > 0 && log[length - 1] == 0) {
            length--;
        }
        return new String(log, 0, length, StandardCharsets.UTF_8).strip();
    }

    private static String numbered(String source) {
        StringBuilder text = new StringBuilder();
        String[] lines = source.split("\n", -1);
        for (int i = 0; i < lines.length; i++) {
            text.append(String.format("%4d  %s%n", i + 1, lines[i]));
        }
        return text.toString();
    }
}
