package dev.ein4j.runtime;

import dev.ein4j.backend.Backend;
import dev.ein4j.backend.Backends;
import dev.ein4j.backend.BufferView;
import dev.ein4j.backend.Realized;
import dev.ein4j.backend.Storage;
import dev.ein4j.ir.AxesArgument;
import dev.ein4j.ir.DType;
import dev.ein4j.ir.GraphOrder;
import dev.ein4j.ir.Node;
import dev.ein4j.ir.Op;
import dev.ein4j.ir.PadArgument;
import dev.ein4j.ir.PermuteArgument;
import dev.ein4j.ir.ShrinkArgument;
import dev.ein4j.ir.View;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Computes nodes: orders the unrealized part of the graph (explicit stack, no recursion), resolves
 * movement ops into views without copying where a strided view can express them, calls the backend
 * for each compute primitive, and releases each intermediate buffer as soon as its last consumer has
 * run. Only the requested nodes keep their results.
 */
public final class Realizer {

    private final Backend backend;
    private final Map<Node, Realized> results = new IdentityHashMap<>();
    private final Map<Node, Integer> pendingConsumers = new IdentityHashMap<>();
    private final Map<Storage, Integer> storageUsers = new IdentityHashMap<>();
    private final Set<Storage> pinned = java.util.Collections.newSetFromMap(new IdentityHashMap<>());
    private final Set<Node> targets = java.util.Collections.newSetFromMap(new IdentityHashMap<>());

    private Realizer(Backend backend) {
        this.backend = backend;
    }

    /**
     * Computes the given nodes (those not yet computed) in one pass, sharing common subgraphs, and
     * stores each result in its node.
     *
     * @param nodes the nodes to compute
     */
    public static void realize(Collection<Node> nodes) {
        List<Node> wanted = nodes.stream().filter(node -> node.realized() == null).toList();
        if (wanted.isEmpty()) {
            return;
        }
        List<Node> order = schedule(wanted);
        new Realizer(chooseBackend(order)).run(order, wanted);
    }

    /**
     * Reads a computed node's elements in row-major order.
     *
     * @param node a node
     * @return its elements as doubles (float32 values are exact in double)
     */
    public static double[] read(Node node) {
        realize(List.of(node));
        Realized data = node.realized();
        Backend owner = data.storage().backend();
        if (data.view().isContiguous() && data.storage().buffer().size() == data.view().size()) {
            return owner.read(data.storage().buffer());
        }
        Storage compact = Storage.allocate(owner, node.dtype(), node.size());
        try {
            owner.elementwise(Op.CONTIGUOUS, compact.buffer(), List.of(data.bufferView()));
            return owner.read(compact.buffer());
        } finally {
            compact.release();
        }
    }

    // ------------------------------------------------------------------ scheduling

    /** Post-order of the unrealized nodes that the wanted ones depend on. */
    private static List<Node> schedule(List<Node> wanted) {
        return GraphOrder.postOrder(wanted, node -> node.realized() == null);
    }

    /** The backend where the graph's data lives (its first computed leaf), else the current one. */
    private static Backend chooseBackend(List<Node> order) {
        for (Node node : order) {
            if (node.realized() != null) {
                return node.realized().storage().backend();
            }
        }
        return Backends.current();
    }

    // ------------------------------------------------------------------ execution

    private void run(List<Node> order, List<Node> wanted) {
        targets.addAll(wanted);
        for (Node node : order) {
            if (node.realized() == null) {
                for (int i = 0; i < node.sourceCount(); i++) {
                    pendingConsumers.merge(node.source(i), 1, Integer::sum);
                }
            }
        }
        for (Node node : order) {
            Realized existing = node.realized();
            if (existing != null) {
                Realized local = existing.storage().backend() == backend ? existing : transfer(existing, node.dtype());
                keep(node, local, true);
                continue;
            }
            Realized result = compute(node);
            keep(node, result, targets.contains(node));
            if (targets.contains(node)) {
                node.setRealized(result);
            }
            for (int i = 0; i < node.sourceCount(); i++) {
                consumed(node.source(i));
            }
        }
        results.clear();
    }

    private void keep(Node node, Realized result, boolean pin) {
        results.put(node, result);
        storageUsers.merge(result.storage(), 1, Integer::sum);
        if (pin) {
            pinned.add(result.storage());
        }
    }

    private void consumed(Node source) {
        int left = pendingConsumers.merge(source, -1, Integer::sum);
        if (left > 0 || targets.contains(source)) {
            return;
        }
        Realized done = results.remove(source);
        if (done == null) {
            return;
        }
        int users = storageUsers.merge(done.storage(), -1, Integer::sum);
        if (users == 0 && !pinned.contains(done.storage())) {
            done.storage().release();
        }
    }

