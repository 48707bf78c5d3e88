package dev.ein4j.tensor;

import dev.ein4j.error.EinopsException;
import dev.ein4j.error.ShapeException;
import dev.ein4j.ir.AxesArgument;
import dev.ein4j.ir.DType;
import dev.ein4j.ir.Node;
import dev.ein4j.ir.Op;
import dev.ein4j.ir.PadArgument;
import dev.ein4j.ir.PermuteArgument;
import dev.ein4j.ir.ShrinkArgument;
import dev.ein4j.ir.View;
import dev.ein4j.lowering.ArrowLowering;
import dev.ein4j.lowering.LoweringPlan;
import dev.ein4j.lowering.Reduction;
import dev.ein4j.lowering.Step;
import dev.ein4j.pattern.Operation;
import dev.ein4j.kernel.HostData;
import dev.ein4j.runtime.Realizer;
import dev.ein4j.runtime.Results;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;

/**
 * An immutable, lazy n-dimensional array of float32 or float64: a handle to a node of the IR graph.
 * Operations build graph nodes and return new tensors; nothing is computed until data is read
 * ({@link #realize()}, {@link #toFloatArray()}, {@link #toDoubleArray()}, {@link #item()},
 * {@link #toString()}).
 *
 * <pre>{@code
 * Tensor images = Tensor.rand(42, 8, 3, 32, 32);                       // b c h w
 * Tensor patches = images.rearrange("b c (h p1) (w p2) -> b (h w) (p1 p2 c)", Axes.of("p1", 4, "p2", 4));
 * Tensor pooled = images.reduce("b c (h 2) (w 2) -> b c h w", "max");
 * Tensor scores = Ein.einsum("b i d, b j d -> b i j", q, k);
 * }</pre>
 *
 * <p>Binary operations broadcast as numpy does (shapes aligned from the right, length 1 stretches)
 * and promote float32 with float64 to float64. No operation modifies its operands; the only mutable
 * state of a tensor is the gradient a leaf accumulates ({@link #backward()}, {@link #zeroGrad()}).
 */
public final class Tensor {

    private final Node node;

    private Tensor(Node node) {
        this.node = node;
    }

    /**
     * Low-level: wraps an IR node (for the autograd module and backends' tests).
     *
     * @param node the node
     * @return a tensor for it
     */
    public static Tensor fromNode(Node node) {
        return new Tensor(node);
    }

    /** @return low-level: the IR node this tensor stands for */
    public Node node() {
        return node;
    }

    // =================================================================== creation

    /**
     * A float32 tensor holding a copy of the data, in row-major order.
     *
     * @param data the elements, exactly as many as the shape holds
     * @param shape the shape (none for a scalar)
     * @return the tensor
     * @throws ShapeException if the data length does not match the shape
     */
    public static Tensor of(float[] data, int... shape) {
        double[] values = new double[data.length];
        for (int i = 0; i < data.length; i++) {
            values[i] = data[i];
        }
        return fromData(values, DType.FLOAT32, shape);
    }

    /**
     * A float64 tensor holding a copy of the data, in row-major order.
     *
     * @param data the elements, exactly as many as the shape holds
     * @param shape the shape (none for a scalar)
     * @return the tensor
     * @throws ShapeException if the data length does not match the shape
     */
    public static Tensor of(double[] data, int... shape) {
        return fromData(data, DType.FLOAT64, shape);
    }

    /**
     * A tensor of the given type holding a copy of the data, each value rounded to the type.
     *
     * @param data the elements in row-major order
     * @param dtype the element type
     * @param shape the shape
     * @return the tensor
     * @throws ShapeException if the data length does not match the shape
     */
    public static Tensor of(double[] data, DType dtype, int... shape) {
        return fromData(data, dtype, shape);
    }

    /**
     * An int32 tensor holding a copy of the data, in row-major order.
     *
     * @param data the elements
     * @param shape the shape (none for a scalar)
     * @return the tensor
     */
    public static Tensor of(int[] data, int... shape) {
        return fromHost(new HostData.Int32(data.clone()), shape);
    }

    /**
     * A bool tensor holding a copy of the data, in row-major order.
     *
     * @param data the elements
     * @param shape the shape (none for a scalar)
     * @return the tensor
     */
    public static Tensor of(boolean[] data, int... shape) {
        byte[] bytes = new byte[data.length];
        for (int i = 0; i < data.length; i++) {
            bytes[i] = data[i] ? (byte) 1 : (byte) 0;
        }
        return fromHost(new HostData.Bool(bytes), shape);
    }

    private static Tensor fromHost(HostData data, int[] shape) {
        long size = checkShape("of", shape);
        if (data.length() != size) {
            throw new ShapeException("of", List.of(toLong(shape)), "the shape " + Arrays.toString(shape) + " holds "
                    + size + " elements but " + data.length() + " were given");
        }
        return new Tensor(Realizer.input(data, shape, false));
    }

    private static Tensor fromData(double[] data, DType dtype, int[] shape) {
        long size = checkShape("of", shape);
        if (data.length != size) {
            throw new ShapeException("of", List.of(toLong(shape)), "the shape " + Arrays.toString(shape) + " holds "
                    + size + " elements but " + data.length + " were given");
        }
        return new Tensor(Realizer.input(HostData.fromDoubles(dtype, data), shape, false));
    }

    /**
     * @param value the value
     * @return a float32 scalar (shape [])
     */
    public static Tensor scalar(double value) {
        return full(value, DType.FLOAT32);
    }

    /**
     * @param value the value
     * @param dtype the type
     * @return a scalar (shape [])
     */
    public static Tensor scalar(double value, DType dtype) {
        return full(value, dtype);
    }

