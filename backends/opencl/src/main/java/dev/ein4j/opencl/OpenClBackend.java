package dev.ein4j.opencl;

import dev.ein4j.backend.Backend;
import dev.ein4j.backend.BackendCapabilities;
import dev.ein4j.backend.DeviceBuffer;
import dev.ein4j.backend.DeviceMemoryException;
import dev.ein4j.error.EinopsException;
import dev.ein4j.ir.DType;
import dev.ein4j.kernel.HostData;
import dev.ein4j.kernel.Instruction;
import dev.ein4j.kernel.Kernel;
import dev.ein4j.kernel.Parameters;
import dev.ein4j.opencl.codegen.DeviceLimits;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import org.jocl.CLException;

/**
 * The OpenCL backend: buffers are {@code cl_mem} objects on one device, and every kernel is
 * compiled to OpenCL C ({@link dev.ein4j.opencl.codegen.KernelPlanner}). Submissions are
 * asynchronous on one in-order queue; reads are the synchronisation points. Types: float32, int32,
 * bool (bytes 0/1), and float64 where the device has cl_khr_fp64.
 *
 * <p>Compiled code is cached in two tiers: a kernel's first runs use parameterised code (lengths,
 * strides and constants read from a small table), one program per kernel <em>structure</em>, so
 * kernels differing only in shapes share it; from run number {@value #DEFAULT_SPECIALIZE_AFTER} of
 * a kernel on (the system property {@value #SPECIALIZE_PROPERTY}; 1 bakes from the first run, 0
 * never) it gets a program of its own with every number baked in. A launch's CONST values and RAND
 * seeds ({@link Parameters}) are kernel arguments in both forms, so a training step whose numbers
 * change every step (Adam's bias corrections) runs the same programs every step. A kernel the
 * generator declines runs on the {@link dev.ein4j.kernel.KernelInterpreter} over copies of its
 * buffers ({@link #interpretedRuns()} counts these, and each such kernel is named once on stderr;
 * the generator declines only what {@link dev.ein4j.opencl.codegen} lists). Gathers and scatters
 * are generated: a launch of a kernel that reads or writes at indices waits for the device, to
 * throw the interpreter's {@link dev.ein4j.error.IndexOutOfRangeException} for a bad index.
 *
 * <p>Memory: buffers are recycled by a pool (released {@code cl_mem} kept by size for the next
 * allocation, up to a quarter of the memory limit), so steady-state training creates nothing on the
 * device; {@link #trim()} gives the pooled memory back. The limit is CL_DEVICE_GLOBAL_MEM_SIZE, or
 * less with {@value #MEMORY_PROPERTY}; past it, or when the device has no room, {@link #allocate}
 * throws the SPI's {@link DeviceMemoryException}. The backend lives as long as the JVM when made by
 * {@link dev.ein4j.backend.Backends}; {@link #close()} releases its device resources when it was
 * made by hand.
 */
public final class OpenClBackend implements Backend, AutoCloseable {

    /** The name of this backend. */
    public static final String NAME = "opencl";

    /** The system property giving the run from which a kernel gets code with its numbers baked in. */
    public static final String SPECIALIZE_PROPERTY = "ein4j.opencl.specializeAfter";
    /** Its default: a kernel's third run, so that one-off kernels share parameterised programs. */
    public static final int DEFAULT_SPECIALIZE_AFTER = 3;
    /**
     * The system property that caps the bytes of buffers the backend holds at once ({@code 512m},
     * {@code 4g}, or a number of bytes); by default the device's global memory.
     */
    public static final String MEMORY_PROPERTY = "ein4j.opencl.memory";

    private final DeviceQueue queue;
    private final BufferPool pool;
    private final ProgramBuilder builder;
    private final KernelRunner runner;
    private final AtomicLong compiledRuns = new AtomicLong();
    private final AtomicLong interpretedRuns = new AtomicLong();
    private final Set<DType> types;
    private final long maxBufferElements;
    private volatile BackendCapabilities capabilities;

    /**
     * @param device the device to run on
     */
    OpenClBackend(DeviceInfo device) {
        this(device, Integer.getInteger(SPECIALIZE_PROPERTY, DEFAULT_SPECIALIZE_AFTER),
                MemorySize.parse(MEMORY_PROPERTY, System.getProperty(MEMORY_PROPERTY), Long.MAX_VALUE));
    }

