package dev.ein4j.runtime;

import dev.ein4j.ir.GraphOrder;
import dev.ein4j.ir.Node;
import dev.ein4j.ir.Op;
import dev.ein4j.kernel.Kernel.Segment;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Decides which nodes of a graph get a buffer of their own and which are computed inside the
 * kernel of a consumer: the fusion rules. Nodes are visited consumers first (reverse topological
 * order); each node learns every place it is read (its instances: a kernel, a segment of it and an
 * {@link Access}) and is then
 *
 * <ul>
 *   <li><b>realized</b> (the root of its own kernel, writing a buffer) when it is requested, when a
 *       requested view needs it, when it is read by several kernels or through several different
 *       accesses (and is not cheap), when it would be evaluated through padding or a broadcast
 *       (a broadcast would recompute it for every copy), or when its kernel is full;</li>
 *   <li><b>fused</b> into the single kernel that reads it, once per element, sharing the value
 *       among all its readers in that kernel (so {@code relu(x*w+b)}, which reads {@code x*w+b}
 *       twice, is one kernel);</li>
 *   <li><b>duplicated</b> when it is elementwise and cheap (at most {@link #RECOMPUTE_LIMIT}
 *       primitives down to the nearest buffer): each reading kernel recomputes it, which costs
 *       less than writing and reading it back (softmax's {@code exp(x − max)} feeds both the sum
 *       and the division: three kernels, no intermediate of the input's size);</li>
 *   <li><b>inlined</b> when it is CONST, IOTA or RAND: a generator read through a view, like a load;</li>
 *   <li>the <b>reduction</b> of its consumer's kernel when it is a REDUCE or CONTRACT read by one
 *       elementwise kernel without reordering: that kernel becomes its epilogue (a mean, a bias and
 *       activation after a matmul). A kernel holds at most one reduction, so a reduction read by a
 *       reduction's prologue is realized.</li>
 * </ul>
 *
 * Movement nodes and DETACH are never computed: they fold into the views of loads and generators.
 * CONTIGUOUS is an alias of its source inside a kernel and a compact copy when requested.
 * Every value is thus computed once per realization, except the cheap elementwise recomputes above.
 */
final class Scheduler {

    /** The most primitives a duplicated node may recompute. */
    static final int RECOMPUTE_LIMIT = 8;
    /** The most nodes fused into one kernel (bounds kernel size and input count). */
    static final int GROUP_CAPACITY = 64;

    private static volatile boolean fusion = !"false".equals(System.getProperty("ein4j.fusion"));

    enum Decision { REALIZE, FUSE, DUPLICATE, INLINE, REDUCTION }

    /** One kernel being formed: its root (the node it writes) and its reduction, if any. */
    static final class Group {
        final Node root;
        Node reduction;
        int size;

        Group(Node root) {
            this.root = root;
        }
    }

    /** Where a node is evaluated: a kernel, the segment of it, and how the node is read there. */
    record Instance(Group group, Segment segment, Access access) {
    }

    /** A consumer reading a node through some moves; a null consumer is a requested view. */
    private record Use(Node consumer, int source, List<Node> path) {
    }

    private final Set<Node> targets = Collections.newSetFromMap(new IdentityHashMap<>());
    private final Map<Node, Realized> leaves = new IdentityHashMap<>();
    private final List<Node> order;
    private final Map<Node, List<Use>> uses = new IdentityHashMap<>();
    private final Map<Node, Node> bases = new IdentityHashMap<>();
    private final Map<Node, List<Node>> paths = new IdentityHashMap<>();
    private final Map<Node, Integer> costs = new IdentityHashMap<>();
    /** Elementwise nodes computed from generators alone (no buffer), e.g. the reciprocal of a scalar. */
    private final Set<Node> constantExpressions = java.util.Collections.newSetFromMap(new IdentityHashMap<>());
    private final Map<Node, Decision> decisions = new IdentityHashMap<>();
    private final Map<Node, List<Instance>> instances = new IdentityHashMap<>();
    private final Map<Node, Group> roots = new IdentityHashMap<>();
    private final List<Group> groups = new ArrayList<>();

    /**
     * @param wanted the nodes to compute
     */
    Scheduler(List<Node> wanted) {
        targets.addAll(wanted);
        // one snapshot of what is computed: another thread may realize nodes meanwhile
        this.order = GraphOrder.postOrder(wanted, node -> !snapshot(node));
        order.forEach(this::snapshot);
        collectUses();
        for (int i = order.size() - 1; i >= 0; i--) {
            Node node = order.get(i);
            if (!isLeaf(node) && !isTransparent(node)) {
                decide(node);
            }
        }
        Collections.reverse(groups); // roots were met consumers first
    }

    /** Turns fusion off (every primitive its own kernel) or on; for tests that compare the two. */
    static void setFusion(boolean enabled) {
        fusion = enabled;
    }

    private boolean snapshot(Node node) {
        if (leaves.containsKey(node)) {
            return true;
        }
        Realized data = Results.get(node);
        if (data != null) {
            leaves.put(node, data);
        }
        return data != null;
    }

    static boolean isTransparent(Node node) {
        return node.op().group() == Op.Group.MOVEMENT || node.op() == Op.DETACH;
    }

    /**
     * @param node a node of the graph
     * @return whether it was computed when scheduling began (then it is read, never recomputed)
     */
    boolean isLeaf(Node node) {
        return leaves.containsKey(node);
    }

    /**
     * @param node a leaf
     * @return its data as it was when scheduling began
     */
    Realized leafData(Node node) {
        return leaves.get(node);
    }

    // ------------------------------------------------------------------ uses

    /** Follows movement chains so that every use names the computing (or leaf) node it reads. */
    private void collectUses() {
        for (Node node : order) {
            if (isLeaf(node)) {
                continue;
            }
            if (isTransparent(node)) {
                Node source = node.source(0);
                boolean through = !isLeaf(source) && isTransparent(source);
                bases.put(node, through ? bases.get(source) : source);
                List<Node> path = new ArrayList<>(through ? paths.get(source) : List.of());
                path.add(node);
                paths.put(node, path);
            } else {
                for (int i = 0; i < node.sourceCount(); i++) {
                    Node source = node.source(i);
                    addUse(source, new Use(node, i, List.of()));
                }
            }
            costs.put(node, cost(node));
            if (isConstantExpression(node)) {
                constantExpressions.add(node);
            }
        }
        for (Node target : targets) {
            if (!isLeaf(target) && isTransparent(target)) {
                addUse(target, new Use(null, 0, List.of()));
            }
        }
    }

    private void addUse(Node source, Use use) {
        if (!isLeaf(source) && isTransparent(source)) {
            List<Node> path = new ArrayList<>(paths.get(source));
            path.addAll(use.path());
            source = bases.get(source);
            use = new Use(use.consumer(), use.source(), path);
        }
        uses.computeIfAbsent(source, key -> new ArrayList<>()).add(use);
    }

    /** Primitives evaluated per element if the node were recomputed, down to the nearest buffer (capped). */
    private int cost(Node node) {
        if (isLeaf(node) || node.op().group() == Op.Group.CREATION || isReduction(node)) {
            return 0;
        }
        int total = node.op() == Op.CONTIGUOUS || isTransparent(node) ? 0 : 1;
        for (int i = 0; i < node.sourceCount(); i++) {
            total += costs.getOrDefault(node.source(i), 0);
        }
        return Math.min(total, 1000);
    }

    private boolean isConstantExpression(Node node) {
        if (isLeaf(node) || isReduction(node)) {
            return false;
        }
        if (node.op().group() == Op.Group.CREATION) {
            return true;
        }
        for (int i = 0; i < node.sourceCount(); i++) {
            if (!constantExpressions.contains(node.source(i))) {
                return false;
            }
        }
        return true;
    }

    static boolean isReduction(Node node) {
        return node.op().group() == Op.Group.REDUCE || node.op() == Op.CONTRACT;
    }

    // ------------------------------------------------------------------ decisions

    private void decide(Node node) {
        Set<Instance> places = new LinkedHashSet<>();
        boolean requested = targets.contains(node);
        for (Use use : uses.getOrDefault(node, List.of())) {
            if (use.consumer() == null) {
                requested = true;
            } else {
                places.addAll(sourceInstances(use.consumer(), use.source(), use.path()));
            }
        }
        if (!requested && places.isEmpty()) {
            return; // only read by nodes that turned out to be computed already
        }
        Decision decision = requested ? Decision.REALIZE : choose(node, places);
        decisions.put(node, decision);
        if (decision == Decision.REALIZE) {
            Group group = new Group(node);
            groups.add(group);
            roots.put(node, group);
            instances.put(node, List.of(new Instance(group, Segment.OUTPUT, Access.direct(node))));
            if (isReduction(node)) {
                group.reduction = node;
            }
            return;
        }
        List<Instance> kept = new ArrayList<>(places);
        if (decision == Decision.REDUCTION) {
            kept.get(0).group().reduction = node;
        }
        if (decision != Decision.INLINE) {
            kept.forEach(instance -> instance.group().size++);
        }
        instances.put(node, kept);
    }

    private Decision choose(Node node, Set<Instance> places) {
        if (places.isEmpty()) {
            return Decision.REALIZE;
        }
        if (node.op().group() == Op.Group.CREATION) {
            return places.stream().allMatch(place -> place.access().probe() != null) ? Decision.INLINE : Decision.REALIZE;
        }
        if (!fusion) {
            return Decision.REALIZE;
        }
        boolean room = places.stream().allMatch(place -> place.group().size < GROUP_CAPACITY);
        if (isReduction(node)) {
            Instance place = places.iterator().next();
            boolean fits = places.size() == 1 && place.segment() == Segment.OUTPUT && place.access().keepsOrder()
                    && place.group().reduction == null && room;
            return fits ? Decision.REDUCTION : Decision.REALIZE;
        }
        // A cheap expression of generators alone (a scalar's reciprocal) is recomputed even through
        // a broadcast: a few operations per element cost less than a kernel of its own.
        boolean constant = constantExpressions.contains(node) && costs.get(node) <= RECOMPUTE_LIMIT;
        boolean fusable = room && places.stream().allMatch(place -> place.access().fusesComputation()
                || constant && place.access().probe() != null && place.access().hasNoPadding());
        if (fusable && places.size() == 1) {
            return Decision.FUSE;
        }
        return fusable && costs.get(node) <= RECOMPUTE_LIMIT ? Decision.DUPLICATE : Decision.REALIZE;
    }

    /**
     * Where the source of a decided consumer is evaluated.
     *
     * @param consumer a decided node
     * @param source which of its sources
     * @param path the moves from the source's base to the consumer
     * @return the source's instances
     */
    List<Instance> sourceInstances(Node consumer, int source, List<Node> path) {
        Node base = path.isEmpty() ? consumer.source(source) : path.get(0).source(0);
        if (isReduction(consumer)) {
            Group group = decisions.get(consumer) == Decision.REALIZE ? roots.get(consumer)
                    : instances.get(consumer).get(0).group();
            if (consumer.op() == Op.CONTRACT) {
                List<Node> operandPath = path;
                if (!path.isEmpty() && path.get(path.size() - 1).op() == Op.EXPAND) {
                    operandPath = path.subList(0, path.size() - 1); // the operand is read un-expanded
                }
                return List.of(new Instance(group, source == 0 ? Segment.LEFT : Segment.RIGHT, Access.of(base, operandPath)));
            }
            return List.of(new Instance(group, Segment.REDUCE_SOURCE, Access.of(base, path)));
        }
        Access own = Access.of(base, path);
        List<Instance> result = new ArrayList<>();
        for (Instance place : instances.get(consumer)) {
            result.add(new Instance(place.group(), place.segment(), own.then(base, place.access())));
        }
        return result;
    }

    // ------------------------------------------------------------------ results

    /** @return the kernels to build, in an order where every kernel comes after those it reads */
    List<Group> groups() {
        return groups;
    }

    /**
     * @param node a computing node of the graph
     * @return what was decided for it
     */
    Decision decision(Node node) {
        return decisions.get(node);
    }

    /**
     * @param node a realized (root) node
     * @return its kernel
     */
    Group rootGroup(Node node) {
        return roots.get(node);
    }

    /**
     * @param node a node
     * @return the computing (or leaf) node a movement chain starts from, or the node itself
     */
    Node base(Node node) {
        return !isLeaf(node) && isTransparent(node) ? bases.get(node) : node;
    }

    /**
     * @param node a node
     * @return the movement chain from its base to it (empty for a computing node)
     */
    List<Node> path(Node node) {
        return !isLeaf(node) && isTransparent(node) ? paths.get(node) : List.of();
    }

    /** @return every node the realization visits, sources first */
    List<Node> order() {
        return order;
    }
}