    /**
     * @param shape the shape
     * @return a float32 tensor of zeros
     */
    public static Tensor zeros(int... shape) {
        return full(0.0, DType.FLOAT32, shape);
    }

    /**
     * @param dtype the type
     * @param shape the shape
     * @return a tensor of zeros
     */
    public static Tensor zeros(DType dtype, int... shape) {
        return full(0.0, dtype, shape);
    }

    /**
     * @param shape the shape
     * @return a float32 tensor of ones
     */
    public static Tensor ones(int... shape) {
        return full(1.0, DType.FLOAT32, shape);
    }

    /**
     * @param dtype the type
     * @param shape the shape
     * @return a tensor of ones
     */
    public static Tensor ones(DType dtype, int... shape) {
        return full(1.0, dtype, shape);
    }

    /**
     * A tensor of one repeated value; it occupies one element of memory however large its shape
     * (a CONST node read through zero strides).
     *
     * @param value the value
     * @param dtype the type
     * @param shape the shape
     * @return the tensor
     */
    public static Tensor full(double value, DType dtype, int... shape) {
        checkShape("full", shape);
        return new Tensor(new Node(Op.CONST, dtype, shape, value, false));
    }

    /**
     * @param length n
     * @return the float32 vector [0, 1, ..., n−1]
     */
    public static Tensor arange(int length) {
        return arange(DType.FLOAT32, length);
    }

    /**
     * @param dtype the type
     * @param length n
     * @return the vector [0, 1, ..., n−1]
     */
    public static Tensor arange(DType dtype, int length) {
        checkShape("arange", new int[] {length});
        return new Tensor(new Node(Op.IOTA, DType.INT32, new int[] {length}, null, false)).cast(dtype);
    }

    /**
     * Uniform random values in [0, 1), float32, from a counter-based generator: the same seed gives
     * the same values on every backend.
     *
     * @param seed the seed
     * @param shape the shape
     * @return the tensor
     */
    public static Tensor rand(long seed, int... shape) {
        return rand(seed, DType.FLOAT32, shape);
    }

    /**
     * @param seed the seed
     * @param dtype the type
     * @param shape the shape
     * @return uniform random values in [0, 1)
     */
    public static Tensor rand(long seed, DType dtype, int... shape) {
        checkShape("rand", shape);
        return new Tensor(new Node(Op.RAND, dtype, shape, seed, false));
    }

    /**
     * Standard normal values by the Box–Muller transform of two uniform tensors:
     * √(−2 ln(1 − u₁)) · cos(2π u₂).
     *
     * @param seed the seed
     * @param shape the shape
     * @return float32 normal values
     */
    public static Tensor randn(long seed, int... shape) {
        return randn(seed, DType.FLOAT32, shape);
    }

    /**
     * @param seed the seed
     * @param dtype the type
     * @param shape the shape
     * @return standard normal values
     */
    public static Tensor randn(long seed, DType dtype, int... shape) {
        Tensor u1 = rand(seed, DType.FLOAT64, shape);
        Tensor u2 = rand(seed ^ 0x5DEECE66DL, DType.FLOAT64, shape);
        Tensor radius = u1.neg().add(1.0).log().mul(-2.0).sqrt();
        return radius.mul(u2.mul(2 * Math.PI).cos()).cast(dtype);
    }

    /**
     * @param length n
     * @param dtype the type
     * @return the n×n identity matrix, from IOTA and CMPEQ
     */
    public static Tensor eye(int length, DType dtype) {
        Tensor index = arange(dtype, length);
        return index.reshape(length, 1).eq(index.reshape(1, length)).cast(dtype);
    }

    // =================================================================== properties

    /** @return a copy of the shape */
    public int[] shape() {
        return node.shape();
    }

    /**
     * @param axis a dimension, negative counts from the end
     * @return its length
     */
    public int length(int axis) {
        return node.length(axis(axis));
    }

    /** @return the number of dimensions */
    public int rank() {
        return node.rank();
    }

    /** @return the number of elements */
    public long size() {
        return node.size();
    }

    /** @return the element type */
    public DType dtype() {
        return node.dtype();
    }

    // =================================================================== elementwise

    /**
     * @param other addend, broadcast
     * @return this + other
     */
    public Tensor add(Tensor other) {
        return binary(Op.ADD, other);
    }

    /**
     * @param value addend
     * @return this + value
     */
    public Tensor add(double value) {
        return binary(Op.ADD, constant(value));
    }

    /**
     * @param other subtrahend, broadcast
     * @return this − other
     */
    public Tensor sub(Tensor other) {
        return add(other.neg());
    }

    /**
     * @param value subtrahend
     * @return this − value
     */
    public Tensor sub(double value) {
        return add(-value);
    }

    /**
     * @param other factor, broadcast
     * @return this · other
     */
    public Tensor mul(Tensor other) {
        return binary(Op.MUL, other);
    }

    /**
     * @param value factor
     * @return this · value
     */
    public Tensor mul(double value) {
        return binary(Op.MUL, constant(value));
    }

    /**
     * @param other divisor, broadcast
     * @return this / other, as this · (1/other)
     */
    public Tensor div(Tensor other) {
        return mul(other.reciprocal());
    }

    /**
     * @param value divisor
     * @return this / value
     */
    public Tensor div(double value) {
        return mul(1.0 / value);
    }

    /** @return −this */
    public Tensor neg() {
        return mul(-1.0);
    }

    /** @return e^this */
    public Tensor exp() {
        return unary(Op.EXP);
    }

