package dev.ein4j.opencl;

import dev.ein4j.opencl.codegen.KernelPlan;
import java.util.ArrayList;
import java.util.List;
import org.jocl.CL;
import org.jocl.Pointer;
import org.jocl.Sizeof;
import org.jocl.cl_kernel;
import org.jocl.cl_mem;

/**
 * Enqueues the steps of a kernel's plan. Called with the queue's lock held: arguments are set on
 * shared kernel objects. Temporaries are allocated for the run and released as soon as the last
 * step is enqueued; OpenCL keeps them until the steps using them have finished.
 */
final class Launcher {

    private final DeviceQueue queue;

    /** @param queue the queue to enqueue on */
    Launcher(DeviceQueue queue) {
        this.queue = queue;
    }

    /**
     * @param entry the kernel's entry, with a plan
     * @param programs the compiled program of each step
     * @param output the kernel's output buffer
     * @param inputs one buffer per input slot
     */
    void launch(KernelEntry entry, List<ProgramBuilder.Built> programs, OpenClBuffer output, List<OpenClBuffer> inputs) {
        KernelPlan plan = entry.plan();
        List<OpenClBuffer> temporaries = new ArrayList<>();
        try {
            for (KernelPlan.Temporary temporary : plan.temporaries()) {
                temporaries.add(OpenClBuffer.allocate(queue.context(), temporary.dtype(), temporary.size()));
            }
            for (int s = 0; s < plan.steps().size(); s++) {
                KernelPlan.Step step = plan.steps().get(s);
                cl_kernel kernel = programs.get(s).kernel();
                int argument = 0;
                OpenClBuffer target = step.outputTemporary() < 0 ? output : temporaries.get(step.outputTemporary());
                setBuffer(kernel, argument++, target.memory());
                for (OpenClBuffer input : inputs) {
                    setBuffer(kernel, argument++, input.memory());
                }
                for (int temporary : step.temporaryInputs()) {
                    setBuffer(kernel, argument++, temporaries.get(temporary).memory());
                }
                setBuffer(kernel, argument, entry.parameters(s).memory());
                ClErrors.check(CL.clEnqueueNDRangeKernel(queue.queue(), kernel, step.globalSize().length, null, step.globalSize(),
                        step.localSize(), 0, null, null), "clEnqueueNDRangeKernel (" + step.what() + ")");
            }
        } finally {
            temporaries.forEach(OpenClBuffer::close);
        }
    }

    private static void setBuffer(cl_kernel kernel, int index, cl_mem memory) {
        ClErrors.check(CL.clSetKernelArg(kernel, index, Sizeof.cl_mem, Pointer.to(memory)), "clSetKernelArg");
    }
}
