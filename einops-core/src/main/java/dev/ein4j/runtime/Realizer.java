package dev.ein4j.runtime;

import dev.ein4j.backend.Backend;
import dev.ein4j.backend.BackendCapabilities;
import dev.ein4j.backend.Backends;
import dev.ein4j.backend.DeviceBuffer;
import dev.ein4j.error.EinopsException;
import dev.ein4j.error.ShapeException;
import dev.ein4j.ir.DType;
import dev.ein4j.ir.GraphOrder;
import dev.ein4j.ir.Node;
import dev.ein4j.ir.Op;
import dev.ein4j.ir.Shapes;
import dev.ein4j.ir.View;
import dev.ein4j.kernel.HostData;
import dev.ein4j.kernel.Instruction;
import dev.ein4j.kernel.Kernel;
import dev.ein4j.runtime.Schedule.Launch;
import dev.ein4j.runtime.Schedule.Origin;
import dev.ein4j.runtime.Schedule.Value;
import java.util.ArrayList;
import java.util.Collection;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * Computes nodes: schedules the unrealized part of the graph into kernels ({@link Scheduler},
 * {@link ScheduleBuilder}), checks that the backend can hold every buffer before anything runs,
 * then submits the kernels in order, reusing buffers by liveness ({@link MemoryPlanner}) and
 * releasing each intermediate once its last reader is submitted. Only requested nodes keep results.
 */
public final class Realizer {

    private Realizer() {
    }

    /**
     * Computes the given nodes (those not yet computed) in one pass, sharing common subgraphs, and
     * keeps each result for its node.
     *
     * @param nodes the nodes to compute
     * @throws ShapeException if a buffer the computation needs exceeds the backend's largest buffer
     */
    public static void realize(Collection<Node> nodes) {
        List<Node> wanted = pending(nodes);
        if (wanted.isEmpty()) {
            return;
        }
        Backend backend = chooseBackend(wanted);
        run(ScheduleBuilder.build(wanted, backend), backend);
    }

    /**
     * @param nodes nodes to compute
     * @return the kernels their realization would run, with each kernel's inputs, output and size (nothing runs)
     */
    public static String explain(Collection<Node> nodes) {
        List<Node> wanted = pending(nodes);
        if (wanted.isEmpty()) {
            return "0 kernels: already computed";
        }
        return ScheduleBuilder.build(wanted, chooseBackend(wanted)).explain();
    }

    /**
     * Reads a node's elements in row-major order (a synchronisation point).
     *
     * @param node a node
     * @return its elements, in its type
     */
    public static HostData read(Node node) {
        realize(List.of(node));
        Realized data = Results.get(node);
        Backend owner = data.storage().backend();
        if (data.isCompact()) {
            return owner.read(data.storage().buffer());
        }
        checkBuffer(owner, node.dtype(), node.shape(), "read");
        DeviceBuffer compact = owner.allocate(node.dtype(), node.size());
        try {
            owner.execute(Kernel.copy(node.dtype(), data.view(), node.dtype()), compact, List.of(data.storage().buffer()));
            return owner.read(compact);
        } finally {
            owner.release(compact);
        }
    }