    /** @return ln this (NaN below 0, −∞ at 0) */
    public Tensor log() {
        return unary(Op.LOG);
    }

    /** @return √this */
    public Tensor sqrt() {
        return unary(Op.SQRT);
    }

    /** @return 1/this */
    public Tensor reciprocal() {
        return unary(Op.RECIPROCAL);
    }

    /** @return sin this */
    public Tensor sin() {
        return unary(Op.SIN);
    }

    /** @return cos this, as sin(this + π/2) */
    public Tensor cos() {
        return add(Math.PI / 2).sin();
    }

    /** @return this², as this · this */
    public Tensor square() {
        return mul(this);
    }

    /**
     * Power with a constant exponent: repeated multiplication for small integers (exact for negative
     * bases), √ for 0.5, e^(p·ln x) otherwise (NaN for negative bases, as numpy).
     *
     * @param exponent p
     * @return this^p
     */
    public Tensor pow(double exponent) {
        if (exponent == Math.rint(exponent) && Math.abs(exponent) <= 16) {
            int power = (int) Math.abs(exponent);
            Tensor result = power == 0 ? ones(dtype(), shape()) : this;
            for (int k = 1; k < power; k++) {
                result = result.mul(this);
            }
            return exponent < 0 ? result.reciprocal() : result;
        }
        if (exponent == 0.5) {
            return sqrt();
        }
        return log().mul(exponent).exp();
    }

    /** @return |this|, as max(this, −this) */
    public Tensor abs() {
        return maximum(neg());
    }

    /** @return max(this, 0), as where(0 &lt; this, this, 0): the gradient at 0 is 0 */
    public Tensor relu() {
        return zerosLike().lt(this).where(this, zerosLike());
    }

    /** @return 1 / (1 + e^−this) */
    public Tensor sigmoid() {
        return neg().exp().add(1.0).reciprocal();
    }

    /** @return tanh this, as 2·sigmoid(2·this) − 1 */
    public Tensor tanh() {
        return mul(2.0).sigmoid().mul(2.0).sub(1.0);
    }

    /**
     * @param other broadcast
     * @return elementwise max (NaN if either is NaN)
     */
    public Tensor maximum(Tensor other) {
        return binary(Op.MAX, other);
    }

    /**
     * @param other broadcast
     * @return elementwise min, as −max(−this, −other)
     */
    public Tensor minimum(Tensor other) {
        return neg().maximum(other.neg()).neg();
    }

    /**
     * @param other broadcast
     * @return 1 where this &lt; other, else 0
     */
    public Tensor lt(Tensor other) {
        return binary(Op.CMPLT, other);
    }

    /**
     * @param other broadcast
     * @return 1 where this &gt; other, else 0
     */
    public Tensor gt(Tensor other) {
        return other.binary(Op.CMPLT, this);
    }

    /**
     * @param other broadcast
     * @return 1 where this ≤ other, else 0 (0 where either is NaN)
     */
    public Tensor le(Tensor other) {
        return lt(other).maximum(eq(other));
    }

    /**
     * @param other broadcast
     * @return 1 where this ≥ other, else 0 (0 where either is NaN)
     */
    public Tensor ge(Tensor other) {
        return gt(other).maximum(eq(other));
    }

    /**
     * @param other broadcast
     * @return 1 where this = other, else 0
     */
    public Tensor eq(Tensor other) {
        return binary(Op.CMPEQ, other);
    }

    /**
     * @param other broadcast
     * @return 1 where this ≠ other, else 0
     */
    public Tensor ne(Tensor other) {
        return eq(other).eq(full(0.0, DType.BOOL));
    }

    /**
     * @param value a constant
     * @return 1 where this &lt; value
     */
    public Tensor lt(double value) {
        return lt(constant(value));
    }

    /**
     * @param value a constant
     * @return 1 where this &gt; value
     */
    public Tensor gt(double value) {
        return gt(constant(value));
    }

    /**
     * Selects elementwise: this tensor is the condition (non-zero means true).
     *
     * @param whenTrue values where the condition holds, broadcast
     * @param whenFalse values elsewhere, broadcast
     * @return the selection
     */
    public Tensor where(Tensor whenTrue, Tensor whenFalse) {
        DType type = whenTrue.dtype().promote(whenFalse.dtype());
        int[] shape = broadcastShapes("where", broadcastShapes("where", shape(), whenTrue.shape()), whenFalse.shape());
        return make(Op.WHERE, type, shape, null, cast(DType.BOOL).broadcastTo(shape), whenTrue.cast(type).broadcastTo(shape),
                whenFalse.cast(type).broadcastTo(shape));
    }

    /**
     * @param dtype the target type
     * @return this tensor rounded to the type (itself if it already has it)
     */
    public Tensor cast(DType dtype) {
        return dtype == dtype() ? this : make(Op.CAST, dtype, shape(), null, this);
    }

    // =================================================================== reductions

    /** @return the sum of all elements, a scalar */
    public Tensor sum() {
        return reduce(Reduction.SUM, allAxes(), false);
    }

    /**
     * @param axes the summed dimensions (negative from the end)
     * @return the sum over them, dimensions removed
     */
    public Tensor sum(int... axes) {
        return reduce(Reduction.SUM, axes, false);
    }

    /** @return the mean of all elements */
    public Tensor mean() {
        return reduce(Reduction.MEAN, allAxes(), false);
    }

    /**
     * @param axes the dimensions
     * @return the mean over them, dimensions removed
     */
    public Tensor mean(int... axes) {
        return reduce(Reduction.MEAN, axes, false);
    }

    /** @return the largest element */
    public Tensor max() {
        return reduce(Reduction.MAX, allAxes(), false);
    }

