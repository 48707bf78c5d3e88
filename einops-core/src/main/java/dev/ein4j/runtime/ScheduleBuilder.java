package dev.ein4j.runtime;

import dev.ein4j.backend.Backend;
import dev.ein4j.ir.AxesArgument;
import dev.ein4j.ir.Node;
import dev.ein4j.ir.Op;
import dev.ein4j.ir.View;
import dev.ein4j.kernel.ContractSpec;
import dev.ein4j.kernel.Instruction;
import dev.ein4j.kernel.Kernel;
import dev.ein4j.kernel.Kernel.Segment;
import dev.ein4j.runtime.Schedule.Origin;
import dev.ein4j.runtime.Schedule.Value;
import dev.ein4j.runtime.Scheduler.Group;
import dev.ein4j.runtime.Scheduler.Instance;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Turns the {@link Scheduler}'s decisions into a {@link Schedule}: one kernel per group, its
 * program emitted from the group's outputs down to loads, generators and fused nodes, following the
 * source instances the scheduler recorded (an explicit stack, no recursion); movement folded into
 * the views. Where a chain of moves cannot be one strided view of a buffer, a copy kernel makes the
 * buffer compact first. The builder decides nothing about fusion; it only emits.
 */
final class ScheduleBuilder {

    /** A node's data during the build: a value read through a view. */
    private record Located(Value value, View view) {
    }

    private final Scheduler scheduler;
    private final GraphWalk walk;
    private final Backend backend;
    private final Schedule schedule = new Schedule();
    private final Map<Node, Located> located = new IdentityHashMap<>();

    private ScheduleBuilder(Scheduler scheduler, GraphWalk walk, Backend backend) {
        this.scheduler = scheduler;
        this.walk = walk;
        this.backend = backend;
    }

    /**
     * @param walk the walked graph
     * @param wanted the nodes to compute (none of them computed yet), in the walk's order of roots
     * @param assignTargets for an assignment, the leaf each wanted value is written into (same
     *     length as wanted); empty for a plain realization
     * @param backend the backend that will run the schedule
     * @param fusion whether nodes fuse into kernels
     * @return the schedule
     */
    static Schedule build(GraphWalk walk, List<Node> wanted, List<Node> assignTargets, Backend backend, boolean fusion) {
        ScheduleBuilder builder = new ScheduleBuilder(new Scheduler(walk, wanted, fusion), walk, backend);
        builder.locateLeaves();
        for (Group group : builder.scheduler.groups()) {
            builder.buildGroup(group);
        }
        if (assignTargets.isEmpty()) {
            builder.bind(wanted);
        } else {
            Assignments.plan(builder.schedule, builder.results(wanted), assignTargets, walk);
        }
        builder.bindExtras();
        builder.schedule.rowGroups = RowGroups.find(builder.schedule.launches);
        return builder.schedule;
    }

    private void locateLeaves() {
        for (int i = 0; i < walk.leaves.size(); i++) {
            Node node = walk.leaves.get(i);
            Realized data = walk.leafData.get(i);
            boolean local = data.storage().backend() == backend;
            int[] shape = local ? new int[] {(int) Math.min(Integer.MAX_VALUE, data.storage().buffer().size())} : node.shape();
            Value value = schedule.leaf(local ? Origin.LEAF : Origin.TRANSFERRED, node.dtype(), shape, i);
            located.put(node, new Located(value, local ? data.view() : View.contiguous(node.shape())));
        }
    }

    /** @return each wanted node's value and view, with the moves of requested views applied */
    private List<Assignments.Result> results(List<Node> wanted) {
        List<Assignments.Result> results = new ArrayList<>();
        for (Node node : wanted) {
            Located result = follow(located(scheduler.base(node)), scheduler.path(node));
            results.add(new Assignments.Result(walk.reference(node), result.value(), result.view()));
        }
        return results;
    }

    private void bind(List<Node> wanted) {
        for (Assignments.Result result : results(wanted)) {
            result.value().pinned = true;
            schedule.bindings.add(new Schedule.Binding(result.position(), result.value(), result.view()));
        }
    }

