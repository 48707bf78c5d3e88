package dev.ein4j.cpu;

import dev.ein4j.backend.Backend;
import dev.ein4j.backend.BackendCapabilities;
import dev.ein4j.backend.DeviceBuffer;
import dev.ein4j.backend.KernelCall;
import dev.ein4j.cpu.gemm.Gemm;
import dev.ein4j.cpu.tile.Copies;
import dev.ein4j.cpu.tile.RowBlocks;
import dev.ein4j.cpu.tile.TileKernels;
import dev.ein4j.cpu.tile.TileOps;
import dev.ein4j.error.EinopsException;
import dev.ein4j.ir.DType;
import dev.ein4j.kernel.HostData;
import dev.ein4j.kernel.Kernel;
import dev.ein4j.kernel.Parameters;
import dev.ein4j.kernel.KernelInterpreter;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The fast CPU backend: elementwise and reduce kernels evaluated tile by tile (Vector API loops
 * when {@code jdk.incubator.vector} is loaded, plain loops otherwise), contractions on a packed,
 * cache-blocked GEMM, all on one shared {@link WorkerPool}; buffers are typed Java arrays (float32
 * as float[]) recycled by size class, so steady-state training allocates nothing. Kernels it has no
 * fast path for (integer contractions) run on the {@link KernelInterpreter}. Synchronous.
 */
public final class CpuBackend implements Backend {

    /** The name of this backend. */
    public static final String NAME = "cpu";
    /**
     * The system property that sets the bytes of buffers the backend may hold at once ({@code 512m},
     * {@code 4g}, or a number of bytes); by default the Java heap's maximum.
     */
    public static final String MEMORY_PROPERTY = "ein4j.cpu.memory";

    private final BackendCapabilities capabilities = BackendCapabilities.heap(configuredMemory());
    private final BufferPool pool = new BufferPool(Runtime.getRuntime().maxMemory() / 4, capabilities.memoryBytes());
    private final WorkerPool workers = WorkerPool.shared();
    private final TileKernels tiles = new TileKernels(TileOps.get(), workers);
    private final RowBlocks rowBlocks = new RowBlocks(TileOps.get(), workers);
    private final Copies copies = new Copies(workers);
    private final ContractRunner contractions = new ContractRunner(Gemm.get(), tiles, pool);
    private final ReductionRewrites reductions = new ReductionRewrites();

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public BackendCapabilities capabilities() {
        return capabilities;
    }

    private static long configuredMemory() {
        String configured = System.getProperty(MEMORY_PROPERTY);
        if (configured == null || configured.isBlank()) {
            return Runtime.getRuntime().maxMemory();
        }
        String text = configured.trim().toLowerCase(java.util.Locale.ROOT);
        long unit = switch (text.charAt(text.length() - 1)) {
            case 'k' -> 1L << 10;
            case 'm' -> 1L << 20;
            case 'g' -> 1L << 30;
            default -> 1;
        };
        try {
            return Math.multiplyExact(Long.parseLong(unit == 1 ? text : text.substring(0, text.length() - 1)), unit);
        } catch (NumberFormatException | ArithmeticException bad) {
            throw new EinopsException("-D" + MEMORY_PROPERTY + "=" + configured + " is not a size (bytes, or a number with k, m or g)");
        }
    }

    /** @return "vector" when the Vector API runs the loops, "scalar" otherwise */
    public String vectorization() {
        return TileOps.get().kind();
    }

    /** @return the number of worker threads */
    public int threads() {
        return workers.parallelism();
    }

    /** @return arrays allocated fresh since the backend was made (not served from the pool) */
    public long freshAllocations() {
        return pool.allocations();
    }

    /** @return how many runs of row-local kernels were executed block by block ({@link RowBlocks}) */
    public long rowBlockRuns() {
        return rowBlocks.runs();
    }

    @Override
    public DeviceBuffer allocate(DType dtype, long size) {
        if (size < 0 || size > capabilities.maxBufferElements()) {
            throw new EinopsException("cpu backend: cannot allocate " + size + " elements");
        }
        return new CpuBuffer(pool.take(dtype, (int) size));
    }

    @Override
    public void write(DeviceBuffer target, HostData data) {
        HostData buffer = live(target).data;
        if (data.length() != buffer.length()) {
            throw new EinopsException("cpu backend: writing " + data.length() + " elements into a buffer of " + buffer.length());
        }
        if (data.dtype() == buffer.dtype()) {
            buffer.copyFrom(data, 0, 0, data.length());
        } else {
            for (int i = 0; i < data.length(); i++) {
                buffer.set(i, data.get(i));
            }
        }
    }

    @Override
    public HostData read(DeviceBuffer source) {
        HostData data = live(source).data;
        HostData copy = HostData.allocate(data.dtype(), data.length());
        copy.copyFrom(data, 0, 0, data.length());
        return copy;
    }