    /**
     * @param device the device to run on
     * @param specializeAfter the run from which a kernel gets baked code (1: from the first; 0: never)
     * @param memoryCap the most bytes of buffers to hold (Long.MAX_VALUE: the device's global memory)
     */
    OpenClBackend(DeviceInfo device, int specializeAfter, long memoryCap) {
        this.queue = DeviceQueue.open(device);
        this.types = EnumSet.of(DType.FLOAT32, DType.INT32, DType.BOOL);
        if (device.fp64()) {
            types.add(DType.FLOAT64);
        }
        // one limit for every type: the widest element decides, and host arrays must hold the buffer
        long widest = device.fp64() ? 8 : 4;
        this.maxBufferElements = Math.min(BackendCapabilities.HEAP_ARRAY_LIMIT, device.maxAllocation() / widest);
        long memory = Math.min(device.globalMemory(), memoryCap);
        this.capabilities = new BackendCapabilities(types, maxBufferElements, true, memory);
        this.pool = new BufferPool(queue.context(), memory, memory / 4);
        this.builder = new ProgramBuilder(queue);
        this.runner = new KernelRunner(queue, pool, builder, new DeviceLimits(device.fp64(), device.fma(),
                device.maxWorkGroupSize(), device.localMemory(), device.computeUnits(), device.maxParameterBytes(), device.int64Atomics()),
                specializeAfter);
        System.err.println("ein4j: opencl backend on " + device.describe());
    }

    /**
     * Opens the backend on the device chosen by {@link DeviceSelector} (the {@code ein4j.opencl.device}
     * property or {@code EIN4J_OPENCL_DEVICE}, else a GPU first).
     *
     * @return a new backend
     * @throws EinopsException if no device is usable
     */
    public static OpenClBackend open() {
        DeviceSelector.Selection selection = DeviceSelector.select();
        if (selection.device() == null) {
            throw new EinopsException("opencl backend: " + selection.problem());
        }
        return new OpenClBackend(selection.device());
    }

    @Override
    public String name() {
        return NAME;
    }

    /** @return the device this backend runs on, in words */
    public String device() {
        return queue.device().describe();
    }

    /** @return whether the device is a GPU or an accelerator (rather than a CPU such as PoCL's) */
    public boolean isGpu() {
        return queue.device().isGpuOrAccelerator();
    }

    @Override
    public BackendCapabilities capabilities() {
        return capabilities;
    }

    @Override
    public DeviceBuffer allocate(DType dtype, long size) {
        requireType(dtype);
        if (size < 0 || size > capabilities.maxBufferElements()) {
            throw new EinopsException("opencl backend: cannot allocate " + size + " " + dtype.numpyName() + " elements on "
                    + queue.device().deviceName() + " (at most " + capabilities.maxBufferElements() + ")");
        }
        try {
            return pool.allocate(dtype, size);
        } catch (CLException failure) {
            if (ClErrors.isOutOfMemory(failure.getStatus())) {
                throw new DeviceMemoryException("opencl backend: the device has no room for " + size + " " + dtype.numpyName()
                        + " elements", failure);
            }
            throw ClErrors.translate(failure, "allocate");
        }
    }

    @Override
    public void trim() {
        pool.trim();
    }

    @Override
    public void write(DeviceBuffer target, HostData data) {
        OpenClBuffer buffer = own(target);
        if (data.length() != buffer.size()) {
            throw new EinopsException("opencl backend: writing " + data.length() + " elements into a buffer of " + buffer.size());
        }
        try {
            queue.write(buffer, HostArrays.convert(data, buffer.dtype()));
        } catch (CLException failure) {
            throw ClErrors.translate(failure, "write");
        }
    }

    @Override
    public HostData read(DeviceBuffer source) {
        try {
            return queue.read(own(source));
        } catch (CLException failure) {
            throw ClErrors.translate(failure, "read");
        }
    }

    @Override
    public void execute(Kernel kernel, List<DeviceBuffer> outputs, List<DeviceBuffer> inputs, Parameters parameters) {
        Objects.requireNonNull(parameters, "parameters");
        List<OpenClBuffer> outs = new ArrayList<>(outputs.size());
        for (DeviceBuffer output : outputs) {
            outs.add(own(output));
        }
        List<OpenClBuffer> in = new ArrayList<>(inputs.size());
        for (DeviceBuffer input : inputs) {
            in.add(own(input));
        }
        for (Instruction instruction : kernel.instructions()) {
            requireType(instruction.dtype());
        }
        checkBuffers(kernel, outs, in, parameters);
        if (kernel.outputSize() == 0) {
            return;
        }
        try {
            if (runner.launch(kernel, outs, in, parameters)) {
                compiledRuns.incrementAndGet();
                queue.flush();
            } else {
                interpretedRuns.incrementAndGet();
                InterpreterFallback.run(queue, kernel, outs, in, parameters);
            }
        } catch (CLException failure) {
            throw ClErrors.translate(failure, "execute");
        }
    }

    @Override
    public boolean requiresRelease() {
        return true;
    }

    @Override
    public void release(DeviceBuffer buffer) {
        own(buffer).close();
    }