    /**
     * @param axes the dimensions
     * @return the max over them, dimensions removed
     */
    public Tensor max(int... axes) {
        return reduce(Reduction.MAX, axes, false);
    }

    /** @return the smallest element */
    public Tensor min() {
        return reduce(Reduction.MIN, allAxes(), false);
    }

    /**
     * @param axes the dimensions
     * @return the min over them, dimensions removed
     */
    public Tensor min(int... axes) {
        return reduce(Reduction.MIN, axes, false);
    }

    /** @return the product of all elements */
    public Tensor prod() {
        return reduce(Reduction.PROD, allAxes(), false);
    }

    /**
     * @param axes the dimensions
     * @return the product over them, dimensions removed
     */
    public Tensor prod(int... axes) {
        return reduce(Reduction.PROD, axes, false);
    }

    /**
     * Any reduction over any axes.
     *
     * @param reduction how to combine
     * @param axes the reduced dimensions, negative from the end; repeats are an error
     * @param keepDims keep the reduced dimensions as length 1 (true) or remove them (false)
     * @return the reduced tensor
     */
    public Tensor reduce(Reduction reduction, int[] axes, boolean keepDims) {
        int[] sorted = normalizeAxes(axes, "reduce");
        Tensor kept = switch (reduction) {
            case SUM -> reducePrimitive(Op.SUM, sorted);
            case PROD -> reducePrimitive(Op.PROD, sorted);
            case MAX -> reducePrimitive(Op.REDUCE_MAX, sorted);
            case MIN -> neg().reducePrimitive(Op.REDUCE_MAX, sorted).neg();
            case MEAN -> {
                long count = 1;
                for (int axis : sorted) {
                    count *= length(axis);
                }
                yield reducePrimitive(Op.SUM, sorted).mul(count == 0 ? Double.NaN : 1.0 / count);
            }
        };
        if (keepDims) {
            return kept;
        }
        int[] shape = shape();
        int[] remaining = java.util.stream.IntStream.range(0, shape.length)
                .filter(k -> Arrays.binarySearch(sorted, k) < 0).map(k -> shape[k]).toArray();
        return kept.reshape(remaining);
    }

    /**
     * Low-level: a REDUCE primitive, reduced axes kept as length 1.
     *
     * @param op SUM, REDUCE_MAX or PROD
     * @param axes ascending dimension indices
     * @return the reduced tensor
     */
    public Tensor reducePrimitive(Op op, int[] axes) {
        if (axes.length == 0) {
            return this;
        }
        int[] shape = shape();
        for (int axis : axes) {
            shape[axis] = 1;
        }
        return make(op, dtype(), shape, new AxesArgument(axes.clone()), this);
    }

    /**
     * Low-level: CONTRACT, the sum over the given axes of this · other (same shapes, no
     * broadcasting), those axes kept as length 1.
     *
     * @param other the other factor, same shape
     * @param axes ascending dimension indices
     * @return the contraction
     */
    public Tensor contract(Tensor other, int[] axes) {
        if (!Arrays.equals(shape(), other.shape())) {
            throw new ShapeException("contract", List.of(toLong(shape()), toLong(other.shape())),
                    "CONTRACT needs operands of one shape");
        }
        DType type = dtype().promote(other.dtype());
        int[] shape = shape();
        for (int axis : axes) {
            shape[axis] = 1;
        }
        return make(Op.CONTRACT, type, shape, new AxesArgument(axes.clone()), cast(type), other.cast(type));
    }

    // =================================================================== movement

    /**
     * Same elements in row-major order, new shape; one length may be −1 (inferred). A view when
     * the layout allows it, a copy otherwise.
     *
     * @param shape the new shape
     * @return the reshaped tensor
     */
    public Tensor reshape(int... shape) {
        int[] target = shape.clone();
        int inferred = -1;
        long known = 1;
        for (int k = 0; k < target.length; k++) {
            if (target[k] == -1 && inferred < 0) {
                inferred = k;
            } else if (target[k] < 0) {
                throw shapeError("reshape", "invalid target shape " + Arrays.toString(shape));
            } else {
                known *= target[k];
            }
        }
        if (inferred >= 0) {
            if (known == 0 || size() % known != 0) {
                throw shapeError("reshape", "cannot reshape " + Arrays.toString(shape()) + " to " + Arrays.toString(shape));
            }
            target[inferred] = (int) (size() / known);
        } else if (known != size()) {
            throw shapeError("reshape", "cannot reshape " + Arrays.toString(shape()) + " (" + size() + " elements) to "
                    + Arrays.toString(shape) + " (" + known + " elements)");
        }
        return Arrays.equals(target, shape()) ? this : make(Op.RESHAPE, dtype(), target, null, this);
    }

    /**
     * @param order a permutation: dimension k of the result is dimension order[k] of this
     * @return the permuted tensor (a view)
     */
    public Tensor permute(int... order) {
        int rank = rank();
        boolean[] seen = new boolean[rank];
        if (order.length != rank) {
            throw shapeError("permute", "permutation " + Arrays.toString(order) + " has " + order.length
                    + " entries for " + rank + " dimensions");
        }
        int[] normalized = new int[rank];
        boolean identity = true;
        for (int k = 0; k < rank; k++) {
            normalized[k] = axis(order[k]);
            if (seen[normalized[k]]) {
                throw shapeError("permute", "permutation " + Arrays.toString(order) + " repeats dimension " + order[k]);
            }
            seen[normalized[k]] = true;
            identity &= normalized[k] == k;
        }
        if (identity) {
            return this;
        }
        int[] shape = new int[rank];
        for (int k = 0; k < rank; k++) {
            shape[k] = length(normalized[k]);
        }
        return make(Op.PERMUTE, dtype(), shape, new PermuteArgument(normalized), this);
    }

