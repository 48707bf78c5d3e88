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
import dev.ein4j.runtime.Scheduler.Decision;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * Turns the {@link Scheduler}'s decisions into a {@link Schedule}: one kernel per group, its
 * program emitted from the group's root down to loads, generators and fused nodes (an explicit
 * stack, no recursion), movement folded into the views. Where a chain of moves cannot be one
 * strided view of a buffer, a copy kernel makes the buffer compact first.
 */
final class ScheduleBuilder {

    /** A node's data during the build: a value read through a view. */
    private record Located(Value value, View view) {
    }

    private final Scheduler scheduler;
    private final Backend backend;
    private final Schedule schedule = new Schedule();
    private final Map<Node, Located> located = new IdentityHashMap<>();

    private ScheduleBuilder(Scheduler scheduler, Backend backend) {
        this.scheduler = scheduler;
        this.backend = backend;
    }

    /**
     * @param wanted the nodes to compute (none of them computed yet)
     * @param backend the backend that will run the schedule
     * @return the schedule
     */
    static Schedule build(List<Node> wanted, Backend backend) {
        ScheduleBuilder builder = new ScheduleBuilder(new Scheduler(wanted), backend);
        builder.locateLeaves();
        for (Scheduler.Group group : builder.scheduler.groups()) {
            builder.buildGroup(group);
        }
        builder.bind(wanted);
        return builder.schedule;
    }

    private void locateLeaves() {
        for (Node node : scheduler.order()) {
            Realized data = scheduler.leafData(node);
            if (data != null) {
                boolean local = data.storage().backend() == backend;
                int[] shape = local ? new int[] {(int) Math.min(Integer.MAX_VALUE, data.storage().buffer().size())} : node.shape();
                Value value = schedule.newValue(local ? Origin.EXISTING : Origin.TRANSFERRED, node.dtype(), shape, data);
                located.put(node, new Located(value, local ? data.view() : View.contiguous(node.shape())));
            }
        }
    }