    /** Nodes kept besides the requested ones: random tensors on first use, RANDs read by several kernels. */
    private void bindExtras() {
        for (Node node : scheduler.extraBindings()) {
            Located result = located.get(node);
            if (result != null) {
                result.value().pinned = true;
                schedule.bindings.add(new Schedule.Binding(walk.reference(node), result.value(), result.view()));
            }
        }
    }

    private Located located(Node node) {
        Located result = located.get(node);
        if (result == null) {
            throw new IllegalStateException("no data for " + node);
        }
        return result;
    }

    /** Applies moves to a located value, copying it compact where a move cannot be a view. */
    private Located follow(Located start, List<Node> moves) {
        return follow(start, moves, null);
    }

    /**
     * Applies moves to a located value, launching a copy where a move cannot be a view
     * ({@link KernelSpace#follow}).
     *
     * @param space the kernel's finer space, or null for the moves' own shape
     */
    private Located follow(Located start, List<Node> moves, int[] space) {
        Value[] value = {start.value()};
        View view = KernelSpace.follow(start.view(), moves, space, copied -> value[0] = schedule.launch(
                Kernel.copy(value[0].dtype, copied, value[0].dtype), List.of(value[0])).outputs().get(0));
        if (view == null) {
            throw new IllegalStateException("a read that refinedSpace accepted cannot be reshaped to " + Arrays.toString(space));
        }
        return new Located(value[0], view);
    }

    /**
     * The finer space an elementwise kernel is iterated over when a read would otherwise need a copy
     * (see {@link KernelSpace}), or null: the root's shape serves, or the kernel is of another kind.
     */
    private int[] refinedSpace(Group group) {
        if (!group.reductions.isEmpty() || group.scalar || group.scatter) {
            return null;
        }
        List<View> starts = new ArrayList<>();
        List<List<Node>> paths = new ArrayList<>();
        List<View> generated = new ArrayList<>();
        Set<Key> seen = new HashSet<>();
        List<Instance> stack = new ArrayList<>();
        for (Node output : group.outputs) {
            stack.add(outputInstance(output));
        }
        while (!stack.isEmpty()) {
            Instance instance = stack.remove(stack.size() - 1);
            Node node = instance.node();
            if (!seen.add(Key.of(instance))) {
                continue;
            }
            if (node.op().group() == Op.Group.CREATION && !scheduler.isLeaf(node)
                    && (scheduler.isInlined(node) || scheduler.owner(node) == group)) {
                generated.add(generatorView(node, instance.access().moves()));
            } else if (!scheduler.computesIn(node, group)) {
                starts.add(located(node).view());
                paths.add(instance.access().moves());
            } else if (node.op() == Op.GATHER) {
                return null; // an indexed read keeps the axes of its own shape
            } else {
                stack.addAll(Arrays.asList(scheduler.sources(instance)));
            }
        }
        return KernelSpace.refined(group.root().shape(), starts, paths, generated);
    }

    /** A generator's virtual buffer read through moves (a generator's moves are always one view). */
    private static View generatorView(Node node, List<Node> moves) {
        View view = node.op() == Op.CONST ? View.broadcastScalar(node.shape()) : View.contiguous(node.shape());
        for (Node move : moves) {
            view = Access.apply(move, view);
        }
        return view;
    }

    // ------------------------------------------------------------------ one kernel

    /** An instruction's identity inside one kernel: the node, its segment and how it is read. */
    private record Key(Node node, Segment segment, Access access) {
        static Key of(Instance instance) {
            return new Key(instance.node(), instance.segment(), instance.access());
        }
    }

    private final class Emitter {
        final Group group;
        final List<Instruction> program = new ArrayList<>();
        final List<Value> slots = new ArrayList<>();
        final Map<Value, Integer> slotOf = new IdentityHashMap<>();
        final Map<Key, Integer> emitted = new HashMap<>();
        final Map<Map.Entry<Segment, Instruction>, Integer> distinct = new HashMap<>();
        final ParameterSlots parameters = new ParameterSlots();
        Segment segment = Segment.OUTPUT;
        /** The finer shape an elementwise kernel is iterated over ({@link #refinedSpace}), or null. */
        final int[] space;

        Emitter(Group group) {
            this(group, null);
        }

        Emitter(Group group, int[] space) {
            this.group = group;
            this.space = space;
        }