    /**
     * @param first a dimension
     * @param second another dimension
     * @return the tensor with the two dimensions swapped
     */
    public Tensor transpose(int first, int second) {
        int[] order = java.util.stream.IntStream.range(0, rank()).toArray();
        order[axis(first)] = axis(second);
        order[axis(second)] = axis(first);
        return permute(order);
    }

    /**
     * numpy's broadcast_to: leading dimensions are added, length-1 dimensions stretched (a view
     * with zero strides).
     *
     * @param shape the target shape
     * @return the broadcast tensor
     */
    public Tensor expand(int... shape) {
        int[] target = broadcastShapes("expand", shape(), shape);
        if (!Arrays.equals(target, shape)) {
            throw shapeError("expand", "cannot expand " + Arrays.toString(shape()) + " to " + Arrays.toString(shape));
        }
        return broadcastTo(target);
    }

    /**
     * @param before elements added before each dimension
     * @param after elements added after each dimension
     * @param value the value of the added elements
     * @return the padded tensor
     */
    public Tensor pad(int[] before, int[] after, double value) {
        if (before.length != rank() || after.length != rank()) {
            throw shapeError("pad", "pad widths need one entry per dimension");
        }
        int[] shape = shape();
        boolean any = false;
        for (int k = 0; k < shape.length; k++) {
            if (before[k] < 0 || after[k] < 0) {
                throw shapeError("pad", "pad widths must not be negative");
            }
            shape[k] += before[k] + after[k];
            any |= before[k] + after[k] > 0;
        }
        return any ? make(Op.PAD, dtype(), shape, new PadArgument(before.clone(), after.clone(), value), this) : this;
    }

    /**
     * The box {@code [starts[k], ends[k])} of every dimension (a view).
     *
     * @param starts first index per dimension
     * @param ends one past the last index per dimension
     * @return the sub-tensor
     */
    public Tensor shrink(int[] starts, int[] ends) {
        int[] shape = shape();
        if (starts.length != shape.length || ends.length != shape.length) {
            throw shapeError("shrink", "bounds need one entry per dimension");
        }
        int[] lengths = new int[shape.length];
        for (int k = 0; k < shape.length; k++) {
            if (starts[k] < 0 || ends[k] > shape[k] || starts[k] > ends[k]) {
                throw shapeError("shrink", "bounds [" + starts[k] + ", " + ends[k] + ") do not fit dimension " + k
                        + " of length " + shape[k]);
            }
            lengths[k] = ends[k] - starts[k];
        }
        return Arrays.equals(lengths, shape) ? this
                : make(Op.SHRINK, dtype(), lengths, new ShrinkArgument(starts.clone(), ends.clone()), this);
    }

    /**
     * Python's {@code x[..., start:end, ...]} on one dimension; negative indices count from the
     * end and out-of-range bounds are clamped.
     *
     * @param axis the dimension
     * @param start first index
     * @param end one past the last index
     * @return the slice (a view)
     */
    public Tensor slice(int axis, int start, int end) {
        int dimension = axis(axis);
        int length = length(dimension);
        int from = Math.max(0, Math.min(length, start < 0 ? start + length : start));
        int to = Math.max(from, Math.min(length, end < 0 ? end + length : end));
        int[] starts = new int[rank()];
        int[] ends = shape();
        starts[dimension] = from;
        ends[dimension] = to;
        return shrink(starts, ends);
    }

    /**
     * @param axes dimensions to reverse
     * @return the flipped tensor (a view)
     */
    public Tensor flip(int... axes) {
        int[] sorted = normalizeAxes(axes, "flip");
        return sorted.length == 0 ? this : make(Op.FLIP, dtype(), shape(), new AxesArgument(sorted), this);
    }

    /**
     * @param axis where the new dimension goes (0..rank)
     * @return the tensor with a length-1 dimension inserted
     */
    public Tensor unsqueeze(int axis) {
        int position = axis < 0 ? axis + rank() + 1 : axis;
        if (position < 0 || position > rank()) {
            throw shapeError("unsqueeze", "axis " + axis + " out of range for " + rank() + " dimensions");
        }
        int[] shape = new int[rank() + 1];
        for (int k = 0, j = 0; k < shape.length; k++) {
            shape[k] = k == position ? 1 : length(j++);
        }
        return reshape(shape);
    }

    /**
     * @param axis a dimension of length 1
     * @return the tensor without it
     */
    public Tensor squeeze(int axis) {
        int dimension = axis(axis);
        if (length(dimension) != 1) {
            throw shapeError("squeeze", "dimension " + axis + " has length " + length(dimension) + ", not 1");
        }
        int[] shape = shape();
        int[] smaller = java.util.stream.IntStream.range(0, shape.length).filter(k -> k != dimension).map(k -> shape[k]).toArray();
        return reshape(smaller);
    }

