package dev.ein4j.tensor;

import dev.ein4j.error.ShapeException;
import dev.ein4j.ir.AxesArgument;
import dev.ein4j.ir.DType;
import dev.ein4j.ir.Node;
import dev.ein4j.ir.ConstantArgument;
import dev.ein4j.ir.OpArgument;
import dev.ein4j.runtime.Lifetimes;
import dev.ein4j.ir.Op;
import dev.ein4j.ir.Shapes;
import java.util.Arrays;
import java.util.List;

/**
 * Making IR nodes from tensors: the one place where gradient tracking is decided, types are
 * promoted and shapes broadcast. Every family of tensor functions builds on these.
 */
final class Ops {

    private Ops() {
    }

    /**
     * A node of any primitive. Gradients flow through it when gradient mode is on, its op and type
     * allow it, and some source tracks them; inside a no-grad scope the result is detached.
     */
    static Tensor apply(Op op, DType dtype, int[] shape, OpArgument argument, Tensor... sources) {
        Node[] nodes = new Node[sources.length];
        for (int i = 0; i < sources.length; i++) {
            nodes[i] = sources[i].node();
            Lifetimes.requireOpen(nodes[i], op.label());
        }
        boolean enabled = GradientMode.isEnabled();
        Node node = Lifetimes.adopt(new Node(op, dtype, shape, argument, enabled && Node.tracksGradient(op, dtype, nodes), nodes));
        if (!enabled && op != Op.DETACH) {
            node = Lifetimes.adopt(new Node(Op.DETACH, dtype, shape, null, false, node)); // no gradient flows out of a no-grad scope
        }
        return Tensor.wrap(node);
    }

    static Tensor unary(Op op, Tensor x) {
        return apply(op, x.dtype(), x.shape(), null, x);
    }

    /** A binary primitive on the promoted type and the broadcast shape; comparisons give BOOL. */
    static Tensor binary(Op op, Tensor x, Tensor y) {
        DType type = x.dtype().promote(y.dtype());
        int[] shape = broadcastShapes(op.label(), x.shape(), y.shape());
        DType result = op == Op.CMPLT || op == Op.CMPEQ ? DType.BOOL : type;
        return apply(op, result, shape, null, broadcastTo(cast(x, type), shape), broadcastTo(cast(y, type), shape));
    }

    /** Floating operations on int32 or bool tensors work in float32, as PyTorch's do. */
    static Tensor floating(Tensor x) {
        return x.dtype().isFloating() ? x : cast(x, DType.FLOAT32);
    }

    static Tensor cast(Tensor x, DType dtype) {
        return dtype == x.dtype() ? x : apply(Op.CAST, dtype, x.shape(), null, x);
    }

    /**
     * A number combined with a tensor: of the tensor's type if it is floating; for int32 and bool
     * tensors an int32 if the number is whole, else a float32 (PyTorch's rule for Python scalars).
     */
    static Tensor scalarFor(Tensor x, double value) {
        DType type = x.dtype().isFloating() ? x.dtype()
                : value == Math.rint(value) && Math.abs(value) <= Integer.MAX_VALUE ? DType.INT32 : DType.FLOAT32;
        return constant(value, type, new int[0]);
    }

    static Tensor constant(double value, DType dtype, int[] shape) {
        return Tensor.wrap(Lifetimes.adopt(new Node(Op.CONST, dtype, shape, new ConstantArgument(value), false)));
    }

    /** numpy broadcasting to a shape known to be compatible: leading unit dimensions, then EXPAND. */
    static Tensor broadcastTo(Tensor x, int[] target) {
        int[] shape = x.shape();
        if (Arrays.equals(shape, target)) {
            return x;
        }
        Tensor result = x;
        if (shape.length < target.length) {
            int[] padded = new int[target.length];
            Arrays.fill(padded, 1);
            System.arraycopy(shape, 0, padded, target.length - shape.length, shape.length);
            result = apply(Op.RESHAPE, x.dtype(), padded, null, x);
            shape = padded;
        }
        return Arrays.equals(shape, target) ? result : apply(Op.EXPAND, x.dtype(), target, null, result);
    }

    /** numpy's broadcasting rule for two shapes. */
    static int[] broadcastShapes(String operation, int[] a, int[] b) {
        int rank = Math.max(a.length, b.length);
        int[] result = new int[rank];
        for (int k = 0; k < rank; k++) {
            int x = k < rank - a.length ? 1 : a[k - (rank - a.length)];
            int y = k < rank - b.length ? 1 : b[k - (rank - b.length)];
            if (x != y && x != 1 && y != 1) {
                throw new ShapeException(operation, List.of(Shapes.toLong(a), Shapes.toLong(b)), "shapes " + Arrays.toString(a)
                        + " and " + Arrays.toString(b) + " do not broadcast: dimension " + k + " has lengths " + x + " and " + y);
            }
            result[k] = x == 1 ? y : x;
        }
        return result;
    }

