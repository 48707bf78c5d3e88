package dev.ein4j.opencl;

import dev.ein4j.opencl.codegen.KernelPlan;
import java.util.ArrayList;
import java.util.List;

/**
 * What the backend knows about one {@link dev.ein4j.kernel.Kernel} value: its current plan
 * (parameterised or baked), the device buffers holding each step's parameter table, how often it
 * has run, or why it runs on the interpreter. Changed only under the queue's lock.
 */
final class KernelEntry implements AutoCloseable {

    private KernelPlan plan;
    private boolean baked;
    private List<OpenClBuffer> parameters = List.of();
    private long runs;
    private boolean stayParameterised;
    private final String interpretedBecause;

    private KernelEntry(String interpretedBecause) {
        this.interpretedBecause = interpretedBecause;
    }

    /** @return an entry without a plan yet */
    static KernelEntry compiled() {
        return new KernelEntry(null);
    }

    /**
     * @param reason why the generator declined the kernel
     * @return an entry for a kernel run on the interpreter
     */
    static KernelEntry interpreted(String reason) {
        return new KernelEntry(reason);
    }

    /** @return whether the kernel runs on the interpreter */
    boolean isInterpreted() {
        return interpretedBecause != null;
    }

    /** @return why it runs on the interpreter, or null */
    String interpretedBecause() {
        return interpretedBecause;
    }

    /** @return the current plan, or null before the first */
    KernelPlan plan() {
        return plan;
    }

    /** @return whether the current plan has its numbers baked in */
    boolean isBaked() {
        return baked;
    }

    /**
     * @param step a step of the current plan
     * @return the buffer holding its parameter table
     */
    OpenClBuffer parameters(int step) {
        return parameters.get(step);
    }

    /** @return how many times the kernel has been launched compiled */
    long runs() {
        return runs;
    }

    /** @return whether baked code failed for this kernel, which then keeps its parameterised code */
    boolean staysParameterised() {
        return stayParameterised;
    }

    /** Keeps the parameterised code: the baked one could not be made. */
    void keepParameterised() {
        stayParameterised = true;
    }

    /** Counts a launch. */
    void ran() {
        runs++;
    }

    /**
     * Installs a plan, with its parameter tables already on the device; the previous plan's tables
     * are released (OpenCL keeps them until launches already enqueued are done).
     *
     * @param newPlan the plan
     * @param isBaked whether its numbers are literals
     * @param tables one parameter buffer per step, owned by this entry from now on
     */
    void install(KernelPlan newPlan, boolean isBaked, List<OpenClBuffer> tables) {
        close();
        this.plan = newPlan;
        this.baked = isBaked;
        this.parameters = new ArrayList<>(tables);
    }

    /** Releases the parameter tables. */
    @Override
    public void close() {
        parameters.forEach(OpenClBuffer::close);
        parameters = List.of();
    }
}
