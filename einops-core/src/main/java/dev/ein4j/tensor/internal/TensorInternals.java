package dev.ein4j.tensor.internal;

import dev.ein4j.ir.DType;
import dev.ein4j.ir.Node;
import dev.ein4j.ir.Op;
import dev.ein4j.ir.OpArgument;
import dev.ein4j.tensor.Generator;
import dev.ein4j.tensor.Tensor;

/**
 * Internal: the low-level view of tensors that ein4j's own modules need (autograd builds gradient
 * graphs from IR nodes, layers make primitives directly). Not part of the public API; user code
 * works with {@link Tensor}'s methods.
 */
public final class TensorInternals {

    /** What the tensor package provides; installed once, when {@link Tensor} is initialized. */
    public interface Bridge {
        /** @see TensorInternals#node */
        Node node(Tensor tensor);

        /** @see TensorInternals#wrap */
        Tensor wrap(Node node);

        /** @see TensorInternals#apply */
        Tensor apply(Op op, DType dtype, int[] shape, OpArgument argument, Tensor... sources);

        /** @see TensorInternals#reduce */
        Tensor reduce(Tensor tensor, Op op, int[] axes);

        /** @see TensorInternals#contract */
        Tensor contract(Tensor left, Tensor right, int[] axes);

        /** @see TensorInternals#broadcastTo */
        Tensor broadcastTo(Tensor tensor, int[] shape);

        /** @see TensorInternals#setGradient */
        void setGradient(Tensor leaf, Tensor gradient);

        /** @see TensorInternals#uniformOnce */
        Tensor uniformOnce(Generator generator, DType dtype, int[] shape);
    }

    private static volatile Bridge bridge;

    private TensorInternals() {
    }

    /**
     * Called by {@link Tensor}'s static initializer; any later call fails.
     *
     * @param implementation the tensor package's bridge
     */
    public static synchronized void install(Bridge implementation) {
        if (bridge != null) {
            throw new IllegalStateException("the tensor bridge is installed once, by Tensor");
        }
        bridge = implementation;
    }

    private static Bridge bridge() {
        Bridge installed = bridge;
        if (installed == null) {
            try {
                Class.forName(Tensor.class.getName(), true, Tensor.class.getClassLoader()); // runs Tensor's initializer
            } catch (ClassNotFoundException impossible) {
                throw new IllegalStateException(impossible);
            }
            installed = bridge;
        }
        return installed;
    }

    /**
     * @param tensor a tensor
     * @return the IR node it stands for
     */
    public static Node node(Tensor tensor) {
        return bridge().node(tensor);
    }

    /**
     * @param node an IR node
     * @return a tensor for it
     */
    public static Tensor wrap(Node node) {
        return bridge().wrap(node);
    }

    /**
     * A node of any primitive; gradients flow through it when gradient mode is on and some source
     * requires them.
     *
     * @param op the primitive
     * @param dtype output type
     * @param shape output shape
     * @param argument the op's argument
     * @param sources the inputs
     * @return the tensor
     */
    public static Tensor apply(Op op, DType dtype, int[] shape, OpArgument argument, Tensor... sources) {
        return bridge().apply(op, dtype, shape, argument, sources);
    }

    /**
     * @param tensor a tensor
     * @param op SUM, REDUCE_MAX or PROD
     * @param axes ascending dimensions, kept as length 1
     * @return the REDUCE primitive
     */
    public static Tensor reduce(Tensor tensor, Op op, int... axes) {
        return bridge().reduce(tensor, op, axes);
    }

    /**
     * @param left a tensor
     * @param right a tensor of the same shape
     * @param axes the summed dimensions, kept as length 1
     * @return the CONTRACT primitive
     */
    public static Tensor contract(Tensor left, Tensor right, int... axes) {
        return bridge().contract(left, right, axes);
    }

    /**
     * @param tensor a tensor
     * @param shape a shape it broadcasts to
     * @return the broadcast (RESHAPE and EXPAND)
     */
    public static Tensor broadcastTo(Tensor tensor, int... shape) {
        return bridge().broadcastTo(tensor, shape);
    }

    /**
     * Uniform draws in [0, 1) that are not kept: unlike {@link Tensor#rand}, they are generated
     * inside the one kernel that reads them (a dropout mask), never written to a buffer.
     *
     * @param generator the random stream
     * @param dtype FLOAT32 or FLOAT64
     * @param shape the shape
     * @return the lazy RAND node
     */
    public static Tensor uniformOnce(Generator generator, DType dtype, int[] shape) {
        return bridge().uniformOnce(generator, dtype, shape);
    }

    /**
     * @param leaf a leaf requiring gradients
     * @param gradient its new accumulated gradient, or null
     */
    public static void setGradient(Tensor leaf, Tensor gradient) {
        bridge().setGradient(leaf, gradient);
    }
}
