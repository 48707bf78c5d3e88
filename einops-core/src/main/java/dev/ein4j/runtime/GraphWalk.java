package dev.ein4j.runtime;

import dev.ein4j.backend.Backend;
import dev.ein4j.error.ClosedTensorException;
import dev.ein4j.ir.Node;
import dev.ein4j.ir.Op;
import dev.ein4j.ir.View;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * One pass over the part of a graph a realization computes: the nodes without data in post-order
 * (sources first, by explicit stack), the computed nodes it reads (its leaves, with a snapshot of
 * their data: another thread may close them meanwhile, the snapshot keeps the buffer), the values of
 * its CONST and RAND nodes (the kernels' parameters), and its {@link Signature}: everything the
 * schedule depends on, and nothing it does not (no values, no buffers). Two steps of a training
 * loop have equal signatures, so the second replays the first's schedule.
 */
final class GraphWalk {

    final List<Node> order = new ArrayList<>();
    final List<Node> leaves = new ArrayList<>();
    final List<Realized> leafData = new ArrayList<>();
    final NodePositions positions = new NodePositions();
    /** The walk's stack: nodes being visited and, per node, the next source to visit. */
    private Node[] stack = new Node[32];
    private int[] cursors = new int[32];
    /** Per node of {@link #order}: its parameter's index, or −1. */
    private int[] parameterOf = new int[16];
    private long[] parameters = new long[8];
    private int parameterCount;
    private final SignatureBuilder signature = new SignatureBuilder();
    /** The backend that runs the graph. */
    Backend backend;

    /** A reference to a node in the signature: its position in the order, or −(leaf index + 1). */
    int reference(Node node) {
        int position = positions.get(node, Integer.MIN_VALUE);
        if (position == Integer.MIN_VALUE) {
            throw new IllegalStateException("not walked: " + node);
        }
        return position;
    }

    /** @return whether the walk reached the node */
    boolean reached(Node node) {
        return positions.contains(node);
    }

    /**
     * @param wanted the nodes to compute (none computed)
     * @param assignTargets the leaves written in place, or empty
     * @param fusion whether kernels fuse
     * @return the walk
     * @throws ClosedTensorException if the graph reads a closed leaf
     */
    static GraphWalk of(List<Node> wanted, List<Node> assignTargets, boolean fusion) {
        GraphWalk walk = new GraphWalk();
        try {
            walk.walk(wanted, assignTargets, fusion);
        } catch (RuntimeException failure) {
            walk.releaseLeaves();
            throw failure;
        }
        return walk;
    }

    private void walk(List<Node> wanted, List<Node> assignTargets, boolean fusion) {
        GraphWalk walk = this;
        walk.signature.add(fusion ? 1 : 0);
        walk.signature.add(wanted.size());
        walk.signature.add(assignTargets.size());
        for (Node root : wanted) {
            walk.visit(root);
        }
        for (Node target : assignTargets) {
            walk.visit(target);
        }
        for (Node root : wanted) {
            walk.signature.add(walk.reference(root));
        }
        for (Node target : assignTargets) {
            walk.signature.add(walk.reference(target));
        }
        // the graph runs where its data lives (its first leaf), else on the current backend
        walk.backend = walk.leaves.isEmpty() ? dev.ein4j.backend.Backends.current() : walk.leafData.get(0).storage().backend();
        for (int i = 0; i < walk.leaves.size(); i++) {
            walk.encodeLeaf(i, walk.backend);
        }
    }

    /** Post-order from one root, stopping at computed nodes. */
    private void visit(Node root) {
        if (positions.contains(root) || !enter(root)) {
            return;
        }
        int top = 0;
        stack[0] = root;
        cursors[0] = 0;
        while (top >= 0) {
            Node node = stack[top];
            int next = cursors[top];
            if (next < node.sourceCount()) {
                cursors[top] = next + 1;
                Node source = node.source(next);
                if (!positions.contains(source) && enter(source)) {
                    if (++top == stack.length) {
                        stack = Arrays.copyOf(stack, top * 2);
                        cursors = Arrays.copyOf(cursors, top * 2);
                    }
                    stack[top] = source;
                    cursors[top] = 0;
                }
            } else {
                stack[top--] = null;
                add(node);
            }
        }
    }

    /** @return true if the node is to be computed (and its sources visited); leaves are recorded at once */
    private boolean enter(Node node) {
        Realized data = Lifetimes.data(node);
        if (data == null && (node.op() == Op.INPUT || Lifetimes.isClosed(node))) {
            // a closed tensor's values are gone (a leaf's cannot be recomputed; nothing is, silently)
            throw ClosedTensorException.of(node.dtype().numpyName(), node.shape(), "a realization");
        }
        if (data != null) {
            data.storage().retain(); // the snapshot: released when the realization ends
            positions.put(node, -(leaves.size() + 1));
            leaves.add(node);
            leafData.add(data);
            return false;
        }
        positions.put(node, 0); // visiting: its position is set when it is added
        return true;
    }

    private void add(Node node) {
        int index = order.size();
        positions.put(node, index);
        order.add(node);
        if (index == parameterOf.length) {
            parameterOf = Arrays.copyOf(parameterOf, index * 2);
        }
        parameterOf[index] = -1;
        if (node.op() == Op.CONST) {
            parameterOf[index] = addParameter(Double.doubleToRawLongBits(node.constantValue()));
        } else if (node.op() == Op.RAND) {
            parameterOf[index] = addParameter(node.seed());
        }
        encodeNode(node);
    }

    private int addParameter(long bits) {
        if (parameterCount == parameters.length) {
            parameters = Arrays.copyOf(parameters, parameterCount * 2);
        }
        parameters[parameterCount] = bits;
        return parameterCount++;
    }

    private void encodeNode(Node node) {
        SignatureBuilder s = signature;
        int rank = node.rank();
        s.add(node.op().ordinal() | (long) node.dtype().ordinal() << 8 | (long) rank << 16
                | (long) node.sourceCount() << 24 | (Lifetimes.isKeptOnFirstUse(node) ? 1L << 32 : 0));
        for (int axis = 0; axis < rank; axis++) {
            s.add(node.length(axis));
        }
        if (node.argument() != null) {
            node.argument().encodeStructure(s::add);
        }
        for (int i = 0; i < node.sourceCount(); i++) {
            s.add(reference(node.source(i)));
        }
    }

    /** A leaf's type, view, buffer size and backend, and which earlier leaf shares its storage. */
    private void encodeLeaf(int index, Backend backend) {
        SignatureBuilder s = signature;
        Realized data = leafData.get(index);
        Node node = leaves.get(index);
        View view = data.view();
        s.add(node.dtype().ordinal() | (data.storage().backend() == backend ? 1L << 8 : 0));
        s.add(data.storage().buffer().size());
        s.add(view.rank());
        for (int a = 0; a < view.rank(); a++) {
            s.add(view.shape()[a]);
            s.add(view.stride(a));
        }
        s.add(view.offset());
        if (view.hasMask()) {
            for (int a = 0; a < view.rank(); a++) {
                s.add(view.maskStart()[a]);
                s.add(view.maskEnd()[a]);
            }
            s.add(Double.doubleToLongBits(view.padValue()));
        } else {
            s.add(-1);
        }
        s.add(aliasClass(index));
    }

    /**
     * @param leaf a leaf's index
     * @return the first leaf sharing its storage (itself if none comes earlier): leaves of one class
     *     read and write the same buffer
     */
    int aliasClass(int leaf) {
        Storage storage = leafData.get(leaf).storage();
        for (int j = 0; j < leaf; j++) {
            if (leafData.get(j).storage() == storage) {
                return j;
            }
        }
        return leaf;
    }

    /**
     * @param node a node of the order
     * @return the index of its parameter (a CONST's value, a RAND's seed) in {@link #parameters()}, or −1
     */
    int parameterIndex(Node node) {
        int position = positions.get(node, -1);
        return position >= 0 ? parameterOf[position] : -1;
    }

    /** @return the parameter values, in the order of their nodes */
    long[] parameters() {
        return Arrays.copyOf(parameters, parameterCount);
    }

    /** @return the signature */
    Signature signature() {
        return signature.build();
    }

    /** Gives back the snapshot's references on the leaves' storages. */
    void releaseLeaves() {
        for (Realized data : leafData) {
            data.storage().release();
        }
        leafData.clear();
    }

    /** Accumulates the numbers of a signature and their hash. */
    static final class SignatureBuilder {
        private long[] values = new long[64];
        private int size;
        private long hash = 0x9E3779B97F4A7C15L;

        void add(long value) {
            if (size == values.length) {
                values = Arrays.copyOf(values, size * 2);
            }
            values[size++] = value;
            hash = (hash ^ value) * 0x100000001B3L + (hash >>> 29);
        }

        Signature build() {
            return new Signature(Arrays.copyOf(values, size), hash);
        }
    }

    /** What a schedule depends on, as numbers; equal signatures have equal schedules. */
    static final class Signature {
        private final long[] values;
        private final long hash;

        Signature(long[] values, long hash) {
            this.values = values;
            this.hash = hash;
        }

        /** @return the number of values (for statistics) */
        int length() {
            return values.length;
        }

        @Override
        public boolean equals(Object other) {
            return other instanceof Signature that && hash == that.hash && Arrays.equals(values, that.values);
        }

        @Override
        public int hashCode() {
            return Long.hashCode(hash);
        }
    }
}
