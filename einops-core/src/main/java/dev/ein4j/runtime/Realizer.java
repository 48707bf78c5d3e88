package dev.ein4j.runtime;

import dev.ein4j.backend.Backend;
import dev.ein4j.backend.BackendCapabilities;
import dev.ein4j.backend.Backends;
import dev.ein4j.backend.DeviceBuffer;
import dev.ein4j.error.ClosedTensorException;
import dev.ein4j.error.EinopsException;
import dev.ein4j.error.ShapeException;
import dev.ein4j.ir.DType;
import dev.ein4j.ir.Node;
import dev.ein4j.ir.Op;
import dev.ein4j.ir.Shapes;
import dev.ein4j.ir.View;
import dev.ein4j.kernel.HostData;
import dev.ein4j.kernel.Instruction;
import dev.ein4j.kernel.Kernel;
import dev.ein4j.kernel.Parameters;
import dev.ein4j.runtime.Schedule.Launch;
import dev.ein4j.runtime.Schedule.Origin;
import dev.ein4j.runtime.Schedule.Value;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Computes nodes. A realization walks the part of the graph without data ({@link GraphWalk}), looks
 * its {@link GraphWalk.Signature signature} up in the {@link ScheduleCache}, and on a miss schedules
 * it into kernels ({@link Scheduler}, {@link ScheduleBuilder}) and checks that the backend can hold
 * every buffer before anything runs; then the {@link Executor} submits the kernels in order with
 * this graph's buffers and numbers. Only requested nodes (and values computed once and kept) keep
 * results.
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
     * @throws ClosedTensorException if the computation needs a closed tensor's data
     */
    public static void realize(Collection<Node> nodes) {
        List<Node> wanted = pending(nodes);
        if (!wanted.isEmpty()) {
            run(wanted, List.of());
        }
    }

    // package-private for the test of a node another thread computes between the check and the walk
    static void run(List<Node> nodes, List<Node> assignTargets) {
        RuntimeContext context = RuntimeContext.global();
        boolean fusion = context.fusion();
        List<Node> wanted = new ArrayList<>(nodes);
        GraphWalk walk = walk(wanted, assignTargets, fusion);
        if (walk == null) {
            return;
        }
        try {
            Schedule schedule = schedule(walk, wanted, assignTargets, fusion, true);
            Executor.run(schedule, walk, walk.backend);
        } finally {
            walk.releaseLeaves();
        }
    }

    /**
     * Walks the graph of the wanted nodes. Another thread may compute a wanted node between the
     * caller's check and the walk, which then meets it as data; a plain realization drops such nodes
     * from {@code wanted} (in place) and walks again, until every root is computed by this walk.
     *
     * @return the walk, or null when every wanted node was computed meanwhile
     */
    private static GraphWalk walk(List<Node> wanted, List<Node> assignTargets, boolean fusion) {
        while (true) {
            GraphWalk walk = GraphWalk.of(wanted, assignTargets, fusion);
            if (!assignTargets.isEmpty() || !wanted.removeIf(node -> walk.reference(node) < 0)) {
                return walk; // an assignment copies a computed value; its roots may be data
            }
            walk.releaseLeaves();
            if (wanted.isEmpty()) {
                return null;
            }
        }
    }

    /** The cached schedule of the walk's signature, or a new one (cached when {@code store}). */
    private static Schedule schedule(GraphWalk walk, List<Node> wanted, List<Node> assignTargets, boolean fusion, boolean store) {
        RuntimeContext context = RuntimeContext.global();
        GraphWalk.Signature signature = context.caching() ? walk.signature() : null;
        ScheduleCache cache = signature != null ? context.cache(walk.backend) : null;
        Schedule schedule = cache != null ? cache.get(signature) : null;
        if (schedule != null) {
            if (store) {
                context.countHit();
            }
            return schedule;
        }
        schedule = ScheduleBuilder.build(walk, wanted, assignTargets, walk.backend, fusion);
        check(schedule, walk.backend);
        if (store) {
            context.countBuilt();
            if (cache != null) {
                cache.put(signature, schedule);
            }
        }
        return schedule;
    }

    /**
     * @param nodes nodes to compute
     * @return the kernels their realization would run, with each kernel's inputs, outputs, sizes and
     *     parameters, and whether the schedule would come from the cache (nothing runs)
     */
    public static String explain(Collection<Node> nodes) {
        List<Node> wanted = pending(nodes);
        if (wanted.isEmpty()) {
            return "0 kernels: already computed";
        }
        RuntimeContext context = RuntimeContext.global();
        wanted = new ArrayList<>(wanted);
        GraphWalk walk = walk(wanted, List.of(), context.fusion());
        if (walk == null) {
            return "0 kernels: already computed";
        }
        try {
            boolean cached = context.caching() && context.cache(walk.backend).get(walk.signature()) != null;
            Schedule schedule = schedule(walk, wanted, List.of(), context.fusion(), false);
            return schedule.explain(walk.parameters()) + "\nschedule: " + (cached
                    ? "from the cache (this structure was scheduled before; no scheduling work)"
                    : "new (scheduled now; cached when it runs, so the next graph of this structure replays it)");
        } finally {
            walk.releaseLeaves();
        }
    }

    /**
     * Reads a node's elements in row-major order (a synchronisation point).
     *
     * @param node a node
     * @return its elements, in its type
     * @throws ClosedTensorException if the node was closed
     */
    public static HostData read(Node node) {
        Lifetimes.requireOpen(node, "reading");
        Realized data = Lifetimes.viewOf(node); // a view of computed data is read in place, not kept
        if (data == null) {
            realize(List.of(node));
            data = Lifetimes.data(node);
        }
        if (data == null) {
            throw ClosedTensorException.of(node.dtype().numpyName(), node.shape(), "reading");
        }
        Storage storage;
        try {
            storage = data.storage().retain();
        } catch (IllegalStateException closedMeanwhile) {
            throw ClosedTensorException.of(node.dtype().numpyName(), node.shape(), "reading");
        }
        try {
            Backend owner = storage.backend();
            if (data.isCompact()) {
                return owner.read(storage.buffer());
            }
            checkBuffer(owner, node.dtype(), node.shape(), "read");
            DeviceBuffer compact = Allocation.allocate(owner, node.dtype(), node.size());
            try {
                owner.execute(Kernel.copy(node.dtype(), data.view(), node.dtype()), List.of(compact), List.of(storage.buffer()),
                        Parameters.NONE);
                return owner.read(compact);
            } finally {
                owner.release(compact);
            }
        } finally {
            storage.release();
        }
    }

    /**
     * Writes a value into a computed tensor's own buffer (an in-place update).
     *
     * @param target a computed node whose data is one compact buffer
     * @param value a node of the same shape and type, on the same backend
     * @throws EinopsException if the target is not such a node
     * @see #assign(List, List)
     */
    public static void assign(Node target, Node value) {
        assign(List.of(target), List.of(value));
    }

    /**
     * Writes values into computed tensors' own buffers, in one realization (an optimizer step: every
     * parameter and moment at once, so that a parameter's update and its moments are one kernel and
     * a step replays one schedule). Where the launch computing a value is elementwise and reads its
     * target only element for element, it writes the target directly; otherwise the value is computed
     * aside and copied in after every value has been computed, so each value sees the targets' old
     * contents. The values themselves are not kept.
     *
     * @param targets computed nodes whose data are compact buffers, pairwise distinct
     * @param values one node per target, of its shape and type, on the same backend
     * @throws EinopsException if a target is not such a node, or two targets share a buffer
     */
    public static void assign(List<Node> targets, List<Node> values) {
        if (targets.size() != values.size()) {
            throw new IllegalArgumentException(targets.size() + " targets for " + values.size() + " values");
        }
        Set<Storage> written = Collections.newSetFromMap(new IdentityHashMap<>());
        for (Node target : targets) {
            Lifetimes.requireOpen(target, "assign");
            Realized data = Lifetimes.data(target);
            if (data == null || !data.isCompact()) {
                throw new EinopsException("assign needs a tensor with its own compact buffer; this one is a view (broadcast, "
                        + "strided or part of a larger buffer): assign to x.contiguous().realize() instead");
            }
            if (!written.add(data.storage())) {
                throw new EinopsException("assign writes each buffer once; two of the targets share one "
                        + "(a tensor and a view of it, or the same tensor twice)");
            }
        }
        if (!targets.isEmpty()) {
            run(values, targets);
        }
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
        Storage storage = new Storage(backend, Allocation.allocate(backend, data.dtype(), data.length()));
        try {
            backend.write(storage.buffer(), data);
        } catch (RuntimeException failure) {
            storage.free();
            throw failure;
        }
        return leaf(new Realized(storage, View.contiguous(shape)), data.dtype(), requiresGrad);
    }

    /**
     * A new leaf over data that is already computed (shared, not copied), in this thread's scope.
     *
     * @param data the data
     * @param dtype its type
     * @param requiresGrad whether the leaf collects gradients
     * @return the INPUT node
     */
    public static Node leaf(Realized data, DType dtype, boolean requiresGrad) {
        Node node = Lifetimes.adopt(new Node(Op.INPUT, dtype, data.view().shape(), null, requiresGrad));
        Lifetimes.bind(node, data);
        return node;
    }

    private static List<Node> pending(Collection<Node> nodes) {
        List<Node> wanted = new ArrayList<>();
        Map<Node, Boolean> seen = new IdentityHashMap<>();
        for (Node node : nodes) {
            Lifetimes.requireOpen(node, "realize");
            if (Lifetimes.data(node) == null && seen.put(node, Boolean.TRUE) == null) {
                wanted.add(node);
            }
        }
        return wanted;
    }

    /** Rejects, before anything runs, a buffer larger than the backend holds or a type it lacks. */
    private static void check(Schedule schedule, Backend backend) {
        for (Value value : schedule.values) {
            if (value.origin != Origin.LEAF) {
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

    static void checkBuffer(Backend backend, DType dtype, int[] shape, String operation) {
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
