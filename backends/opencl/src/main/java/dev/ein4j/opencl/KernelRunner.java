package dev.ein4j.opencl;

import dev.ein4j.ir.DType;
import dev.ein4j.kernel.Kernel;
import dev.ein4j.kernel.Parameters;
import dev.ein4j.opencl.codegen.DeviceLimits;
import dev.ein4j.opencl.codegen.KernelPlan;
import dev.ein4j.opencl.codegen.KernelPlanner;
import dev.ein4j.opencl.codegen.UnsupportedKernelException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Finds or makes the compiled code of a kernel and launches it. A kernel first runs parameterised
 * code, shared by every kernel of its structure (a stream of one-off kernels compiles once per
 * structure); from its {@code specializeAfter}-th run on, it runs code with its numbers baked in
 * (a kernel that repeats, a training step's, is worth its own program).
 *
 * <p>Generating and building happen outside the queue's lock (building takes a while); looking up,
 * installing and launching happen under it, so that a program or parameter table is never
 * released while a launch is using it.
 */
final class KernelRunner implements AutoCloseable {

    /** Program objects kept. */
    static final int PROGRAM_CAPACITY = 1024;
    /** Kernel entries kept. */
    static final int KERNEL_CAPACITY = 4096;
    /** Tries to find a plan's programs all present before giving up (they are evicted only by 1000 other programs). */
    private static final int ATTEMPTS = 8;

    private final DeviceQueue queue;
    private final BufferPool pool;
    private final ProgramBuilder builder;
    private final DeviceLimits limits;
    private final int specializeAfter;
    private final Launcher launcher;
    private final ProgramCache programs = new ProgramCache(PROGRAM_CAPACITY);
    private final LinkedHashMap<Kernel, KernelEntry> kernels = new LinkedHashMap<>(256, 0.75f, true);

    /**
     * @param queue the device queue
     * @param pool where parameter tables and temporaries come from
     * @param builder compiles sources
     * @param limits the device's limits
     * @param specializeAfter the run from which a kernel gets baked code (1: always; 0: never)
     */
    KernelRunner(DeviceQueue queue, BufferPool pool, ProgramBuilder builder, DeviceLimits limits, int specializeAfter) {
        this.queue = queue;
        this.pool = pool;
        this.builder = builder;
        this.limits = limits;
        this.specializeAfter = specializeAfter;
        this.launcher = new Launcher(queue, pool);
    }

    /**
     * @param kernel the kernel
     * @param outputs its output buffers
     * @param inputs its input buffers
     * @param parameters the launch's values
     * @return true if launched, false if the kernel must run on the interpreter
     */
    boolean launch(Kernel kernel, List<OpenClBuffer> outputs, List<OpenClBuffer> inputs, Parameters parameters) {
        for (int attempt = 0; attempt < ATTEMPTS; attempt++) {
            boolean bake;
            queue.lock().lock();
            try {
                KernelEntry entry = kernels.get(kernel);
                if (entry != null && entry.isInterpreted()) {
                    return false;
                }
                bake = specializeAfter > 0 && (entry == null ? 0 : entry.runs()) + 1 >= specializeAfter
                        && (entry == null || !entry.staysParameterised());
                if (entry != null && entry.plan() != null && entry.isBaked() == bake) {
                    List<ProgramBuilder.Built> built = lookUp(entry.plan());
                    if (built != null) {
                        try {
                            launcher.launch(kernel, entry, built, outputs, inputs, parameters);
                        } finally {
                            entry.ran(); // a launch that found a bad index ran too
                        }
                        return true;
                    }
                }
            } finally {
                queue.lock().unlock();
            }
            prepare(kernel, bake);
        }
        throw new IllegalStateException("opencl backend: the programs of a kernel were evicted " + ATTEMPTS + " times in a row");
    }

    /** @return every step's program if all are compiled, else null */
    private List<ProgramBuilder.Built> lookUp(KernelPlan plan) {
        List<ProgramBuilder.Built> built = new ArrayList<>(plan.steps().size());
        for (KernelPlan.Step step : plan.steps()) {
            ProgramBuilder.Built program = programs.get(step.source());
            if (program == null) {
                return null;
            }
            built.add(program);
        }
        return built;
    }

    /**
     * Generates the kernel's plan, builds the programs it lacks and installs both. A program may
     * run smaller groups than the device's maximum (registers, local memory): then the plan is
     * generated again for that size, which may pick another schedule.
     */
    private void prepare(Kernel kernel, boolean bake) {
        DeviceLimits current = limits;
        Map<String, ProgramBuilder.Built> built = new HashMap<>();
        try {
            for (int attempt = 0; attempt < 4; attempt++) {
                KernelPlan plan;
                try {
                    plan = KernelPlanner.plan(kernel, current, bake);
                } catch (UnsupportedKernelException unsupported) {
                    install(kernel, null, bake, unsupported.getMessage(), built);
                    return;
                }
                long fits = Long.MAX_VALUE;
                for (KernelPlan.Step step : plan.steps()) {
                    ProgramBuilder.Built program = built.get(step.source());
                    if (program == null && !isCompiled(step.source())) {
                        program = builder.build(step.source(), step.name());
                        built.put(step.source(), program);
                    }
                    long size = program != null ? program.workGroupSize() : Long.MAX_VALUE;
                    if (size < step.groupSize()) {
                        fits = Math.min(fits, size);
                    }
                }
                if (fits == Long.MAX_VALUE) {
                    install(kernel, plan, bake, null, built);
                    return;
                }
                current = current.withMaxWorkGroupSize(Math.min(fits, current.maxWorkGroupSize() / 2));
            }
            install(kernel, null, bake, "no work-group size fits the device", built);
        } finally {
            built.values().forEach(ProgramBuilder.Built::close); // whatever install did not take
        }
    }

    private boolean isCompiled(String source) {
        queue.lock().lock();
        try {
            return programs.contains(source);
        } finally {
            queue.lock().unlock();
        }
    }

    /** Under the lock: adds the built programs to the cache and the plan (or the interpreter marker) to the kernel's entry. */
    private void install(Kernel kernel, KernelPlan plan, boolean bake, String interpretedBecause, Map<String, ProgramBuilder.Built> built) {
        queue.lock().lock();
        try {
            built.forEach(programs::put);
            built.clear();
            KernelEntry entry = kernels.get(kernel);
            if (plan == null) {
                if (entry == null) {
                    put(kernel, KernelEntry.interpreted(interpretedBecause));
                    System.err.println("ein4j: opencl backend runs a kernel on the interpreter (" + interpretedBecause + "):\n"
                            + firstLines(kernel.toString(), 24));
                } else if (bake) {
                    entry.keepParameterised();
                }
                return;
            }
            if (entry == null) {
                entry = KernelEntry.compiled();
                put(kernel, entry);
            }
            if (entry.plan() == null || entry.isBaked() != bake) {
                entry.install(plan, bake, parameterTables(plan));
            }
        } finally {
            queue.lock().unlock();
        }
    }

    private List<OpenClBuffer> parameterTables(KernelPlan plan) {
        List<OpenClBuffer> tables = new ArrayList<>();
        try {
            for (KernelPlan.Step step : plan.steps()) {
                long[] values = step.parameters();
                // an int32 buffer of two ints per long: parameter tables are not a tensor type
                OpenClBuffer table = pool.allocateInternal(DType.INT32, 2L * Math.max(1, values.length));
                tables.add(table);
                queue.writeLongs(table, values);
            }
        } catch (RuntimeException failure) {
            tables.forEach(OpenClBuffer::close);
            throw failure;
        }
        return tables;
    }

    private void put(Kernel kernel, KernelEntry entry) {
        kernels.put(kernel, entry);
        Iterator<Map.Entry<Kernel, KernelEntry>> eldest = kernels.entrySet().iterator();
        while (kernels.size() > KERNEL_CAPACITY) {
            KernelEntry evicted = eldest.next().getValue();
            eldest.remove();
            evicted.close();
        }
    }

    /** @return the text's first lines, and how many more there are */
    private static String firstLines(String text, int lines) {
        String[] all = text.split("\n", -1);
        if (all.length <= lines) {
            return text;
        }
        return String.join("\n", Arrays.asList(all).subList(0, lines)) + "\n  ... " + (all.length - lines) + " more lines";
    }

    /** @return the kernels the generator declined, each with the reason; call under the lock */
    List<String> interpreted() {
        List<String> found = new ArrayList<>();
        kernels.forEach((kernel, entry) -> {
            if (entry.isInterpreted()) {
                found.add(entry.interpretedBecause() + ":\n" + kernel);
            }
        });
        return found;
    }

    /** @return the number of programs compiled and held; call under the lock */
    int programCount() {
        return programs.size();
    }

    /** @return the number of kernels known; call under the lock */
    int kernelCount() {
        return kernels.size();
    }

    /** Releases every program and parameter table; call under the lock. */
    @Override
    public void close() {
        kernels.values().forEach(KernelEntry::close);
        kernels.clear();
        programs.close();
    }
}