    private Realized compute(Node node) {
        Op op = node.op();
        return switch (op.group()) {
            case MOVEMENT -> move(node);
            case GRAPH -> op == Op.CONTIGUOUS ? contiguous(input(node, 0), node.dtype()) : input(node, 0);
            case UNARY, BINARY, TERNARY -> {
                List<BufferView> operands = new ArrayList<>();
                for (int i = 0; i < node.sourceCount(); i++) {
                    operands.add(input(node, i).bufferView());
                }
                Storage out = Storage.allocate(backend, node.dtype(), node.size());
                backend.elementwise(op, out.buffer(), operands);
                yield new Realized(out, View.contiguous(node.shape()));
            }
            case REDUCE -> {
                Storage out = Storage.allocate(backend, node.dtype(), node.size());
                backend.reduce(op, out.buffer(), input(node, 0).bufferView(), ((AxesArgument) node.argument()).axes());
                yield new Realized(out, View.contiguous(node.shape()));
            }
            case CONTRACT -> {
                Storage out = Storage.allocate(backend, node.dtype(), node.size());
                backend.contract(out.buffer(), input(node, 0).bufferView(), input(node, 1).bufferView(),
                        ((AxesArgument) node.argument()).axes());
                yield new Realized(out, View.contiguous(node.shape()));
            }
            case CREATION -> create(node);
        };
    }

    private Realized input(Node node, int index) {
        return results.get(node.source(index));
    }

    private Realized create(Node node) {
        switch (node.op()) {
            case CONST -> {
                Storage out = Storage.allocate(backend, node.dtype(), 1);
                backend.fill(out.buffer(), (Double) node.argument());
                return new Realized(out, View.broadcastScalar(node.shape()));
            }
            case IOTA -> {
                Storage out = Storage.allocate(backend, node.dtype(), node.size());
                backend.iota(out.buffer());
                return new Realized(out, View.contiguous(node.shape()));
            }
            default -> {
                Storage out = Storage.allocate(backend, node.dtype(), node.size());
                backend.random(out.buffer(), (Long) node.argument());
                return new Realized(out, View.contiguous(node.shape()));
            }
        }
    }

    /** A movement op as a view of its source; a copy only when one strided view cannot say it. */
    private Realized move(Node node) {
        Realized source = input(node, 0);
        View moved = moveView(node, source.view());
        if (moved != null) {
            return new Realized(source.storage(), moved);
        }
        Realized compact = contiguous(source, node.source(0).dtype());
        Realized result = new Realized(compact.storage(), moveView(node, compact.view()));
        return result;
    }

    private static View moveView(Node node, View view) {
        Object argument = node.argument();
        return switch (node.op()) {
            case RESHAPE -> view.reshape(node.shape());
            case PERMUTE -> view.permute(((PermuteArgument) argument).order());
            case EXPAND -> view.expand(node.shape());
            case PAD -> view.pad(((PadArgument) argument).before(), ((PadArgument) argument).after(),
                    ((PadArgument) argument).fill());
            case SHRINK -> view.shrink(((ShrinkArgument) argument).starts(), ((ShrinkArgument) argument).ends());
            default -> {
                boolean[] flipped = new boolean[view.rank()];
                for (int axis : ((AxesArgument) argument).axes()) {
                    flipped[axis] = true;
                }
                yield view.flip(flipped);
            }
        };
    }

    private Realized contiguous(Realized source, DType dtype) {
        if (source.view().isContiguous() && source.storage().buffer().size() == source.view().size()
                && source.storage().buffer().dtype() == dtype) {
            return source;
        }
        Storage out = Storage.allocate(backend, dtype, source.view().size());
        backend.elementwise(Op.CONTIGUOUS, out.buffer(), List.of(source.bufferView()));
        return new Realized(out, View.contiguous(source.view().shape()));
    }

    /** Data computed on another backend, copied through the host. */
    private Realized transfer(Realized foreign, DType dtype) {
        Backend owner = foreign.storage().backend();
        Storage compactForeign = Storage.allocate(owner, dtype, foreign.view().size());
        try {
            owner.elementwise(Op.CONTIGUOUS, compactForeign.buffer(), List.of(foreign.bufferView()));
            Storage local = Storage.allocate(backend, dtype, foreign.view().size());
            backend.write(local.buffer(), owner.read(compactForeign.buffer()));
            return new Realized(local, View.contiguous(foreign.view().shape()));
        } finally {
            compactForeign.release();
        }
    }

    /** @return the number of nodes a realization of these nodes would compute (for explain and tests) */
    static int scheduledCount(Collection<Node> nodes) {
        return schedule(new ArrayList<>(new HashSet<>(nodes))).size();
    }

}