        /** Post-order emission of everything an output reads, by explicit stack. */
        int emit(Instance root) {
            List<Instance> stack = new ArrayList<>();
            stack.add(root);
            while (!stack.isEmpty()) {
                Instance instance = stack.get(stack.size() - 1);
                Key key = Key.of(instance);
                if (emitted.containsKey(key)) {
                    stack.remove(stack.size() - 1);
                    continue;
                }
                Instance[] sources = computes(instance.node()) ? emittedSources(instance) : new Instance[0];
                Instance pending = null;
                for (Instance source : sources) {
                    if (!emitted.containsKey(Key.of(source))) {
                        pending = source;
                        break;
                    }
                }
                if (pending != null) { // a DAG: a source is finished before its first reader resumes
                    stack.add(pending);
                    continue;
                }
                stack.remove(stack.size() - 1);
                emitted.put(key, emitOne(instance, sources));
            }
            return emitted.get(Key.of(root));
        }

        boolean computes(Node node) {
            return scheduler.computesIn(node, group);
        }

        /** The sources an instruction reads as values: all but a gather's source tensor, which it reads by index. */
        Instance[] emittedSources(Instance instance) {
            Instance[] sources = scheduler.sources(instance);
            return instance.node().op() == Op.GATHER ? new Instance[] {sources[1]} : sources;
        }

        int emitOne(Instance instance, Instance[] sources) {
            Node node = instance.node();
            segment = instance.segment();
            if (node.op().group() == Op.Group.CREATION && !scheduler.isLeaf(node)
                    && (scheduler.isInlined(node) || scheduler.owner(node) == group)) {
                return generator(node, instance.access().moves());
            }
            if (!computes(node)) {
                return load(node, instance.access().moves());
            }
            int[] inputs = new int[sources.length];
            for (int i = 0; i < sources.length; i++) {
                inputs[i] = emitted.get(Key.of(sources[i]));
            }
            int[] shape = space != null ? space : shapeOf(instance);
            if (node.op() == Op.GATHER) {
                return gather(node, scheduler.sources(instance)[0], shape, inputs[0]);
            }
            return switch (node.op().group()) {
                case GRAPH -> inputs[0]; // CONTIGUOUS: inside a kernel, its source's value
                case REDUCE -> add(Instruction.reduce(node.op(), node.dtype(), shape,
                        ((AxesArgument) node.argument()).axes(), inputs[0]));
                case CONTRACT -> contract(node, shape, inputs[0], inputs[1]);
                default -> add(Instruction.apply(node.op(), node.dtype(), shape, inputs));
            };
        }

        int load(Node node, List<Node> moves) {
            Located data = follow(located(node), moves, space);
            return add(Instruction.load(slot(data.value()), data.value().dtype, data.view()));
        }

        /** An indexed read of the source tensor's buffer, compact first if its view has padding. */
        int gather(Node node, Instance source, int[] shape, int index) {
            Located data = follow(located(source.node()), source.access().moves());
            if (data.view().hasMask()) {
                Value compact = schedule.launch(Kernel.copy(data.value().dtype, data.view(), data.value().dtype),
                        List.of(data.value())).outputs().get(0);
                data = new Located(compact, View.contiguous(data.view().shape()));
            }
            int axis = ((dev.ein4j.ir.GatherArgument) node.argument()).axis();
            int slot = slot(data.value());
            return add(Instruction.gather(slot, data.value().dtype, data.view().withShape(shape), axis,
                    data.view().shape()[axis], index));
        }

        int slot(Value value) {
            Integer slot = slotOf.get(value);
            if (slot == null) {
                slot = slots.size();
                slots.add(value);
                slotOf.put(value, slot);
            }
            return slot;
        }

        int generator(Node node, List<Node> moves) {
            View view = generatorView(node, moves);
            if (space != null) {
                view = view.reshape(space);
            }
            return add(Instruction.generate(node.op(), node.dtype(), view, parameters.of(node)));
        }

