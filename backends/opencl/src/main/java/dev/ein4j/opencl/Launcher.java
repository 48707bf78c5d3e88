package dev.ein4j.opencl;

import dev.ein4j.error.IndexOutOfRangeException;
import dev.ein4j.ir.DType;
import dev.ein4j.kernel.Kernel;
import dev.ein4j.kernel.Parameters;
import dev.ein4j.opencl.codegen.IndexChecks;
import dev.ein4j.opencl.codegen.KernelPlan;
import dev.ein4j.opencl.codegen.LaunchArguments;
import java.util.ArrayList;
import java.util.List;
import org.jocl.CL;
import org.jocl.Pointer;
import org.jocl.Sizeof;
import org.jocl.cl_kernel;
import org.jocl.cl_mem;

/**
 * Enqueues the steps of a kernel's plan. Called with the queue's lock held: arguments are set on
 * shared kernel objects (OpenCL captures them when the kernel is enqueued, so the next launch may
 * set them again at once). Temporaries come from the pool for the run and go back as soon as the
 * last step is enqueued; the in-order queue runs every later user of that memory after these steps.
 */
final class Launcher {

    private final DeviceQueue queue;
    private final BufferPool pool;

    /**
     * @param queue the queue to enqueue on
     * @param pool where temporaries come from
     */
    Launcher(DeviceQueue queue, BufferPool pool) {
        this.queue = queue;
        this.pool = pool;
    }

    /**
     * Enqueues the steps. A kernel that reads or writes at indices (its plan has
     * {@link KernelPlan#indexChecks()}) also gets an error buffer, read back once the steps have run:
     * that launch is a synchronisation, and a bad index is thrown here.
     *
     * @param kernel the kernel
     * @param entry the kernel's entry, with a plan
     * @param programs the compiled program of each step
     * @param outputs the kernel's output buffers
     * @param inputs one buffer per input slot
     * @param parameters the launch's values
     * @throws IndexOutOfRangeException for an index outside its axis, as the interpreter reports it
     */
    void launch(Kernel kernel, KernelEntry entry, List<ProgramBuilder.Built> programs, List<OpenClBuffer> outputs,
                List<OpenClBuffer> inputs, Parameters parameters) {
        KernelPlan plan = entry.plan();
        LaunchArguments launch = plan.launch();
        List<LaunchArguments.Argument> arguments = launch.arguments();
        long[] values = new long[launch.inBuffer() ? launch.bufferSlots() : arguments.size()];
        for (int a = 0; a < arguments.size(); a++) {
            LaunchArguments.Argument argument = arguments.get(a);
            values[launch.inBuffer() ? argument.slot() : a] = argument.bits(parameters);
        }
        List<OpenClBuffer> temporaries = new ArrayList<>();
        OpenClBuffer valueBuffer = null;
        OpenClBuffer errors = null;
        try {
            if (plan.indexChecks() > 0) {
                // 64-bit slots as pairs of int32, like the parameter tables
                errors = pool.allocateInternal(DType.INT32, 2L * plan.indexChecks());
                queue.writeLongs(errors, IndexChecks.initial(plan.indexChecks()));
            }
            for (KernelPlan.Temporary temporary : plan.temporaries()) {
                temporaries.add(pool.allocateInternal(temporary.dtype(), temporary.size()));
            }
            if (launch.inBuffer()) {
                // 64-bit slots as pairs of int32: not a tensor type; written before the steps on the in-order queue
                valueBuffer = pool.allocateInternal(DType.INT32, 2L * Math.max(1, values.length));
                queue.writeLongs(valueBuffer, values);
            }
            for (int s = 0; s < plan.steps().size(); s++) {
                KernelPlan.Step step = plan.steps().get(s);
                cl_kernel program = programs.get(s).kernel();
                int argument = 0;
                if (step.writesOutputs()) {
                    for (OpenClBuffer output : outputs) {
                        setBuffer(program, argument++, output.memory());
                    }
                } else {
                    for (int temporary : step.outputTemporaries()) {
                        setBuffer(program, argument++, temporaries.get(temporary).memory());
                    }
                }
                for (OpenClBuffer input : inputs) {
                    setBuffer(program, argument++, input.memory());
                }
                for (int temporary : step.temporaryInputs()) {
                    setBuffer(program, argument++, temporaries.get(temporary).memory());
                }
                setBuffer(program, argument++, entry.parameters(s).memory());
                if (errors != null) {
                    setBuffer(program, argument++, errors.memory());
                }
                if (valueBuffer != null) {
                    setBuffer(program, argument, valueBuffer.memory());
                } else {
                    for (int a = 0; a < values.length; a++) {
                        setValue(program, argument++, arguments.get(a).kind().bytes(), values[a]);
                    }
                }
                enqueue(program, step);
            }
            if (errors != null) {
                IndexOutOfRangeException failure = IndexChecks.firstError(kernel, queue.readLongs(errors, plan.indexChecks()));
                if (failure != null) {
                    throw failure;
                }
            }
        } finally {
            temporaries.forEach(OpenClBuffer::close);
            if (valueBuffer != null) {
                valueBuffer.close();
            }
            if (errors != null) {
                errors.close();
            }
        }
    }

    /** A device that runs out of memory at a launch (drivers allocate lazily) gets the pooled buffers back first. */
    private void enqueue(cl_kernel kernel, KernelPlan.Step step) {
        int status = submit(kernel, step);
        if (ClErrors.isOutOfMemory(status) && pool.pooledBytes() > 0) {
            pool.trim();
            status = submit(kernel, step);
        }
        ClErrors.check(status, "clEnqueueNDRangeKernel (" + step.what() + ")");
    }

    private int submit(cl_kernel kernel, KernelPlan.Step step) {
        return CL.clEnqueueNDRangeKernel(queue.queue(), kernel, step.globalSize().length, null, step.globalSize(), step.localSize(),
                0, null, null);
    }

    private static void setBuffer(cl_kernel kernel, int index, cl_mem memory) {
        ClErrors.check(CL.clSetKernelArg(kernel, index, Sizeof.cl_mem, Pointer.to(memory)), "clSetKernelArg");
    }

    /** A scalar argument of 1, 4 or 8 bytes, from the low bytes of {@code bits}. */
    private static void setValue(cl_kernel kernel, int index, int bytes, long bits) {
        Pointer value = switch (bytes) {
            case 1 -> Pointer.to(new byte[] {(byte) bits});
            case 4 -> Pointer.to(new int[] {(int) bits});
            default -> Pointer.to(new long[] {bits});
        };
        ClErrors.check(CL.clSetKernelArg(kernel, index, bytes, value), "clSetKernelArg");
    }
}