    /**
     * A REDUCE primitive, the reduced axes kept as length 1. Axes along which x is only a broadcast
     * (an EXPAND, or a constant) are never looped over: the unbroadcast values are reduced and then
     * scaled, a sum multiplied by the broadcast length, a product raised to it, a maximum unchanged,
     * so {@code Tensor.zeros(100000, 100000, 100000).sum()} is one multiplication.
     */
    static Tensor reduce(Tensor x, Op op, int[] axes) {
        if (axes.length == 0) {
            return x;
        }
        Tensor narrowed = narrowBroadcast(x, axes);
        if (narrowed != null) {
            long count = x.size() / Math.max(1, narrowed.size());
            return scaleReduction(reduce(narrowed, op, axes), op, x.size() == 0 ? 0 : count);
        }
        int[] shape = x.shape();
        for (int axis : axes) {
            shape[axis] = 1;
        }
        return apply(op, x.dtype(), shape, new AxesArgument(axes.clone()), x);
    }

    /** x with the reduced axes along which it is a broadcast cut to length 1, or null if there are none. */
    private static Tensor narrowBroadcast(Tensor x, int[] axes) {
        Node node = x.node();
        boolean constant = node.op() == Op.CONST;
        if (!constant && node.op() != Op.EXPAND) {
            return null;
        }
        int[] shape = x.shape();
        int[] source = constant ? new int[shape.length] : node.source(0).shape();
        int[] narrowed = shape.clone();
        boolean any = false;
        for (int axis : axes) {
            if ((constant || source[axis] == 1) && shape[axis] > 1) {
                narrowed[axis] = 1;
                any = true;
            }
        }
        if (!any) {
            return null;
        }
        return constant ? constant(node.constantValue(), x.dtype(), narrowed) : broadcastTo(Tensor.wrap(node.source(0)), narrowed);
    }

    /** The reduction of {@code count} copies of each value, from the reduction of one copy. */
    private static Tensor scaleReduction(Tensor once, Op op, long count) {
        DType type = once.dtype();
        if (op == Op.REDUCE_MAX || type == DType.BOOL && count > 0) {
            return once; // max, and "or"/"and" of copies, are the value itself
        }
        if (op == Op.SUM) {
            // integers wrap, so n copies add up to (n mod 2^32)·x
            double factor = type == DType.INT32 ? (int) count : type == DType.BOOL ? 0 : (double) count;
            return binary(Op.MUL, once, constant(factor, type, new int[0]));
        }
        Tensor power = constant(1.0, type, once.shape());
        Tensor square = once;
        for (long n = count; n > 0; n >>= 1) { // Π of n copies = xⁿ, by squaring
            if ((n & 1) == 1) {
                power = binary(Op.MUL, power, square);
            }
            if (n > 1) {
                square = binary(Op.MUL, square, square);
            }
        }
        return power;
    }

    /** CONTRACT of two same-shape tensors over the given axes, kept as length 1. */
    static Tensor contract(Tensor x, Tensor y, int[] axes) {
        if (!Arrays.equals(x.shape(), y.shape())) {
            throw new ShapeException("contract", List.of(Shapes.toLong(x.shape()), Shapes.toLong(y.shape())),
                    "CONTRACT needs operands of one shape");
        }
        DType type = x.dtype().promote(y.dtype());
        int[] shape = x.shape();
        for (int axis : axes) {
            shape[axis] = 1;
        }
        return apply(Op.CONTRACT, type, shape, new AxesArgument(axes.clone()), cast(x, type), cast(y, type));
    }

    /** @return the dimension an axis argument names (negative counts from the end) */
    static int axis(Tensor x, int axis, String operation) {
        int rank = x.rank();
        int normalized = axis < 0 ? axis + rank : axis;
        if (normalized < 0 || normalized >= rank) {
            throw error(x, operation, "axis " + axis + " is out of range for a tensor of " + rank + " dimension"
                    + (rank == 1 ? "" : "s"));
        }
        return normalized;
    }

    /** @return the axes, normalized and ascending; a repeat is an error */
    static int[] axes(Tensor x, int[] axes, String operation) {
        Arguments.notNull(axes, "axes");
        int[] normalized = new int[axes.length];
        for (int i = 0; i < axes.length; i++) {
            normalized[i] = axis(x, axes[i], operation);
        }
        Arrays.sort(normalized);
        for (int i = 1; i < normalized.length; i++) {
            if (normalized[i] == normalized[i - 1]) {
                throw error(x, operation, "axis " + normalized[i] + " is given twice");
            }
        }
        return normalized;
    }

    static int[] allAxes(Tensor x) {
        return java.util.stream.IntStream.range(0, x.rank()).toArray();
    }

    static ShapeException error(Tensor x, String operation, String reason) {
        return new ShapeException(operation, List.of(Shapes.toLong(x.shape())), reason);
    }
}
