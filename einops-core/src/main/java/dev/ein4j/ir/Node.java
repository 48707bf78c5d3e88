package dev.ein4j.ir;

import java.util.Arrays;
import java.util.concurrent.atomic.AtomicLong;

/**
 * One vertex of the IR graph: a primitive applied to source nodes. A node is a pure description of
 * a value; besides the gradient a leaf accumulates, its only mutable state is an opaque
 * {@link #attachment() attachment} that the runtime keeps on it (its computed data and lifetime),
 * which the IR never reads. Equality is identity; nothing here recurses over the graph.
 */
public final class Node {

    private static final AtomicLong IDS = new AtomicLong();

    private final long id = IDS.incrementAndGet();
    private final Op op;
    private final DType dtype;
    private final int[] shape;
    private final long size;
    private final Node[] sources;
    private final OpArgument argument;
    private final boolean requiresGrad;
    private volatile Node gradient;
    private volatile Object attachment;

    /**
     * @param op the primitive
     * @param dtype the output element type
     * @param shape the output shape
     * @param argument the op's argument, of {@link Op#argumentType()} (a {@link PermuteArgument} for PERMUTE, ...), or null
     * @param requiresGrad whether gradients flow into this node (ignored, false, for non-floating types)
     * @param sources the inputs
     * @throws dev.ein4j.error.ShapeException if the shape has a negative length or more than 2^63 − 1 elements
     * @throws IllegalArgumentException if the argument is not of the op's argument type
     */
    public Node(Op op, DType dtype, int[] shape, OpArgument argument, boolean requiresGrad, Node... sources) {
        Class<? extends OpArgument> expected = op.argumentType();
        if (expected == null ? argument != null : !expected.isInstance(argument)) {
            throw new IllegalArgumentException(op + " takes " + (expected == null ? "no argument" : "a " + expected.getSimpleName())
                    + ", not " + argument);
        }
        this.op = op;
        this.dtype = dtype;
        this.shape = shape.clone();
        this.size = Shapes.size(shape);
        this.sources = sources.clone();
        this.argument = argument;
        this.requiresGrad = requiresGrad && dtype.isFloating();
    }

    /**
     * Whether a new node tracks gradients: its op lets them through, its type is floating, and
     * some source tracks them. Gradient mode (a per-thread switch) is the caller's concern.
     *
     * @param op the primitive
     * @param dtype the new node's type
     * @param sources its sources
     * @return whether gradients flow into the new node
     */
    public static boolean tracksGradient(Op op, DType dtype, Node... sources) {
        if (!op.isDifferentiable() || !dtype.isFloating()) {
            return false;
        }
        for (Node source : sources) {
            if (source.requiresGrad) {
                return true;
            }
        }
        return false;
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
    public long size() {
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
    public OpArgument argument() {
        return argument;
    }

    /** @return a CONST's value */
    public double constantValue() {
        return ((ConstantArgument) argument).value();
    }

    /** @return a RAND's seed */
    public long seed() {
        return ((SeedArgument) argument).seed();
    }

    /** @return the runtime's state for this node (computed data, lifetime), or null; opaque to the IR */
    public Object attachment() {
        return attachment;
    }

    /**
     * Installs the runtime's state once.
     *
     * @param state the state
     * @return the state now attached (another thread's if it came first)
     */
    public Object attach(Object state) {
        synchronized (this) {
            if (attachment == null) {
                attachment = state;
            }
            return attachment;
        }
    }

    /** @return whether gradients flow into this node */
    public boolean requiresGrad() {
        return requiresGrad;
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
