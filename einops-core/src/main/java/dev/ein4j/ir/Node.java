package dev.ein4j.ir;

import dev.ein4j.backend.Realized;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicLong;

/**
 * One vertex of the IR graph: a primitive applied to source nodes. Nodes are immutable except for
 * two caches: the realized result (set once it is computed) and, for leaves that require gradients,
 * the accumulated gradient. Equality is identity; nothing here recurses over the graph.
 */
public final class Node {

    private static final AtomicLong IDS = new AtomicLong();

    private final long id = IDS.incrementAndGet();
    private final Op op;
    private final DType dtype;
    private final int[] shape;
    private final Node[] sources;
    private final Object argument;
    private final boolean requiresGrad;
    private volatile Realized realized;
    private volatile Node gradient;

    /**
     * @param op the primitive
     * @param dtype the output element type
     * @param shape the output shape
     * @param argument the op's argument (see {@link Op}: a {@link PermuteArgument} for PERMUTE, ...), or null
     * @param requiresGrad whether gradients flow into this node
     * @param sources the inputs
     */
    public Node(Op op, DType dtype, int[] shape, Object argument, boolean requiresGrad, Node... sources) {
        this.op = op;
        this.dtype = dtype;
        this.shape = shape.clone();
        this.sources = sources.clone();
        this.argument = argument;
        this.requiresGrad = requiresGrad;
    }

    /**
     * A leaf holding data that is already computed.
     *
     * @param data the buffer and view
     * @param dtype the element type
     * @param requiresGrad whether this leaf collects gradients
     * @return the INPUT node
     */
    public static Node input(Realized data, DType dtype, boolean requiresGrad) {
        Node node = new Node(Op.INPUT, dtype, data.view().shape(), null, requiresGrad);
        node.realized = data;
        return node;
    }

    /** @return a unique, increasing number (creation order) */
    public long id() {
        return id;
    }

    /** @return the primitive */
    public Op op() {
        return op;
    }

    /** @return the output element type */
    public DType dtype() {
        return dtype;
    }

    /** @return a copy of the output shape */
    public int[] shape() {
        return shape.clone();
    }

    /** @return the number of output dimensions */
    public int rank() {
        return shape.length;
    }

    /**
     * @param axis a dimension index
     * @return its length
     */
    public int length(int axis) {
        return shape[axis];
    }

    /** @return the number of output elements */
    public int size() {
        int size = 1;
        for (int length : shape) {
            size *= length;
        }
        return size;
    }

    /** @return the number of sources */
    public int sourceCount() {
        return sources.length;
    }

    /**
     * @param index which source
     * @return that source
     */
    public Node source(int index) {
        return sources[index];
    }

    /** @return the op's argument, or null */
    public Object argument() {
        return argument;
    }

    /** @return whether gradients flow into this node */
    public boolean requiresGrad() {
        return requiresGrad;
    }

    /** @return the computed result, or null if not computed (or not kept) */
    public Realized realized() {
        return realized;
    }

    /** @param result the computed result, set by the runtime */
    public void setRealized(Realized result) {
        this.realized = result;
    }

    /** @return the accumulated gradient of a leaf, or null */
    public Node gradient() {
        return gradient;
    }

    /** @param gradient the new accumulated gradient, or null to clear it */
    public void setGradient(Node gradient) {
        this.gradient = gradient;
    }

    @Override
    public String toString() {
        return op + "#" + id + Arrays.toString(shape) + (argument == null ? "" : " " + argument);
    }
}