    /**
     * Writes a value into a computed tensor's own buffer (an in-place update: optimizers use it so
     * that a training step allocates nothing). When the value's last kernel is elementwise and
     * reads the target only element for element, that kernel writes the target directly; otherwise
     * the value is computed aside and copied in. The value itself is not kept.
     *
     * @param target a computed node whose data is one compact buffer
     * @param value a node of the same shape and type, on the same backend
     * @throws EinopsException if the target is not such a node
     */
    public static void assign(Node target, Node value) {
        Realized data = Results.get(target);
        if (data == null || !data.isCompact()) {
            throw new EinopsException("assign needs a tensor with its own compact buffer; this one is a view (broadcast, "
                    + "strided or part of a larger buffer): assign to x.contiguous().realize() instead");
        }
        Backend backend = data.storage().backend();
        Realized computed = Results.get(value);
        Schedule schedule;
        Value result;
        if (computed != null) {
            schedule = new Schedule();
            Value source = schedule.newValue(Origin.EXISTING, value.dtype(), value.shape(), computed);
            result = schedule.launch(Kernel.copy(value.dtype(), computed.view(), value.dtype()), value.shape(),
                    List.of(source)).output();
        } else {
            schedule = ScheduleBuilder.build(List.of(value), backend);
            Schedule.Binding binding = schedule.bindings.get(0);
            schedule.bindings.clear();
            binding.value().pinned = false;
            result = binding.value();
            if (!binding.view().isContiguous() || binding.value().size != value.size()) {
                result = schedule.launch(Kernel.copy(value.dtype(), binding.view(), value.dtype()), value.shape(),
                        List.of(result)).output();
            }
        }
        if (!writesInPlace(schedule, result, data.storage())) {
            result = schedule.launch(Kernel.copy(value.dtype(), View.contiguous(value.shape()), value.dtype()),
                    value.shape(), List.of(result)).output();
        }
        result.into = data.storage();
        run(schedule, backend);
    }

    /**
     * Whether the last launch, which computes the result, may write the target directly: it must
     * be elementwise and read the target, if at all, only at the element it writes.
     */
    private static boolean writesInPlace(Schedule schedule, Value result, Storage target) {
        if (schedule.launches.isEmpty()) {
            return false;
        }
        Launch last = schedule.launches.get(schedule.launches.size() - 1);
        if (last.output() != result || result.lastUse >= 0 || last.kernel().kind() != Kernel.Kind.ELEMENTWISE) {
            return false;
        }
        View whole = View.contiguous(last.kernel().outputShape());
        for (Instruction instruction : last.kernel().instructions()) {
            if (instruction.isLoad()) {
                Value input = last.inputs().get(instruction.input());
                boolean readsTarget = input.existing != null && input.existing.storage() == target;
                if (readsTarget && !instruction.view().equals(whole)) {
                    return false;
                }
            }
        }
        return true;
    }

    /**
     * Makes a leaf holding a copy of host data on the current backend.
     *
     * @param data the elements in row-major order
     * @param shape the shape, holding exactly that many elements
     * @param requiresGrad whether the leaf collects gradients
     * @return the INPUT node
     */
    public static Node input(HostData data, int[] shape, boolean requiresGrad) {
        Backend backend = Backends.current();
        checkBuffer(backend, data.dtype(), shape, "input");
        Storage storage = Storage.allocate(backend, data.dtype(), data.length());
        backend.write(storage.buffer(), data);
        return leaf(new Realized(storage, View.contiguous(shape)), data.dtype(), requiresGrad);
    }

    /**
     * A new leaf over data that is already computed (shared, not copied).
     *
     * @param data the data
     * @param dtype its type
     * @param requiresGrad whether the leaf collects gradients
     * @return the INPUT node
     */
    public static Node leaf(Realized data, DType dtype, boolean requiresGrad) {
        Node node = new Node(Op.INPUT, dtype, data.view().shape(), null, requiresGrad);
        Results.bind(node, data);
        return node;
    }

    private static List<Node> pending(Collection<Node> nodes) {
        List<Node> wanted = new ArrayList<>();
        Map<Node, Boolean> seen = new IdentityHashMap<>();
        for (Node node : nodes) {
            if (!Results.isRealized(node) && seen.put(node, Boolean.TRUE) == null) {
                wanted.add(node);
            }
        }
        return wanted;
    }

    /** The backend where the graph's data lives (its first computed leaf), else the current one. */
    private static Backend chooseBackend(List<Node> wanted) {
        for (Node node : GraphOrder.postOrder(wanted, candidate -> !Results.isRealized(candidate))) {
            Realized data = Results.get(node);
            if (data != null) {
                return data.storage().backend();
            }
        }
        return Backends.current();
    }

    // ------------------------------------------------------------------ execution