    /**
     * Joins tensors along an existing dimension; all other lengths must agree. Built from PAD and
     * ADD, so gradients flow back as SHRINK.
     *
     * @param axis the dimension
     * @param parts the tensors, at least one
     * @return the joined tensor
     */
    public static Tensor concat(int axis, Tensor... parts) {
        if (parts.length == 0) {
            throw new EinopsException("concat needs at least one tensor");
        }
        int dimension = parts[0].axis(axis);
        int total = 0;
        for (Tensor part : parts) {
            int[] expected = parts[0].shape();
            int[] actual = part.shape();
            expected[dimension] = actual.length == expected.length ? actual[dimension] : -1;
            if (!Arrays.equals(expected, actual)) {
                throw new ShapeException("concat", Arrays.stream(parts).map(p -> toLong(p.shape())).toList(),
                        "tensors differ outside dimension " + axis);
            }
            total += part.length(dimension);
        }
        if (parts.length == 1) {
            return parts[0];
        }
        Tensor result = null;
        int offset = 0;
        for (Tensor part : parts) {
            int[] before = new int[part.rank()];
            int[] after = new int[part.rank()];
            before[dimension] = offset;
            after[dimension] = total - offset - part.length(dimension);
            offset += part.length(dimension);
            Tensor placed = part.pad(before, after, -0.0); // x + (−0) is x for every x, −0 included
            result = result == null ? placed : result.add(placed);
        }
        return result;
    }

    /** @return the same values laid out compactly in row-major order (no copy is made if they already are) */
    public Tensor contiguous() {
        return make(Op.CONTIGUOUS, dtype(), shape(), null, this);
    }

    /** @return the same values, cut off from gradient computation */
    public Tensor detach() {
        return new Tensor(new Node(Op.DETACH, dtype(), shape(), null, false, node));
    }

    // =================================================================== einops

    /**
     * einops' rearrange: reorder, split and merge axes; the result is a view whenever strides can
     * express it. {@code x.rearrange("b c h w -> b h w c")},
     * {@code x.rearrange("b (h w) c -> b h w c", Axes.of("h", 4))}.
     *
     * @param pattern {@code left -> right}, the same names on both sides
     * @param axes lengths of axes that the shape does not determine
     * @return the rearranged tensor
     */
    public Tensor rearrange(String pattern, Axes axes) {
        return applyPlan(ArrowLowering.plan(Operation.REARRANGE, pattern, axes.asMap(), shape()).steps(), Reduction.SUM);
    }

    /**
     * @param pattern {@code left -> right}
     * @return the rearranged tensor (see {@link #rearrange(String, Axes)})
     */
    public Tensor rearrange(String pattern) {
        return rearrange(pattern, Axes.none());
    }

    /**
     * einops' reduce: the axes missing on the right are reduced.
     * {@code x.reduce("b c (h 2) (w 2) -> b c h w", Reduction.MAX)} is 2×2 max pooling.
     *
     * @param pattern {@code left -> right}, right's names a subset of left's
     * @param reduction sum, mean, max, min or prod
     * @param axes lengths of axes that the shape does not determine
     * @return the reduced tensor
     */
    public Tensor reduce(String pattern, Reduction reduction, Axes axes) {
        return applyPlan(ArrowLowering.plan(Operation.REDUCE, pattern, axes.asMap(), shape()).steps(), reduction);
    }

    /**
     * @param pattern the pattern
     * @param reduction how to reduce
     * @return the reduced tensor
     */
    public Tensor reduce(String pattern, Reduction reduction) {
        return reduce(pattern, reduction, Axes.none());
    }

    /**
     * @param pattern the pattern
     * @param reduction "sum", "mean", "max", "min" or "prod"
     * @return the reduced tensor
     */
    public Tensor reduce(String pattern, String reduction) {
        return reduce(pattern, Reduction.of(reduction), Axes.none());
    }

    /**
     * @param pattern the pattern
     * @param reduction "sum", "mean", "max", "min" or "prod"
     * @param axes lengths by name
     * @return the reduced tensor
     */
    public Tensor reduce(String pattern, String reduction, Axes axes) {
        return reduce(pattern, Reduction.of(reduction), axes);
    }

    /**
     * einops' repeat: axes new on the right are repeated (a zero-stride view until something
     * needs it compact). {@code x.repeat("h w -> h w c", Axes.of("c", 3))}.
     *
     * @param pattern {@code left -> right}, left's names a subset of right's
     * @param axes the lengths of the new axes (anonymous ones need none)
     * @return the repeated tensor
     */
    public Tensor repeat(String pattern, Axes axes) {
        return applyPlan(ArrowLowering.plan(Operation.REPEAT, pattern, axes.asMap(), shape()).steps(), Reduction.SUM);
    }

    /**
     * @param pattern the pattern, new axes anonymous
     * @return the repeated tensor
     */
    public Tensor repeat(String pattern) {
        return repeat(pattern, Axes.none());
    }

    /**
     * Applies the IR steps of a lowering plan.
     *
     * @param steps the steps
     * @param reduction what a Reduce step does
     * @return the result
     */
    Tensor applyPlan(List<Step> steps, Reduction reduction) {
        Tensor result = this;
        for (Step step : steps) {
            result = result.apply(step, reduction);
        }
        return result;
    }

    private Tensor apply(Step step, Reduction reduction) {
        if (step instanceof Step.Reshape reshape) {
            return reshape(reshape.shape());
        }
        if (step instanceof Step.Permute permute) {
            return make(Op.PERMUTE, dtype(), permute.shape(), new PermuteArgument(permute.order()), this);
        }
        if (step instanceof Step.Expand expand) {
            return broadcastTo(expand.shape());
        }
        if (step instanceof Step.Reduce reduce) {
            return reduce(reduction, reduce.axes(), false);
        }
        Step.Diagonal diagonal = (Step.Diagonal) step;
        return takeDiagonal(diagonal.first(), diagonal.second());
    }