    private void bind(List<Node> wanted) {
        for (Node node : wanted) {
            Located result = located(scheduler.base(node));
            result = follow(result, scheduler.path(node));
            result.value().pinned = true;
            schedule.bindings.add(new Schedule.Binding(node, result.value(), result.view()));
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
        Value value = start.value();
        View view = start.view();
        for (Node move : moves) {
            View next = Access.apply(move, view);
            if (next == null) {
                value = schedule.launch(Kernel.copy(value.dtype, view, value.dtype), view.shape(), List.of(value)).output();
                view = View.contiguous(view.shape());
                next = Access.apply(move, view);
            }
            view = next;
        }
        return new Located(value, view);
    }

    // ------------------------------------------------------------------ one kernel

    private record Key(Node node, Segment segment, Access access) {
    }

    private final class Emitter {
        final Scheduler.Group group;
        final List<Instruction> program = new ArrayList<>();
        final List<Value> slots = new ArrayList<>();
        final Map<Value, Integer> slotOf = new IdentityHashMap<>();
        final Map<Key, Integer> emitted = new HashMap<>();
        final Map<Map.Entry<Segment, Instruction>, Integer> distinct = new HashMap<>();
        Segment segment = Segment.OUTPUT;

        Emitter(Scheduler.Group group) {
            this.group = group;
        }

        /** Post-order emission of the requests reachable from the root, by explicit stack. */
        int emitRoot() {
            Key root = new Key(group.root, Segment.OUTPUT, Access.direct(group.root));
            Deque<Key> stack = new ArrayDeque<>();
            Deque<List<Key>> pending = new ArrayDeque<>();
            stack.push(root);
            pending.push(sourceRequests(root));
            while (!stack.isEmpty()) {
                Key key = stack.peek();
                List<Key> sources = pending.peek();
                Key next = sources.stream().filter(source -> !emitted.containsKey(source)).findFirst().orElse(null);
                if (next != null) { // a DAG: a request is finished before its first requester resumes
                    stack.push(next);
                    pending.push(sourceRequests(next));
                    continue;
                }
                stack.pop();
                pending.pop();
                if (!emitted.containsKey(key)) {
                    emitted.put(key, emit(key, sources));
                }
            }
            return emitted.get(root);
        }

        /** The requests a key's computation reads (none for loads and generators). */
        List<Key> sourceRequests(Key key) {
            Node node = key.node();
            if (!computesHere(node)) {
                return List.of();
            }
            List<Key> requests = new ArrayList<>();
            for (int i = 0; i < node.sourceCount(); i++) {
                Node base = scheduler.base(node.source(i));
                List<Node> path = scheduler.path(node.source(i));
                if (node.op() == Op.CONTRACT) {
                    if (!path.isEmpty() && path.get(path.size() - 1).op() == Op.EXPAND) {
                        path = path.subList(0, path.size() - 1);
                    }
                    requests.add(new Key(base, i == 0 ? Segment.LEFT : Segment.RIGHT, Access.of(base, path)));
                } else if (Scheduler.isReduction(node)) {
                    requests.add(new Key(base, Segment.REDUCE_SOURCE, Access.of(base, path)));
                } else {
                    requests.add(new Key(base, key.segment(), Access.of(base, path).then(base, key.access())));
                }
            }
            return requests;
        }

        /** Whether the node's computation is emitted into this kernel (rather than loaded or generated). */
        boolean computesHere(Node node) {
            if (scheduler.isLeaf(node) || node.op().group() == Op.Group.CREATION) {
                return false;
            }
            Decision decision = scheduler.decision(node);
            return decision == Decision.FUSE || decision == Decision.DUPLICATE || decision == Decision.REDUCTION
                    || decision == Decision.REALIZE && node == group.root;
        }

        int emit(Key key, List<Key> sources) {
            Node node = key.node();
            segment = key.segment();
            int[] shape = shapeOf(key);
            if (node.op().group() == Op.Group.CREATION && !scheduler.isLeaf(node)
                    && (scheduler.decision(node) == Decision.INLINE || node == group.root)) {
                return generator(key);
            }
            if (!computesHere(node)) {
                return load(key);
            }
            int[] inputs = sources.stream().mapToInt(emitted::get).toArray();
            return switch (node.op().group()) {
                case GRAPH -> inputs[0]; // CONTIGUOUS: inside a kernel, its source's value
                case REDUCE -> add(Instruction.reduce(node.op(), node.dtype(), shape,
                        ((AxesArgument) node.argument()).axes(), inputs[0]));
                case CONTRACT -> contract(node, shape, inputs[0], inputs[1]);
                default -> add(Instruction.apply(node.op(), node.dtype(), shape, inputs));
            };
        }

        int load(Key key) {
            Located data = follow(located(key.node()), key.access().moves());
            Integer slot = slotOf.get(data.value());
            if (slot == null) {
                slot = slots.size();
                slots.add(data.value());
                slotOf.put(data.value(), slot);
            }
            return add(Instruction.load(slot, data.value().dtype, data.view()));
        }

        int generator(Key key) {
            Node node = key.node();
            View view = node.op() == Op.CONST ? View.broadcastScalar(node.shape()) : View.contiguous(node.shape());
            for (Node move : key.access().moves()) {
                view = Access.apply(move, view);
            }
            return add(Instruction.generate(node.op(), node.dtype(), view, node.argument()));
        }

        /**
         * The contraction and its spec. A left or right operand that is a plain load is read in
         * place (its broadcast axes shrunk to length 1 so the spec sees them as absent); any
         * other operand is a prologue the backend evaluates compact first.
         */
        int contract(Node node, int[] shape, int left, int right) {
            left = narrowBroadcast(left);
            right = narrowBroadcast(right);
            Instruction leftOperand = program.get(left);
            Instruction rightOperand = program.get(right);
            ContractSpec spec = ContractSpec.of(node.source(0).shape(), leftOperand.shape(), rightOperand.shape(),
                    ((AxesArgument) node.argument()).axes(), operandView(leftOperand), operandView(rightOperand), node.dtype());
            return add(Instruction.contract(node.dtype(), shape, spec, left, right));
        }

        private View operandView(Instruction operand) {
            return operand.isLoad() && !operand.view().hasMask() ? operand.view() : View.contiguous(operand.shape());
        }

        private int narrowBroadcast(int index) {
            Instruction operand = program.get(index);
            if (!operand.isLoad() || operand.view().hasMask()) {
                return index;
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
            if (!narrowed) {
                return index;
            }
            program.set(index, Instruction.load(operand.input(), operand.dtype(), view.shrink(starts, ends)));
            return index;
        }

        /** Adds an instruction, or finds the same one already in this segment (common subexpressions). */
        int add(Instruction instruction) {
            return distinct.computeIfAbsent(Map.entry(segment, instruction), key -> {
                program.add(instruction);
                return program.size() - 1;
            });
        }

        int[] shapeOf(Key key) {
            View probe = key.access().probe();
            if (probe != null) {
                return probe.shape();
            }
            List<Node> moves = key.access().moves();
            return moves.isEmpty() ? key.node().shape() : moves.get(moves.size() - 1).shape();
        }
    }

    private void buildGroup(Scheduler.Group group) {
        Node node0 = group.root;
        if (node0.op() == Op.CONST) { // a requested constant: one element, read through zero strides
            Kernel one = new Kernel(List.of(), List.of(Instruction.generate(Op.CONST, node0.dtype(),
                    View.contiguous(new int[0]), node0.argument())));
            Value value = schedule.launch(one, new int[0], List.of()).output();
            located.put(node0, new Located(value, View.broadcastScalar(node0.shape())));
            return;
        }
        Emitter emitter = new Emitter(group);
        int root = emitter.emitRoot();
        Node node = group.root;
        if (root != emitter.program.size() - 1) {
            throw new IllegalStateException("the root of a kernel must be its last instruction");
        }
        Instruction output = emitter.program.get(root);
        if (emitter.program.size() == 1 && output.isLoad()) {
            Value source = emitter.slots.get(output.input());
            if (output.view().isContiguous() && source.size == node.size() && source.dtype == node.dtype()) {
                located.put(node, new Located(source, View.contiguous(node.shape()))); // already compact: shared
                return;
            }
        }
        Kernel kernel = new Kernel(emitter.slots.stream().map(value -> value.dtype).toList(), emitter.program);
        Value output1 = schedule.launch(kernel, node.shape(), emitter.slots).output();
        located.put(node, new Located(output1, View.contiguous(node.shape())));
    }
}