    @Override
    public void synchronize() {
        queue.finish();
    }

    /** @return kernel launches that ran compiled code */
    public long compiledRuns() {
        return compiledRuns.get();
    }

    /** @return kernel launches that ran on the interpreter */
    public long interpretedRuns() {
        return interpretedRuns.get();
    }

    /** @return the kernels the generator declined, each with the reason (empty when every kernel compiled) */
    public List<String> interpretedKernels() {
        queue.lock().lock();
        try {
            return runner.interpreted();
        } finally {
            queue.lock().unlock();
        }
    }

    /** @return the {@code cl_mem} objects this backend has created so far (not counting reuses of pooled ones) */
    public long createdBuffers() {
        return pool.created();
    }

    /** @return allocations served by a pooled {@code cl_mem} so far */
    public long reusedBuffers() {
        return pool.reused();
    }

    /** @return the bytes of released buffers kept for reuse */
    long pooledBytes() {
        return pool.pooledBytes();
    }

    /** @return the bytes of every {@code cl_mem} this backend holds, handed out or pooled */
    public long heldBytes() {
        return pool.liveBytes();
    }

    /**
     * Lowers (or raises) the memory limit, as {@value #MEMORY_PROPERTY} does at start; for tests of
     * what happens when the device is full.
     *
     * @param bytes the most bytes of buffers to hold
     */
    void limitMemory(long bytes) {
        pool.limit(bytes);
        capabilities = new BackendCapabilities(types, maxBufferElements, true, bytes);
    }

    /** @return asynchronous writes whose host copy is still held (none after a read or synchronize) */
    int pendingWrites() {
        return queue.pendingWrites();
    }

    /** @return the number of compiled programs held (shared by kernels of one structure) */
    public int cachedPrograms() {
        queue.lock().lock();
        try {
            return runner.programCount();
        } finally {
            queue.lock().unlock();
        }
    }

    /** @return the number of distinct kernels seen and remembered */
    public int knownKernels() {
        queue.lock().lock();
        try {
            return runner.kernelCount();
        } finally {
            queue.lock().unlock();
        }
    }

    /**
     * Compiles a complete OpenCL C program on this backend's device (a diagnostic: the generated
     * programs go through the same builder).
     *
     * @param source the program
     * @param kernelName a kernel function in it
     * @throws EinopsException with the build log and the source if it does not compile
     */
    public void compile(String source, String kernelName) {
        builder.build(source, kernelName).close();
    }

    /**
     * Waits for the device, then releases the compiled programs, the pooled buffers, the queue and
     * the context. Buffers still held stay valid until released.
     */
    @Override
    public void close() {
        queue.lock().lock();
        try {
            runner.close();
        } finally {
            queue.lock().unlock();
        }
        pool.close();
        queue.close();
    }

    /** The generated code trusts the buffers' types and sizes; a mismatch is caught here, not as a device fault. */
    private static void checkBuffers(Kernel kernel, List<OpenClBuffer> outs, List<OpenClBuffer> in, Parameters parameters) {
        if (parameters.size() < kernel.parameterCount()) {
            throw new EinopsException("opencl backend: a kernel reading " + kernel.parameterCount() + " parameters was given "
                    + parameters.size());
        }
        if (outs.size() != kernel.outputCount()) {
            throw new EinopsException("opencl backend: a kernel of " + kernel.outputCount() + " outputs was given " + outs.size());
        }
        for (int k = 0; k < outs.size(); k++) {
            OpenClBuffer out = outs.get(k);
            if (out.dtype() != kernel.outputType(k) || out.size() != kernel.outputSize()) {
                throw new EinopsException("opencl backend: a kernel writing " + kernel.outputType(k).numpyName() + "["
                        + kernel.outputSize() + "] was given the output " + out);
            }
        }
        if (in.size() != kernel.inputCount()) {
            throw new EinopsException("opencl backend: a kernel of " + kernel.inputCount() + " inputs was given " + in.size());
        }
        for (int slot = 0; slot < in.size(); slot++) {
            if (in.get(slot).dtype() != kernel.inputType(slot)) {
                throw new EinopsException("opencl backend: input " + slot + " should be " + kernel.inputType(slot).numpyName()
                        + ", not " + in.get(slot));
            }
        }
    }

    private void requireType(DType dtype) {
        if (!capabilities.supports(dtype)) {
            throw new EinopsException("opencl backend: device " + queue.device().deviceName() + " does not support "
                    + dtype.numpyName() + " (no cl_khr_fp64)");
        }
    }

    private static OpenClBuffer own(DeviceBuffer buffer) {
        if (buffer instanceof OpenClBuffer opencl) {
            return opencl;
        }
        throw new EinopsException("opencl backend was handed a buffer of another backend: " + buffer);
    }
}