        /**
         * The contraction and its spec. A left or right operand that is a plain load is read in
         * place (its broadcast axes shrunk to length 1 so the spec sees them as absent); any
         * other operand is a prologue the backend evaluates compact first.
         */
        int contract(Node node, int[] shape, int left, int right) {
            narrowBroadcast(left);
            narrowBroadcast(right);
            Instruction leftOperand = program.get(left);
            Instruction rightOperand = program.get(right);
            ContractSpec spec = ContractSpec.of(node.source(0).shape(), leftOperand.shape(), rightOperand.shape(),
                    ((AxesArgument) node.argument()).axes(), operandView(leftOperand), operandView(rightOperand), node.dtype());
            return add(Instruction.contract(node.dtype(), shape, spec, left, right));
        }

        private View operandView(Instruction operand) {
            return operand.isLoad() && !operand.view().hasMask() ? operand.view() : View.contiguous(operand.shape());
        }

        private void narrowBroadcast(int index) {
            Instruction operand = program.get(index);
            if (!operand.isLoad() || operand.view().hasMask()) {
                return;
            }
            View view = operand.view();
            int[] starts = new int[view.rank()];
            int[] ends = view.shape();
            boolean narrowed = false;
            for (int a = 0; a < ends.length; a++) {
                if (view.stride(a) == 0 && ends[a] > 1) {
                    ends[a] = 1;
                    narrowed = true;
                }
            }
            if (narrowed) {
                program.set(index, Instruction.load(operand.input(), operand.dtype(), view.shrink(starts, ends)));
            }
        }

        /** Adds an instruction, or finds the same one already in this segment (common subexpressions). */
        int add(Instruction instruction) {
            return distinct.computeIfAbsent(Map.entry(segment, instruction), key -> {
                program.add(instruction);
                return program.size() - 1;
            });
        }

        int[] shapeOf(Instance instance) {
            View probe = instance.access().probe();
            if (probe != null) {
                return probe.shape();
            }
            List<Node> moves = instance.access().moves();
            return moves.isEmpty() ? instance.node().shape() : moves.get(moves.size() - 1).shape();
        }

        Kernel kernel(int[] outputs) {
            return new Kernel(slots.stream().map(value -> value.dtype).toList(), program, outputs);
        }
    }

    /** A kernel's parameter slots: each CONST or RAND node of the walk gets one, in order of first use. */
    private final class ParameterSlots {
        final Map<Integer, Integer> slotOfWalkParameter = new HashMap<>();
        final List<Integer> sources = new ArrayList<>();
        final List<Long> fixed = new ArrayList<>();

        int of(Node node) {
            if (node.op() == Op.IOTA) {
                return -1;
            }
            int walkParameter = walk.parameterIndex(node);
            return slotOfWalkParameter.computeIfAbsent(walkParameter, key -> {
                sources.add(key);
                fixed.add(0L);
                return sources.size() - 1;
            });
        }

        int[] sources() {
            return sources.stream().mapToInt(Integer::intValue).toArray();
        }

        long[] fixed() {
            return fixed.stream().mapToLong(Long::longValue).toArray();
        }
    }

    private void buildGroup(Group group) {
        if (group.scalar) {
            buildScalar(group);
            return;
        }
        if (group.scatter) {
            buildScatter(group);
            return;
        }
        Node root = group.root();
        if (root.op() == Op.CONST && group.outputs.size() == 1) { // a requested constant: one element, read through zero strides
            Emitter emitter = new Emitter(group);
            emitter.add(Instruction.constant(emitter.parameters.of(root), root.dtype(), View.contiguous(new int[0])));
            Value value = schedule.launch(emitter.kernel(new int[] {0}), List.of(), emitter.parameters.sources(),
                    emitter.parameters.fixed()).outputs().get(0);
            located.put(root, new Located(value, View.broadcastScalar(root.shape())));
            return;
        }
        Emitter emitter = new Emitter(group, refinedSpace(group));
        int[] outputs = new int[group.outputs.size()];
        for (int k = 0; k < outputs.length; k++) {
            outputs[k] = emitter.emit(outputInstance(group.outputs.get(k)));
        }
        if (outputs.length == 1 && emitter.program.size() == 1 && emitter.program.get(0).isLoad()) {
            Instruction load = emitter.program.get(0);
            Value source = emitter.slots.get(load.input());
            if (load.view().isContiguous() && source.size == root.size() && source.dtype == root.dtype()) {
                located.put(root, new Located(source, View.contiguous(root.shape()))); // already compact: shared
                return;
            }
        }
        outputs = Arrays.stream(outputs).distinct().toArray(); // a node and its compact copy are one instruction
        Kernel kernel = emitter.kernel(outputs);
        Schedule.Launch launch = schedule.launch(kernel, emitter.slots, emitter.parameters.sources(), emitter.parameters.fixed());
        for (int k = 0; k < group.outputs.size(); k++) {
            Node output = group.outputs.get(k);
            int position = indexOf(outputs, emitter.emitted.get(Key.of(outputInstance(output))));
            located.put(output, new Located(launch.outputs().get(position), View.contiguous(output.shape())));
        }
    }