    /** Element (.., i, ..) = this(.., i, .., i, ..): a CONTRACT with the identity over the second axis. */
    private Tensor takeDiagonal(int first, int second) {
        int rank = rank();
        int[] order = new int[rank];
        int next = 0;
        for (int k = 0; k < rank; k++) {
            if (k != first && k != second) {
                order[next++] = k;
            }
        }
        order[rank - 2] = first;
        order[rank - 1] = second;
        Tensor moved = permute(order);
        int length = length(first);
        if (length(second) != length) {
            throw shapeError("einsum", "a diagonal needs equal lengths, got " + length + " and " + length(second));
        }
        Tensor identity = eye(length, dtype()).broadcastTo(moved.shape());
        Tensor contracted = moved.contract(identity, new int[] {rank - 1});
        int[] shape = contracted.shape();
        Tensor diagonal = contracted.reshape(Arrays.copyOf(shape, rank - 1));
        int[] back = new int[rank - 1];
        for (int k = 0, j = 0; k < rank - 1; k++) {
            back[k] = k == first ? rank - 2 : j++;
        }
        return diagonal.permute(back);
    }

    /**
     * einops' parse_shape: axis lengths by name; {@code _} skips an axis, {@code ...} any number.
     *
     * @param pattern names, {@code _} and at most one {@code ...}
     * @return lengths by name, in pattern order
     */
    public Map<String, Integer> parseShape(String pattern) {
        return Ein.parseShape(this, pattern);
    }

    // =================================================================== data

    /**
     * Computes this tensor now (and keeps the result); later reads are copies from the result.
     *
     * @return this tensor
     */
    public Tensor realize() {
        Realizer.realize(List.of(node));
        return this;
    }

    /**
     * Computes several tensors in one pass, sharing their common subgraphs.
     *
     * @param tensors the tensors
     */
    public static void realizeAll(Tensor... tensors) {
        Realizer.realize(Arrays.stream(tensors).map(Tensor::node).toList());
    }

    /**
     * The kernels that reading this tensor would run now, without running them: each kernel's
     * program, inputs, output and size (see the runtime's fusion rules).
     *
     * @return the kernel list, or a line saying the tensor is already computed
     */
    public String explain() {
        return Realizer.explain(List.of(node));
    }

    /** @return the elements in row-major order, as floats */
    public float[] toFloatArray() {
        double[] values = toDoubleArray();
        float[] floats = new float[values.length];
        for (int i = 0; i < values.length; i++) {
            floats[i] = (float) values[i];
        }
        return floats;
    }

    /** @return the elements in row-major order, as ints (truncated toward zero if floating) */
    public int[] toIntArray() {
        HostData data = Realizer.read(node);
        if (data instanceof HostData.Int32 ints) {
            return ints.values();
        }
        int[] values = new int[data.length()];
        for (int i = 0; i < values.length; i++) {
            values[i] = (int) DType.INT32.round(data.get(i));
        }
        return values;
    }

    /** @return the elements in row-major order, as booleans (non-zero is true) */
    public boolean[] toBooleanArray() {
        HostData data = Realizer.read(node);
        boolean[] values = new boolean[data.length()];
        for (int i = 0; i < values.length; i++) {
            values[i] = data.get(i) != 0.0;
        }
        return values;
    }

    /** @return the elements in row-major order, as doubles */
    public double[] toDoubleArray() {
        return Realizer.read(node).toDoubles();
    }

    /**
     * @return the only element
     * @throws ShapeException if the tensor does not have exactly one element
     */
    public double item() {
        if (size() != 1) {
            throw shapeError("item", "item() needs exactly one element, the tensor has " + size());
        }
        return toDoubleArray()[0];
    }

    /** @return the values, numpy-style: {@code tensor([[1., 2.], [3., 4.]], dtype=float32)} */
    @Override
    public String toString() {
        return TensorFormat.format(toDoubleArray(), shape(), dtype().numpyName());
    }

    // =================================================================== gradients

    /**
     * A leaf tensor with this tensor's values that collects gradients: use it for parameters.
     *
     * @return the new leaf (this tensor is computed first)
     */
    public Tensor requireGrad() {
        realize();
        return new Tensor(Realizer.leaf(Results.get(node), dtype(), true));
    }

    /** @return whether gradients flow into this tensor */
    public boolean requiresGrad() {
        return node.requiresGrad();
    }

    /**
     * Back-propagates from this scalar: adds d(this)/d(leaf) to the gradient of every leaf that
     * requires gradients. Needs the {@code autograd} module on the class path.
     */
    public void backward() {
        if (size() != 1) {
            throw shapeError("backward", "backward() without a seed needs a tensor of one element, this one has " + size());
        }
        backward(ones(dtype(), shape()));
    }

    /**
     * Back-propagates the seed: adds d(Σ this·seed)/d(leaf) to every leaf's gradient.
     *
     * @param seed upstream gradient, same shape as this tensor
     */
    public void backward(Tensor seed) {
        EngineHolder.engine().backward(this, seed);
    }

    /** @return whether this leaf has an accumulated gradient */
    public boolean hasGrad() {
        return node.gradient() != null;
    }

    /**
     * @return the gradient accumulated by {@link #backward()} calls
     * @throws EinopsException if none has been accumulated (or the tensor is not a leaf requiring gradients)
     */
    public Tensor grad() {
        Node gradient = node.gradient();
        if (gradient == null) {
            throw new EinopsException(node.requiresGrad() && node.op() == Op.INPUT
                    ? "no gradient yet: call backward() on a result of this tensor first"
                    : "no gradient: only leaves made with requireGrad() accumulate gradients");
        }
        return new Tensor(gradient);
    }

    /** Clears the accumulated gradient. */
    public void zeroGrad() {
        node.setGradient(null);
    }