    private static void run(Schedule schedule, Backend backend) {
        check(schedule, backend);
        MemoryPlanner planner = new MemoryPlanner(backend);
        Map<Value, DeviceBuffer> buffers = new IdentityHashMap<>();
        java.util.Set<DeviceBuffer> inUse = java.util.Collections.newSetFromMap(new IdentityHashMap<>());
        boolean done = false;
        try {
            for (Value value : schedule.values) {
                if (value.origin == Origin.EXISTING) {
                    buffers.put(value, value.existing.storage().buffer());
                } else if (value.origin == Origin.TRANSFERRED) {
                    DeviceBuffer local = planner.take(value.dtype, value.size);
                    inUse.add(local);
                    backend.write(local, readForeign(value.existing));
                    buffers.put(value, local);
                }
            }
            for (int i = 0; i < schedule.launches.size(); i++) {
                Launch launch = schedule.launches.get(i);
                Storage into = launch.output().into;
                DeviceBuffer output = into != null ? into.buffer() : planner.take(launch.output().dtype, launch.output().size);
                if (into == null) {
                    inUse.add(output);
                }
                buffers.put(launch.output(), output);
                backend.execute(launch.kernel(), output, launch.inputs().stream().map(buffers::get).toList());
                for (Value input : launch.inputs()) {
                    if (input.lastUse == i && !input.pinned && input.origin != Origin.EXISTING && input.into == null) {
                        DeviceBuffer finished = buffers.get(input);
                        inUse.remove(finished);
                        planner.giveBack(finished);
                    }
                }
            }
            Map<Value, Storage> storages = new IdentityHashMap<>();
            for (Schedule.Binding binding : schedule.bindings) {
                Value value = binding.value();
                Storage storage = value.origin == Origin.EXISTING ? value.existing.storage()
                        : storages.computeIfAbsent(value, v -> new Storage(backend, buffers.get(v)));
                Results.bind(binding.node(), new Realized(storage, binding.view()));
            }
            done = true;
        } finally {
            planner.releaseAll();
            if (!done) {
                inUse.forEach(backend::release); // a failed submission: nothing of this realization survives
            }
        }
    }

    /** Data of another backend, compact, on the host. */
    private static HostData readForeign(Realized foreign) {
        Backend owner = foreign.storage().backend();
        if (foreign.isCompact()) {
            return owner.read(foreign.storage().buffer());
        }
        DType dtype = foreign.storage().dtype();
        DeviceBuffer compact = owner.allocate(dtype, foreign.view().size());
        try {
            owner.execute(Kernel.copy(dtype, foreign.view(), dtype), compact, List.of(foreign.storage().buffer()));
            return owner.read(compact);
        } finally {
            owner.release(compact);
        }
    }

    /** Rejects, before anything runs, a buffer larger than the backend holds or a type it lacks. */
    private static void check(Schedule schedule, Backend backend) {
        for (Value value : schedule.values) {
            if (value.origin != Origin.EXISTING) {
                checkBuffer(backend, value.dtype, value.shape, "realize");
            }
        }
        BackendCapabilities capabilities = backend.capabilities();
        for (Launch launch : schedule.launches) {
            for (Instruction instruction : launch.kernel().instructions()) {
                if (!capabilities.supports(instruction.dtype())) {
                    throw unsupported(backend, instruction.dtype());
                }
            }
        }
    }

    private static void checkBuffer(Backend backend, DType dtype, int[] shape, String operation) {
        BackendCapabilities capabilities = backend.capabilities();
        if (!capabilities.supports(dtype)) {
            throw unsupported(backend, dtype);
        }
        long size = Shapes.size(shape);
        if (size > capabilities.maxBufferElements()) {
            throw new ShapeException(operation, List.of(Shapes.toLong(shape)), "a buffer of shape "
                    + java.util.Arrays.toString(shape) + " (" + size + " " + dtype.numpyName() + " elements) exceeds backend '"
                    + backend.name() + "', which holds at most " + capabilities.maxBufferElements() + " elements per buffer");
        }
    }

    private static EinopsException unsupported(Backend backend, DType dtype) {
        return new EinopsException("backend '" + backend.name() + "' does not support " + dtype.numpyName());
    }
}