    /** Where an output node is computed in its kernel: its own root instance, or its place in the reader. */
    private Instance outputInstance(Node output) {
        return scheduler.outputInstance(output);
    }

    private static int indexOf(int[] values, int value) {
        for (int i = 0; i < values.length; i++) {
            if (values[i] == value) {
                return i;
            }
        }
        throw new IllegalStateException("output not in the kernel");
    }

    /**
     * A scatter: its base copied into a new buffer, then one kernel computing the values and
     * positions and writing them there (an assignment to the base may later drop the copy and write
     * the base in place, see {@link Assignments}).
     */
    private void buildScatter(Group group) {
        Node root = group.root();
        Instance[] sources = scheduler.sources(outputInstance(root)); // base, index, values
        Located base = follow(located(sources[0].node()), sources[0].access().moves());
        Value target = schedule.launch(Kernel.copy(base.value().dtype, base.view(), root.dtype()), List.of(base.value()))
                .outputs().get(0);
        Emitter emitter = new Emitter(group);
        int values = emitter.emit(sources[2]);
        int positions = emitter.emit(sources[1]);
        dev.ein4j.ir.ScatterArgument argument = (dev.ein4j.ir.ScatterArgument) root.argument();
        emitter.segment = Segment.OUTPUT;
        int write = emitter.add(Instruction.scatter(root.dtype(), root.shape(), argument.axis(), argument.accumulate(), values,
                positions));
        schedule.launchInto(emitter.kernel(new int[] {write}), target, emitter.slots, emitter.parameters.sources(),
                emitter.parameters.fixed());
        located.put(root, new Located(target, View.contiguous(root.shape())));
    }

    /**
     * A constant expression computed as one element: its CONST generators and elementwise math at
     * shape [], read by everyone through a broadcast view (padding and windows included).
     */
    private void buildScalar(Group group) {
        Node root = group.root();
        Emitter emitter = new Emitter(group);
        Map<Node, Integer> done = new IdentityHashMap<>();
        List<Node> stack = new ArrayList<>();
        stack.add(root);
        int[] scalar = new int[0];
        while (!stack.isEmpty()) {
            Node node = stack.get(stack.size() - 1);
            if (done.containsKey(node)) {
                stack.remove(stack.size() - 1);
                continue;
            }
            Node pending = null;
            for (int i = 0; i < node.sourceCount() && pending == null; i++) {
                if (!done.containsKey(node.source(i))) {
                    pending = node.source(i);
                }
            }
            if (pending != null) {
                stack.add(pending);
                continue;
            }
            stack.remove(stack.size() - 1);
            int index;
            if (node.op() == Op.CONST) {
                index = emitter.add(Instruction.constant(emitter.parameters.of(node), node.dtype(), View.contiguous(scalar)));
            } else if (Scheduler.isTransparent(node) || node.op() == Op.CONTIGUOUS) {
                index = done.get(node.source(0)); // one value everywhere: movement changes nothing
            } else {
                int[] inputs = new int[node.sourceCount()];
                for (int i = 0; i < inputs.length; i++) {
                    inputs[i] = done.get(node.source(i));
                }
                index = emitter.add(Instruction.apply(node.op(), node.dtype(), scalar, inputs));
            }
            done.put(node, index);
        }
        int output = done.get(root);
        Value value = schedule.launch(emitter.kernel(new int[] {output}), List.of(), emitter.parameters.sources(),
                emitter.parameters.fixed()).outputs().get(0);
        located.put(root, new Located(value, View.broadcastScalar(root.shape())));
    }
}