    /**
     * Low-level, for the autograd module: replaces the accumulated gradient.
     *
     * @param gradient the new gradient, same shape
     */
    public void setGrad(Tensor gradient) {
        node.setGradient(gradient == null ? null : gradient.node);
    }

    private static final class EngineHolder {
        private static final GradientEngine ENGINE = ServiceLoader.load(GradientEngine.class, Tensor.class.getClassLoader())
                .findFirst().orElse(null);

        static GradientEngine engine() {
            if (ENGINE == null) {
                throw new EinopsException("backward() needs the dev.ein4j:autograd module on the class path");
            }
            return ENGINE;
        }
    }

    // =================================================================== helpers

    /**
     * Low-level: makes a node of any primitive with these sources. Gradients flow through it when
     * gradient mode is on and some source requires them.
     *
     * @param op the primitive
     * @param dtype output type
     * @param shape output shape
     * @param argument the op's argument
     * @param sources the inputs
     * @return the tensor
     */
    public static Tensor make(Op op, DType dtype, int[] shape, Object argument, Tensor... sources) {
        Node[] nodes = new Node[sources.length];
        for (int i = 0; i < sources.length; i++) {
            nodes[i] = sources[i].node;
        }
        Node node = new Node(op, dtype, shape, argument, Node.tracksGradient(op, dtype, nodes) && GradientMode.isEnabled(), nodes);
        if (!GradientMode.isEnabled()) {
            node = new Node(Op.DETACH, dtype, shape, null, false, node); // no gradient flows out of a no-grad scope
        }
        return new Tensor(node);
    }

    private Tensor unary(Op op) {
        return make(op, dtype(), shape(), null, this);
    }

    private Tensor binary(Op op, Tensor other) {
        DType type = dtype().promote(other.dtype());
        int[] shape = broadcastShapes(op.name().toLowerCase(java.util.Locale.ROOT), shape(), other.shape());
        DType result = op == Op.CMPLT || op == Op.CMPEQ ? DType.BOOL : type;
        return make(op, result, shape, null, cast(type).broadcastTo(shape), other.cast(type).broadcastTo(shape));
    }

    /** A constant for an operation with a number: of this type if floating, else int32 for whole numbers, float32 otherwise. */
    private Tensor constant(double value) {
        DType type = dtype().isFloating() ? dtype() : value == Math.rint(value) && Math.abs(value) <= Integer.MAX_VALUE
                ? DType.INT32 : DType.FLOAT32;
        return full(value, type, shape());
    }

    private Tensor zerosLike() {
        return constant(0.0);
    }

    /**
     * Low-level: numpy broadcasting to a shape known to be compatible (RESHAPE to add leading
     * length-1 dimensions, then EXPAND).
     *
     * @param target the shape
     * @return the broadcast tensor
     */
    public Tensor broadcastTo(int[] target) {
        int[] shape = shape();
        if (Arrays.equals(shape, target)) {
            return this;
        }
        Tensor result = this;
        if (shape.length < target.length) {
            int[] padded = new int[target.length];
            Arrays.fill(padded, 1);
            System.arraycopy(shape, 0, padded, target.length - shape.length, shape.length);
            result = reshape(padded);
            shape = padded;
        }
        return Arrays.equals(shape, target) ? result : make(Op.EXPAND, dtype(), target, null, result);
    }

    /**
     * numpy's broadcasting rule for two shapes.
     *
     * @param operation the operation, for the error message
     * @param a one shape
     * @param b another
     * @return the broadcast shape
     * @throws ShapeException if they do not broadcast
     */
    public static int[] broadcastShapes(String operation, int[] a, int[] b) {
        int rank = Math.max(a.length, b.length);
        int[] result = new int[rank];
        for (int k = 0; k < rank; k++) {
            int x = k < rank - a.length ? 1 : a[k - (rank - a.length)];
            int y = k < rank - b.length ? 1 : b[k - (rank - b.length)];
            if (x != y && x != 1 && y != 1) {
                throw new ShapeException(operation, List.of(toLong(a), toLong(b)), "shapes " + Arrays.toString(a)
                        + " and " + Arrays.toString(b) + " do not broadcast: dimension " + k + " has lengths " + x + " and " + y);
            }
            result[k] = x == 1 ? y : x;
        }
        return result;
    }

    private int axis(int axis) {
        int rank = rank();
        int normalized = axis < 0 ? axis + rank : axis;
        if (normalized < 0 || normalized >= rank) {
            throw shapeError("axis", "axis " + axis + " is out of range for a tensor of " + rank + " dimensions");
        }
        return normalized;
    }

    private int[] normalizeAxes(int[] axes, String operation) {
        int[] normalized = new int[axes.length];
        for (int i = 0; i < axes.length; i++) {
            normalized[i] = axis(axes[i]);
        }
        Arrays.sort(normalized);
        for (int i = 1; i < normalized.length; i++) {
            if (normalized[i] == normalized[i - 1]) {
                throw shapeError(operation, "axis " + normalized[i] + " is given twice");
            }
        }
        return normalized;
    }

    private int[] allAxes() {
        return java.util.stream.IntStream.range(0, rank()).toArray();
    }

    private ShapeException shapeError(String operation, String reason) {
        return new ShapeException(operation, List.of(toLong(shape())), reason);
    }

    static long[] toLong(int[] shape) {
        return Arrays.stream(shape).asLongStream().toArray();
    }

    private static long checkShape(String operation, int[] shape) {
        for (int length : shape) {
            if (length < 0) {
                throw new ShapeException(operation, List.of(toLong(shape)), "negative length in shape " + Arrays.toString(shape));
            }
        }
        return dev.ein4j.ir.Shapes.size(shape);
    }
}