    @Override
    public void trim() {
        pool.trim();
    }

    @Override
    public void execute(Kernel kernel, List<DeviceBuffer> outputs, List<DeviceBuffer> inputs, Parameters parameters) {
        List<HostData> out = data(outputs);
        List<HostData> arrays = data(inputs);
        long start = TRACE ? System.nanoTime() : 0;
        String path;
        if (kernel.isIndexed()) {
            // gathers and scatters: the interpreter for now (an embedding lookup is small beside the products around it)
            KernelInterpreter.run(kernel, out, arrays, parameters);
            path = "interpreter";
        } else if (kernel.kind() == Kernel.Kind.CONTRACT) {
            if (ContractRunner.supports(kernel)) {
                contractions.run(kernel, out.get(0), arrays, parameters);
                path = "gemm";
            } else {
                KernelInterpreter.run(kernel, out, arrays, parameters);
                path = "interpreter";
            }
        } else if (Copies.supports(kernel)) {
            copies.run(kernel, out.get(0), arrays);
            path = "copy";
        } else {
            tiles.run(reductions.runnable(kernel), out, arrays, parameters);
            path = "tiles";
        }
        if (TRACE) {
            System.err.printf("ein4j.cpu.trace %8.3f ms  %-11s %-11s %s%n", (System.nanoTime() - start) / 1e6, path,
                    kernel.kind().name().toLowerCase(java.util.Locale.ROOT),
                    java.util.Arrays.toString(kernel.outputShape()) + " <- " + inputs.size() + " inputs, " + kernel.size()
                            + " instructions");
            traceProgram(kernel);
        }
    }

    /**
     * Runs the calls block by block over their rows ({@link RowBlocks}) where their buffers do not fit
     * in L2 together, else one by one.
     */
    @Override
    public void executeRowBlocks(List<KernelCall> calls, long rows) {
        List<Kernel> kernels = new ArrayList<>(calls.size());
        List<List<HostData>> outputs = new ArrayList<>(calls.size());
        List<List<HostData>> inputs = new ArrayList<>(calls.size());
        List<Parameters> parameters = new ArrayList<>(calls.size());
        for (KernelCall call : calls) {
            Kernel kernel = call.kernel();
            if (Copies.supports(kernel)) {
                Backend.super.executeRowBlocks(calls, rows); // a copy has loops of its own (transposes in tiles)
                return;
            }
            kernels.add(reductions.runnable(kernel));
            outputs.add(data(call.outputs()));
            inputs.add(data(call.inputs()));
            parameters.add(call.parameters());
        }
        long start = TRACE ? System.nanoTime() : 0;
        if (!RowBlocks.supports(kernels) || !rowBlocks.run(kernels, outputs, inputs, parameters, rows)) {
            Backend.super.executeRowBlocks(calls, rows);
            return;
        }
        if (TRACE) {
            System.err.printf("ein4j.cpu.trace %8.3f ms  %-11s %-11s %s%n", (System.nanoTime() - start) / 1e6, "rows",
                    kernels.size() + " kernels", rows + " rows <- " + kernels.get(0).outputShape().length + "-d");
            calls.forEach(call -> traceProgram(call.kernel()));
        }
    }

    private static List<HostData> data(List<DeviceBuffer> buffers) {
        List<HostData> data = new ArrayList<>(buffers.size());
        for (DeviceBuffer buffer : buffers) {
            data.add(live(buffer).data);
        }
        return data;
    }

    /**
     * {@code -Dein4j.cpu.trace=true}: one line per kernel on stderr (time, path, kind, shape);
     * {@code -Dein4j.cpu.trace=programs} adds each kernel's program the first time it runs.
     */
    private static final String TRACE_MODE = System.getProperty("ein4j.cpu.trace", "false");
    private static final boolean TRACE = TRACE_MODE.equals("true") || TRACE_MODE.equals("programs");
    private static final Set<Kernel> TRACED_PROGRAMS = ConcurrentHashMap.newKeySet();

    private static void traceProgram(Kernel kernel) {
        if (TRACE_MODE.equals("programs") && TRACED_PROGRAMS.add(kernel)) {
            System.err.println(kernel.toString().indent(16).stripTrailing());
        }
    }

    @Override
    public void release(DeviceBuffer buffer) {
        CpuBuffer cpu = own(buffer);
        if (cpu.released) {
            return;
        }
        cpu.released = true;
        pool.give(cpu.data);
    }

    private static CpuBuffer live(DeviceBuffer buffer) {
        CpuBuffer cpu = own(buffer);
        if (cpu.released) {
            throw new IllegalStateException("cpu backend: use of a released buffer " + cpu);
        }
        return cpu;
    }

    private static CpuBuffer own(DeviceBuffer buffer) {
        if (buffer instanceof CpuBuffer cpu) {
            return cpu;
        }
        throw new EinopsException("cpu backend was handed a buffer of another backend: " + buffer);
    }
}
