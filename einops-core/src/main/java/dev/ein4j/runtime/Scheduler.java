package dev.ein4j.runtime;

import dev.ein4j.ir.Node;
import dev.ein4j.ir.Op;
import dev.ein4j.ir.Shapes;
import dev.ein4j.ir.View;
import dev.ein4j.kernel.Kernel.Segment;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Decides which nodes of a graph get a buffer of their own and which are computed inside the
 * kernel of a consumer: the fusion rules, all in this class. Nodes are visited consumers first
 * (reverse topological order); each node learns every place it is read (its instances: a kernel,
 * a segment of it and an {@link Access}) and is then
 *
 * <ul>
 *   <li><b>realized</b> (the root of its own kernel, writing a buffer) when it is requested, when a
 *       requested view needs it, when it is read by several kernels or through several different
 *       accesses (and is not cheap), when it would be evaluated through padding or a broadcast
 *       (a broadcast would recompute it for every copy), or when its kernel is full;</li>
 *   <li><b>fused</b> into the single kernel that reads it, once per element, sharing the value
 *       among all its readers in that kernel (so {@code relu(x*w+b)}, which reads {@code x*w+b}
 *       twice, is one kernel); a <em>requested</em> elementwise node read only by one kernel, element
 *       for element, is fused there too and becomes an extra output of that kernel (Adam's moments
 *       are written by the kernel that updates the parameter);</li>
 *   <li><b>duplicated</b> when it is elementwise and cheap (at most {@link #RECOMPUTE_LIMIT}
 *       primitives down to the nearest buffer): each reading kernel recomputes it, which costs
 *       less than writing and reading it back (softmax's {@code exp(x − max)} feeds both the sum
 *       and the division: three kernels, no intermediate of the input's size);</li>
 *   <li><b>inlined</b> when it is CONST or IOTA, or a RAND read by one kernel: a generator read
 *       through a view, like a load (a RAND read by several kernels is realized once, so that every
 *       reader sees one draw without generating it twice);</li>
 *   <li>computed as a <b>scalar</b> when it is a constant expression (CONST generators and
 *       elementwise math on them) that would otherwise be realized: one element, read through a
 *       broadcast view wherever it is needed, padding included;</li>
 *   <li>the <b>reduction</b> of its consumer's kernel when it is a REDUCE or CONTRACT read by one
 *       elementwise kernel without reordering: that kernel becomes its epilogue (a mean, a bias and
 *       activation after a matmul). A kernel holds one contraction or reductions over one source
 *       shape and axes, so a reduction read by a reduction's prologue is realized.</li>
 * </ul>
 *
 * A GATHER fuses like an elementwise node where it is read element for element (an embedding
 * lookup inside the kernel that uses it); the tensor it reads from must be in a buffer. A SCATTER is
 * always the root of a kernel of its own, which writes into a copy of its base (or, assigned to
 * its base, into the base itself); its values and positions are computed in that kernel.
 *
 * After the decisions, kernels that are independent, read a common buffer and iterate over the
 * same space (elementwise kernels of one shape, or reductions of one source shape and axes) are
 * <b>merged</b> into one kernel with several outputs (a batch's mean and variance in one pass).
 * Nodes computed once and kept ({@link Lifetimes#keepOnFirstUse}, random tensors) are realized
 * and bound like requested ones. Movement nodes and DETACH are never computed: they fold into the
 * views of loads and generators. CONTIGUOUS is an alias of its source inside a kernel and a
 * compact copy when requested. Every value is computed once per realization, except the cheap
 * elementwise recomputes above.
 */
final class Scheduler {

    /** The most primitives a duplicated node may recompute. */
    static final int RECOMPUTE_LIMIT = 8;
    /**
     * The most nodes fused into one kernel (bounds kernel size and input count). 192 holds an exact
     * GELU (erf as a three-branch rational approximation, about a hundred nodes) with its neighbours:
     * at 64 it was cut into six kernels with bool masks written between them (vit-tiny-fwd: 316
     * kernels and 334.5 MiB written per forward pass at 64, 244 and 147.5 MiB at 192).
     */
    static final int GROUP_CAPACITY = 192;

    enum Decision { REALIZE, FUSE, DUPLICATE, INLINE, REDUCTION, SCALAR }

    /** One kernel being formed: the nodes it writes, its reductions, and what it reads. */
    static final class Group {
        /** The nodes written to the kernel's outputs, its root first. */
        final List<Node> outputs = new ArrayList<>();
        /** REDUCE or CONTRACT nodes computed in it (a contraction alone, or reductions of one space). */
        final List<Node> reductions = new ArrayList<>();
        /** Groups whose outputs it loads. */
        final Set<Group> reads = Collections.newSetFromMap(new IdentityHashMap<>());
        /** Buffers it loads: leaves and other groups' outputs. */
        final Set<Node> loads = Collections.newSetFromMap(new IdentityHashMap<>());
        int size;
        Group mergedInto;
        final boolean scalar;
        /** A SCATTER's kernel: its only output, no fusion of readers, no siblings. */
        boolean scatter;

        Group(Node root, boolean scalar) {
            outputs.add(root);
            this.scalar = scalar;
        }

        Node root() {
            return outputs.get(0);
        }

        /** @return the group this one was merged into, or itself */
        Group resolve() {
            Group group = this;
            while (group.mergedInto != null) {
                group = group.mergedInto;
            }
            return group;
        }
    }

    /** Where a node is evaluated or read: a kernel, the segment of it, and how the node is read there. */
    record Instance(Group group, Node node, Segment segment, Access access) {
    }

    /** A consumer reading a node through some moves; a null consumer is a requested view. */
    private record Use(Node consumer, int source, List<Node> path) {
    }

    private final GraphWalk walk;
    private final boolean fusion;
    private final Set<Node> targets = Collections.newSetFromMap(new IdentityHashMap<>());
    private final Set<Node> bound = Collections.newSetFromMap(new IdentityHashMap<>());
    private final Map<Node, List<Use>> uses = new IdentityHashMap<>();
    private final Map<Node, Node> bases = new IdentityHashMap<>();
    private final Map<Node, List<Node>> paths = new IdentityHashMap<>();
    private final Map<Node, Integer> costs = new IdentityHashMap<>();
    /** Elementwise nodes computed from generators alone (no buffer), e.g. the reciprocal of a scalar. */
    private final Set<Node> constantExpressions = Collections.newSetFromMap(new IdentityHashMap<>());
    /** Constant expressions of CONST generators only: one value for every element. */
    private final Set<Node> uniformExpressions = Collections.newSetFromMap(new IdentityHashMap<>());
    private final Map<Node, Decision> decisions = new IdentityHashMap<>();
    private final Map<Node, List<Instance>> instances = new IdentityHashMap<>();
    private final Map<Instance, Instance[]> sourcesOf = new java.util.HashMap<>();
    private final Map<Node, Group> owners = new IdentityHashMap<>();
    private List<Group> groups = new ArrayList<>();

    /**
     * @param walk the graph to compute, walked
     * @param wanted the requested nodes (none computed)
     * @param fusion whether nodes fuse (false: every primitive its own kernel, for tests)
     */
    Scheduler(GraphWalk walk, List<Node> wanted, boolean fusion) {
        this.walk = walk;
        this.fusion = fusion;
        targets.addAll(wanted);
        for (Node node : walk.order) {
            if (Lifetimes.isKeptOnFirstUse(node)) {
                targets.add(node);
                bound.add(node);
            }
        }
        collectUses();
        List<Node> order = walk.order;
        for (int i = order.size() - 1; i >= 0; i--) {
            Node node = order.get(i);
            if (!isTransparent(node)) {
                decide(node);
            }
        }
        for (Node leaf : walk.leaves) {
            decide(leaf); // records where each leaf is read
        }
        Collections.reverse(groups); // roots were met consumers first
        if (fusion) {
            mergeSiblings();
        }
    }

    static boolean isTransparent(Node node) {
        return node.op().group() == Op.Group.MOVEMENT || node.op() == Op.DETACH;
    }

    /**
     * @param node a node of the graph
     * @return whether it was computed when scheduling began (then it is read, never recomputed)
     */
    boolean isLeaf(Node node) {
        return walk.positions.get(node, 0) < 0;
    }

    // ------------------------------------------------------------------ uses

    /** Follows movement chains so that every use names the computing (or leaf) node it reads. */
    private void collectUses() {
        for (Node node : walk.order) {
            if (isTransparent(node)) {
                Node source = node.source(0);
                boolean through = !isLeaf(source) && isTransparent(source);
                bases.put(node, through ? bases.get(source) : source);
                List<Node> path = new ArrayList<>(through ? paths.get(source) : List.of());
                path.add(node);
                paths.put(node, path);
            } else {
                for (int i = 0; i < node.sourceCount(); i++) {
                    addUse(node.source(i), new Use(node, i, List.of()));
                }
            }
            costs.put(node, cost(node));
            if (isConstantExpression(node)) {
                constantExpressions.add(node);
                if (isUniform(node)) {
                    uniformExpressions.add(node);
                }
            }
        }
        for (Node target : targets) {
            if (isTransparent(target)) {
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

    /**
     * Primitives evaluated per element if the node were recomputed, down to the nearest buffer
     * (capped). A broadcast ends the count: what it copies is realized (see {@link #choose}) unless
     * it is a constant expression, so a per-channel scale behind it costs its readers nothing.
     */
    private int cost(Node node) {
        if (isLeaf(node) || node.op().group() == Op.Group.CREATION || isReduction(node)) {
            return 0;
        }
        if (node.op() == Op.EXPAND && Shapes.size(node.shape()) > Shapes.size(node.source(0).shape())
                && !constantExpressions.contains(base(node.source(0)))) {
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

    /**
     * Whether a constant expression has one value everywhere: built from CONST alone (no IOTA, no
     * RAND) by elementwise math and movement other than padding (which mixes a fill value in).
     */
    private boolean isUniform(Node node) {
        if (node.op().group() == Op.Group.CREATION) {
            return node.op() == Op.CONST;
        }
        if (node.op() == Op.PAD) {
            return false;
        }
        for (int i = 0; i < node.sourceCount(); i++) {
            if (!uniformExpressions.contains(node.source(i))) {
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
                continue;
            }
            Node consumer = use.consumer();
            for (Instance reader : computing(consumer)) {
                Instance place = sourceInstance(reader, use.source(), use.path());
                places.add(place);
                sourcesOf.computeIfAbsent(reader, key -> new Instance[consumer.sourceCount()])[use.source()] = place;
            }
        }
        if (!requested && places.isEmpty()) {
            return; // only read by nodes that turned out to be computed already
        }
        if (isLeaf(node)) {
            places.forEach(place -> place.group().loads.add(node));
            return;
        }
        Decision decision = choose(node, places, requested);
        decisions.put(node, decision);
        if (decision == Decision.REALIZE || decision == Decision.SCALAR) {
            Group group = new Group(node, decision == Decision.SCALAR);
            groups.add(group);
            owners.put(node, group);
            instances.put(node, List.of(new Instance(group, node, Segment.OUTPUT, Access.direct(node))));
            if (isReduction(node)) {
                group.reductions.add(node);
            }
            group.scatter = node.op() == Op.SCATTER;
            for (Instance place : places) {
                place.group().reads.add(group);
                place.group().loads.add(node);
            }
            if (node.op() == Op.RAND && places.size() > 1) {
                bound.add(node); // read by several kernels: one draw, kept for later realizations too
            }
            return;
        }
        List<Instance> kept = new ArrayList<>(places);
        if (decision == Decision.REDUCTION) {
            kept.get(0).group().reductions.add(node);
        }
        if (decision == Decision.FUSE && requested) {
            Group reader = kept.get(0).group();
            reader.outputs.add(node); // an extra output of the kernel that reads it
            owners.put(node, reader);
        }
        if (decision != Decision.INLINE) {
            kept.forEach(instance -> instance.group().size++);
        }
        instances.put(node, kept);
    }

    /** The instances where a decided node is computed (its sources are read there). */
    private List<Instance> computing(Node consumer) {
        Decision decision = decisions.get(consumer);
        if (decision == null || decision == Decision.INLINE || decision == Decision.SCALAR) {
            return List.of(); // generators and scalars read no buffer through their sources
        }
        return instances.get(consumer);
    }

    private Decision choose(Node node, Set<Instance> places, boolean requested) {
        if (node.op() == Op.SCATTER || places.isEmpty()) {
            return Decision.REALIZE;
        }
        if (requested) {
            return fusion && fusesAsOutput(node, places) ? Decision.FUSE : Decision.REALIZE;
        }
        if (node.op().group() == Op.Group.CREATION) {
            boolean viewable = places.stream().allMatch(place -> place.access().probe() != null && !place.access().buffered());
            boolean oneKernel = node.op() != Op.RAND || places.stream().map(Instance::group).distinct().count() == 1;
            return viewable && oneKernel ? Decision.INLINE : Decision.REALIZE;
        }
        if (!fusion) {
            return Decision.REALIZE;
        }
        boolean room = places.stream().allMatch(place -> place.group().size < GROUP_CAPACITY);
        if (node.op() == Op.GATHER && !places.stream().allMatch(place -> isIdentity(node, place))) {
            return Decision.REALIZE; // an indexed read is emitted in the space of its own shape
        }
        if (isReduction(node)) {
            Instance place = places.iterator().next();
            boolean fits = places.size() == 1 && place.segment() == Segment.OUTPUT && place.access().keepsOrder()
                    && place.group().reductions.isEmpty() && !place.group().scalar && !place.group().scatter
                    && !place.access().buffered() && room
                    && (node.op() != Op.CONTRACT || place.group().outputs.size() == 1); // a contraction kernel has one output
            return fits ? Decision.REDUCTION : Decision.REALIZE;
        }
        // A cheap expression of generators alone (a scalar's reciprocal) is recomputed even through
        // a broadcast: a few operations per element cost less than a kernel of its own.
        boolean constant = constantExpressions.contains(node) && costs.get(node) <= RECOMPUTE_LIMIT;
        boolean fusable = room && places.stream().allMatch(place -> !place.group().scalar && (place.access().fusesComputation()
                || constant && place.access().probe() != null && place.access().hasNoPadding() && !place.access().buffered()));
        if (fusable && places.size() == 1) {
            return Decision.FUSE;
        }
        if (fusable && costs.get(node) <= RECOMPUTE_LIMIT) {
            return Decision.DUPLICATE;
        }
        return uniformExpressions.contains(node) && node.op().isElementwise() ? Decision.SCALAR : Decision.REALIZE;
    }

    private static boolean isIdentity(Node node, Instance place) {
        return !place.access().buffered() && View.contiguous(node.shape()).equals(place.access().probe());
    }

    /**
     * Whether a requested node can be written by the one kernel that reads it: it is elementwise, a
     * compact copy or a RAND/IOTA generator, that kernel reads it element for element in its output
     * space, and the kernel has room and no contraction (a contraction kernel has one output).
     */
    private boolean fusesAsOutput(Node node, Set<Instance> places) {
        boolean generated = node.op() == Op.RAND || node.op() == Op.IOTA; // drawn in place, written as it is read
        if (places.isEmpty() || !(node.op().isElementwise() || node.op() == Op.CONTIGUOUS || generated)) {
            return false;
        }
        Group reader = places.iterator().next().group();
        if (reader.scalar || reader.scatter || reader.size >= GROUP_CAPACITY || !Arrays.equals(reader.root().shape(), node.shape())
                || reader.reductions.stream().anyMatch(reduction -> reduction.op() == Op.CONTRACT)) {
            return false;
        }
        View identity = View.contiguous(node.shape());
        for (Instance place : places) {
            if (place.group() != reader || place.segment() != Segment.OUTPUT || place.access().buffered()
                    || !identity.equals(place.access().probe())) {
                return false;
            }
        }
        return true;
    }

    /**
     * Where the source of a consumer is evaluated, as the consumer computed at {@code reader} reads it.
     *
     * @param reader an instance where the consumer is computed
     * @param source which of its sources
     * @param path the moves from the source's base to the consumer
     * @return the source's instance
     */
    private Instance sourceInstance(Instance reader, int source, List<Node> path) {
        Node consumer = reader.node();
        Node base = path.isEmpty() ? consumer.source(source) : path.get(0).source(0);
        Group group = reader.group();
        if (consumer.op() == Op.GATHER && source == 0 || consumer.op() == Op.SCATTER && source == 0) {
            return new Instance(group, base, reader.segment(), Access.buffered(base, path)); // read at data-given positions
        }
        if (consumer.op() == Op.SCATTER) {
            return new Instance(group, base, Segment.SCATTER_SOURCE, Access.of(base, path));
        }
        if (consumer.op() == Op.CONTRACT) {
            List<Node> operandPath = path;
            if (!path.isEmpty() && path.get(path.size() - 1).op() == Op.EXPAND) {
                operandPath = path.subList(0, path.size() - 1); // the operand is read un-expanded
            }
            return new Instance(group, base, source == 0 ? Segment.LEFT : Segment.RIGHT, Access.of(base, operandPath));
        }
        if (isReduction(consumer)) {
            return new Instance(group, base, Segment.REDUCE_SOURCE, Access.of(base, path));
        }
        return new Instance(group, base, reader.segment(), Access.of(base, path).then(base, reader.access()));
    }

    // ------------------------------------------------------------------ sibling kernels

    /**
     * Merges kernels that iterate over one space, read a common buffer and do not depend on each
     * other (in either direction, through any chain of kernels) into one kernel with several outputs.
     */
    private void mergeSiblings() {
        for (int i = 0; i < groups.size(); i++) {
            Group first = groups.get(i);
            if (first.mergedInto != null) {
                continue;
            }
            for (int j = i + 1; j < groups.size(); j++) {
                Group second = groups.get(j);
                if (second.mergedInto == null && mergeable(first, second)) {
                    merge(first, second);
                }
            }
        }
        List<Group> merged = new ArrayList<>();
        for (Group group : groups) {
            if (group.mergedInto == null) {
                merged.add(group);
            }
        }
        groups = topologicalOrder(merged);
    }

    private boolean mergeable(Group a, Group b) {
        if (a.scalar || b.scalar || a.scatter || b.scatter || a.size + b.size > GROUP_CAPACITY || Collections.disjoint(a.loads, b.loads)
                || !sameSpace(a, b)) {
            return false;
        }
        return !reaches(a, b) && !reaches(b, a);
    }

    /** Elementwise kernels of one output shape, or reductions of one source shape, axes and result shape. */
    private boolean sameSpace(Group a, Group b) {
        if (!Arrays.equals(a.root().shape(), b.root().shape())) {
            return false;
        }
        if (a.reductions.isEmpty() || b.reductions.isEmpty()) {
            return a.reductions.isEmpty() && b.reductions.isEmpty();
        }
        Node x = a.reductions.get(0);
        Node y = b.reductions.get(0);
        if (x.op() == Op.CONTRACT || y.op() == Op.CONTRACT || !Arrays.equals(x.shape(), y.shape())) {
            return false;
        }
        return Arrays.equals(x.source(0).shape(), y.source(0).shape())
                && Arrays.equals(((dev.ein4j.ir.AxesArgument) x.argument()).axes(), ((dev.ein4j.ir.AxesArgument) y.argument()).axes());
    }

    /** Whether {@code from} reads, directly or through other kernels, what {@code to} writes. */
    private static boolean reaches(Group from, Group to) {
        Set<Group> seen = Collections.newSetFromMap(new IdentityHashMap<>());
        List<Group> stack = new ArrayList<>();
        stack.add(from.resolve());
        Group target = to.resolve();
        while (!stack.isEmpty()) {
            Group group = stack.remove(stack.size() - 1);
            for (Group read : group.reads) {
                Group resolved = read.resolve();
                if (resolved == target) {
                    return true;
                }
                if (seen.add(resolved)) {
                    stack.add(resolved);
                }
            }
        }
        return false;
    }

    private void merge(Group into, Group other) {
        other.mergedInto = into;
        into.outputs.addAll(other.outputs);
        into.reductions.addAll(other.reductions);
        into.reads.addAll(other.reads);
        into.loads.addAll(other.loads);
        into.size += other.size;
        for (Node output : other.outputs) {
            owners.put(output, into);
        }
    }

    /** Orders kernels so that each comes after those it reads (Kahn's algorithm, stable). */
    private static List<Group> topologicalOrder(List<Group> groups) {
        List<Group> ordered = new ArrayList<>();
        Set<Group> placed = Collections.newSetFromMap(new IdentityHashMap<>());
        List<Group> remaining = new ArrayList<>(groups);
        while (!remaining.isEmpty()) {
            boolean progress = false;
            for (int i = 0; i < remaining.size(); i++) {
                Group group = remaining.get(i);
                boolean ready = true;
                for (Group read : group.reads) {
                    Group resolved = read.resolve();
                    if (resolved != group && !placed.contains(resolved)) {
                        ready = false;
                        break;
                    }
                }
                if (ready) {
                    ordered.add(group);
                    placed.add(group);
                    remaining.remove(i);
                    progress = true;
                    break;
                }
            }
            if (!progress) {
                throw new IllegalStateException("kernels read each other in a cycle");
            }
        }
        return ordered;
    }

    // ------------------------------------------------------------------ results

    /** @return the kernels to build, in an order where every kernel comes after those it reads */
    List<Group> groups() {
        return groups;
    }

    /**
     * @param node a computing node of the graph
     * @return what was decided for it, or null if it is not computed
     */
    Decision decision(Node node) {
        return decisions.get(node);
    }

    /**
     * @param node a realized node, or a requested one fused as an extra output
     * @return the kernel that writes it
     */
    Group owner(Node node) {
        Group group = owners.get(node);
        return group == null ? null : group.resolve();
    }

    /**
     * @param output a node a kernel writes
     * @return the instance where it is computed: its own root instance, or its place in the kernel that reads it
     */
    Instance outputInstance(Node output) {
        return instances.get(output).get(0);
    }

    /**
     * @param instance an instance where its node is computed
     * @return the instances of the node's sources as read there
     */
    Instance[] sources(Instance instance) {
        Instance[] found = sourcesOf.get(instance);
        if (found == null) {
            throw new IllegalStateException("no sources recorded for " + instance.node());
        }
        return found;
    }

    /**
     * @param node a node
     * @param group a kernel (resolved)
     * @return whether the node is computed inside that kernel (rather than loaded or generated)
     */
    boolean computesIn(Node node, Group group) {
        if (isLeaf(node) || node.op().group() == Op.Group.CREATION) {
            return false;
        }
        Decision decision = decisions.get(node);
        return decision == Decision.FUSE || decision == Decision.DUPLICATE || decision == Decision.REDUCTION
                || (decision == Decision.REALIZE || decision == Decision.SCALAR) && owner(node) == group;
    }

    /**
     * @param node a node
     * @return whether it is a generator inlined into its readers
     */
    boolean isInlined(Node node) {
        return decisions.get(node) == Decision.INLINE;
    }

    /** @return the nodes bound after the run besides the requested ones (kept random tensors, first uses) */
    Set<Node> extraBindings() {
        return bound;
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
}
