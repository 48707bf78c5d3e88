package dev.ein4j.tensor;

import dev.ein4j.error.EinopsException;
import dev.ein4j.error.ShapeException;
import dev.ein4j.ir.DType;
import dev.ein4j.ir.Node;
import dev.ein4j.ir.Op;
import dev.ein4j.kernel.HostData;
import dev.ein4j.runtime.Realizer;
import dev.ein4j.runtime.Lifetimes;
import dev.ein4j.runtime.Results;
import dev.ein4j.runtime.Scope;
import dev.ein4j.tensor.internal.TensorInternals;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;

/**
 * An immutable, lazy n-dimensional array of float32, float64, int32 or bool: a handle to a node of
 * the IR graph. Operations build graph nodes and return new tensors; nothing is computed until data
 * is read ({@link #realize()}, {@link #toFloatArray()}, {@link #item()}, {@link #toString()}), and
 * then the runtime fuses the graph into a few kernels ({@link #explain()} shows them).
 *
 * <pre>{@code
 * Tensor images = Tensor.randn(8, 3, 32, 32);                                    // b c h w
 * Tensor patches = images.rearrange("b c (h p1) (w p2) -> b (h w) (p1 p2 c)", Axes.of("p1", 4, "p2", 4));
 * Tensor pooled = images.reduce("b c (h 2) (w 2) -> b c h w", "max");
 * Tensor scores = Ein.einsum("b i d, b j d -> b i j", q, k).softmax(-1);
 * }</pre>
 *
 * <p>Binary operations broadcast as numpy does (shapes aligned from the right, length 1 stretches)
 * and promote types as PyTorch does (bool &lt; int32 &lt; float32 &lt; float64; a number keeps a
 * floating tensor's type). Floating functions of int32 and bool tensors compute in float32. Every
 * method checks its arguments at the call: a null is a {@link NullPointerException} naming the
 * parameter, an invalid value an {@link EinopsException}. No operation modifies its operands; the
 * only mutable state of a tensor is the gradient a leaf accumulates ({@link #backward()}).
 */
public final class Tensor implements AutoCloseable {

    static {
        TensorInternals.install(new InternalBridge());
    }

    private final Node node;

    private Tensor(Node node) {
        this.node = node;
    }

    static Tensor wrap(Node node) {
        return new Tensor(node);
    }

    Node node() {
        return node;
    }

    // =================================================================== creation

    /**
     * A 1-D float32 tensor holding a copy of the data.
     *
     * @param data the elements
     * @return the tensor, shape [data.length]
     */
    public static Tensor of(float[] data) {
        return Creation.fromFloats(data, new int[] {Arguments.notNull(data, "data").length});
    }

    /**
     * A float32 tensor holding a copy of the data in row-major order: {@code Tensor.of(new float[] {1, 2, 3, 4}, 2, 2)}.
     *
     * @param data the elements, exactly as many as the shape holds
     * @param shape the shape (an empty shape is a scalar)
     * @return the tensor
     * @throws ShapeException if the data length does not match the shape
     */
    public static Tensor of(float[] data, int... shape) {
        return Creation.fromFloats(data, shape);
    }

    /**
     * @param data the elements
     * @return a 1-D float64 tensor holding a copy of them
     */
    public static Tensor of(double[] data) {
        return Creation.fromDoubles(data, DType.FLOAT64, new int[] {Arguments.notNull(data, "data").length});
    }

    /**
     * @param data the elements in row-major order, exactly as many as the shape holds
     * @param shape the shape (an empty shape is a scalar)
     * @return a float64 tensor holding a copy of them
     */
    public static Tensor of(double[] data, int... shape) {
        return Creation.fromDoubles(data, DType.FLOAT64, shape);
    }

    /**
     * @param data the elements in row-major order, each rounded to the type
     * @param dtype the element type
     * @param shape the shape
     * @return a tensor holding a copy of them
     */
    public static Tensor of(double[] data, DType dtype, int... shape) {
        return Creation.fromDoubles(data, dtype, shape);
    }

    /**
     * @param data the elements
     * @return a 1-D int32 tensor holding a copy of them
     */
    public static Tensor of(int[] data) {
        return Creation.fromInts(data, new int[] {Arguments.notNull(data, "data").length});
    }

    /**
     * @param data the elements in row-major order
     * @param shape the shape
     * @return an int32 tensor holding a copy of them (class labels, indices)
     */
    public static Tensor of(int[] data, int... shape) {
        return Creation.fromInts(data, shape);
    }

    /**
     * @param data the elements
     * @return a 1-D bool tensor holding a copy of them
     */
    public static Tensor of(boolean[] data) {
        return Creation.fromBooleans(data, new int[] {Arguments.notNull(data, "data").length});
    }

    /**
     * @param data the elements in row-major order
     * @param shape the shape
     * @return a bool tensor holding a copy of them (masks)
     */
    public static Tensor of(boolean[] data, int... shape) {
        return Creation.fromBooleans(data, shape);
    }

    /**
     * @param value the value
     * @return a float32 scalar (shape [])
     */
    public static Tensor scalar(double value) {
        return Creation.full(value, DType.FLOAT32, new int[0]);
    }

    /**
     * @param value the value, rounded to the type
     * @param dtype the type
     * @return a scalar (shape [])
     */
    public static Tensor scalar(double value, DType dtype) {
        return Creation.full(value, dtype, new int[0]);
    }

    /**
     * @param shape the shape
     * @return float32 zeros
     */
    public static Tensor zeros(int... shape) {
        return Creation.full(0.0, DType.FLOAT32, shape);
    }

    /**
     * @param dtype the type
     * @param shape the shape
     * @return zeros
     */
    public static Tensor zeros(DType dtype, int... shape) {
        return Creation.full(0.0, dtype, shape);
    }

    /**
     * @param shape the shape
     * @return float32 ones
     */
    public static Tensor ones(int... shape) {
        return Creation.full(1.0, DType.FLOAT32, shape);
    }

    /**
     * @param dtype the type
     * @param shape the shape
     * @return ones
     */
    public static Tensor ones(DType dtype, int... shape) {
        return Creation.full(1.0, dtype, shape);
    }

    /**
     * One value repeated; it occupies one element of memory however large the shape (a constant
     * read through zero strides).
     *
     * @param value the value, rounded to the type
     * @param dtype the type
     * @param shape the shape
     * @return the tensor
     */
    public static Tensor full(double value, DType dtype, int... shape) {
        return Creation.full(value, dtype, shape);
    }

    /** @return zeros of this tensor's shape and type */
    public Tensor zerosLike() {
        return Creation.full(0.0, dtype(), shape());
    }

    /** @return ones of this tensor's shape and type */
    public Tensor onesLike() {
        return Creation.full(1.0, dtype(), shape());
    }

    /**
     * @param end one past the last value
     * @return the int32 vector [0, 1, ..., end − 1] (PyTorch's {@code arange(end)})
     */
    public static Tensor arange(int end) {
        return Creation.arange(DType.INT32, 0, end, 1);
    }

    /**
     * @param dtype the type
     * @param end one past the last value
     * @return [0, 1, ..., end − 1] in that type
     */
    public static Tensor arange(DType dtype, int end) {
        return Creation.arange(dtype, 0, end, 1);
    }

    /**
     * numpy's arange: start, start + step, ... while below end (above it for a negative step).
     *
     * @param start the first value
     * @param end the bound, not included
     * @param step the increment, not 0
     * @return the int32 vector
     */
    public static Tensor arange(int start, int end, int step) {
        return Creation.arange(DType.INT32, start, end, step);
    }

    /**
     * @param start the first value
     * @param end the last value
     * @param steps how many values, evenly spaced
     * @return the float32 vector (PyTorch's linspace)
     */
    public static Tensor linspace(double start, double end, int steps) {
        return Creation.linspace(start, end, steps, DType.FLOAT32);
    }

    /**
     * @param length n
     * @return the float32 n×n identity matrix
     */
    public static Tensor eye(int length) {
        return Creation.eye(length, DType.FLOAT32);
    }

    /**
     * @param length n
     * @param dtype the type
     * @return the n×n identity matrix
     */
    public static Tensor eye(int length, DType dtype) {
        return Creation.eye(length, dtype);
    }

    /**
     * Reseeds the global generator that {@code rand}, {@code randn} and {@code randint} without a
     * generator draw from (PyTorch's {@code manual_seed}).
     *
     * @param seed the seed
     */
    public static void manualSeed(long seed) {
        Generator.reseedGlobal(seed);
    }

    /**
     * @param shape the shape
     * @return float32 values uniform in [0, 1) from the global generator
     */
    public static Tensor rand(int... shape) {
        return Creation.kept(Creation.rand(Generator.global(), DType.FLOAT32, shape));
    }

    /**
     * @param generator the generator to draw from
     * @param shape the shape
     * @return float32 values uniform in [0, 1)
     */
    public static Tensor rand(Generator generator, int... shape) {
        return Creation.kept(Creation.rand(generator, DType.FLOAT32, shape));
    }

    /**
     * @param generator the generator to draw from
     * @param dtype float32 or float64
     * @param shape the shape
     * @return values uniform in [0, 1)
     */
    public static Tensor rand(Generator generator, DType dtype, int... shape) {
        return Creation.kept(Creation.rand(generator, dtype, shape));
    }

    /**
     * @param shape the shape
     * @return float32 standard normal values from the global generator
     */
    public static Tensor randn(int... shape) {
        return Creation.kept(Creation.randn(Generator.global(), DType.FLOAT32, shape));
    }

    /**
     * @param generator the generator to draw from
     * @param shape the shape
     * @return float32 standard normal values
     */
    public static Tensor randn(Generator generator, int... shape) {
        return Creation.kept(Creation.randn(generator, DType.FLOAT32, shape));
    }

    /**
     * Standard normal values by the Box–Muller transform of two float64 uniform draws.
     *
     * @param generator the generator to draw from
     * @param dtype float32 or float64
     * @param shape the shape
     * @return the values
     */
    public static Tensor randn(Generator generator, DType dtype, int... shape) {
        return Creation.kept(Creation.randn(generator, dtype, shape));
    }

    /**
     * @param generator the generator to draw from
     * @param low the smallest value
     * @param high one past the largest value
     * @param shape the shape
     * @return int32 values uniform in [low, high)
     */
    public static Tensor randint(Generator generator, int low, int high, int... shape) {
        return Creation.kept(Creation.randint(generator, low, high, shape));
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
        return node.length(Ops.axis(this, axis, "length"));
    }

    /** @return the number of dimensions */
    public int rank() {
        return node.rank();
    }

    /** @return the number of elements (PyTorch's numel) */
    public long size() {
        return node.size();
    }

    /** @return the element type */
    public DType dtype() {
        return node.dtype();
    }

    // =================================================================== arithmetic (broadcasting, promoting)

    /**
     * @param other broadcast against this
     * @return this + other
     */
    public Tensor add(Tensor other) {
        return Elementwise.add(this, Arguments.notNull(other, "other"));
    }

    /**
     * @param value a number
     * @return this + value
     */
    public Tensor add(double value) {
        return Elementwise.add(this, Ops.scalarFor(this, value));
    }

    /**
     * @param other broadcast against this
     * @return this − other
     */
    public Tensor sub(Tensor other) {
        return Elementwise.sub(this, Arguments.notNull(other, "other"));
    }

    /**
     * @param value a number
     * @return this − value
     */
    public Tensor sub(double value) {
        return Elementwise.add(this, Ops.scalarFor(this, -value));
    }

    /**
     * @param other broadcast against this
     * @return this · other
     */
    public Tensor mul(Tensor other) {
        return Elementwise.mul(this, Arguments.notNull(other, "other"));
    }

    /**
     * @param value a number
     * @return this · value
     */
    public Tensor mul(double value) {
        return Elementwise.mul(this, Ops.scalarFor(this, value));
    }

    /**
     * True division (int32 operands give float32).
     *
     * @param other broadcast against this
     * @return this / other
     */
    public Tensor div(Tensor other) {
        return Elementwise.div(this, Arguments.notNull(other, "other"));
    }

    /**
     * @param value a number
     * @return this / value
     */
    public Tensor div(double value) {
        return Elementwise.div(this, Tensor.scalar(value, Ops.floating(this).dtype()));
    }

    /** @return −this */
    public Tensor neg() {
        return Elementwise.neg(this);
    }

    /**
     * @param other broadcast against this
     * @return max(this, other) elementwise; NaN if either is NaN; a tie splits the gradient
     */
    public Tensor maximum(Tensor other) {
        return Elementwise.maximum(this, Arguments.notNull(other, "other"));
    }

    /**
     * @param other broadcast against this
     * @return min(this, other) elementwise; NaN if either is NaN
     */
    public Tensor minimum(Tensor other) {
        return Elementwise.minimum(this, Arguments.notNull(other, "other"));
    }

    /**
     * Matrix product with batch broadcasting, numpy's matmul for rank ≥ 2:
     * {@code einsum("... i j, ... j k -> ... i k")}.
     *
     * @param other [..., j, k]
     * @return [..., i, k]
     */
    public Tensor matmul(Tensor other) {
        return Ein.matmul(this, Arguments.notNull(other, "other"));
    }

    // =================================================================== math

    /** @return |this| (gradient 0 at 0) */
    public Tensor abs() {
        return Elementwise.abs(this);
    }

    /** @return −1, 0 or 1 by sign (NaN for NaN) */
    public Tensor sign() {
        return Elementwise.sign(this);
    }

    /** @return eˣ */
    public Tensor exp() {
        return Elementwise.floatingUnary(Op.EXP, this);
    }

    /** @return eˣ − 1, accurate near 0 */
    public Tensor expm1() {
        return Activations.expm1(this);
    }

    /** @return ln x (NaN below 0, −∞ at 0) */
    public Tensor log() {
        return Elementwise.floatingUnary(Op.LOG, this);
    }

    /** @return ln(1 + x), accurate near 0 */
    public Tensor log1p() {
        return Activations.log1p(this);
    }

    /** @return √x */
    public Tensor sqrt() {
        return Elementwise.floatingUnary(Op.SQRT, this);
    }

    /** @return 1/√x */
    public Tensor rsqrt() {
        return Ops.unary(Op.RECIPROCAL, sqrt());
    }

    /** @return 1/x */
    public Tensor reciprocal() {
        return Elementwise.floatingUnary(Op.RECIPROCAL, this);
    }

    /** @return x² */
    public Tensor square() {
        return Elementwise.mul(this, this);
    }

    /**
     * x^p for a constant p: exact for whole exponents (negative bases included), NaN for negative
     * bases with fractional exponents (as numpy).
     *
     * @param exponent p
     * @return this^p
     */
    public Tensor pow(double exponent) {
        return Elementwise.pow(this, exponent);
    }

    /** @return sin x */
    public Tensor sin() {
        return Elementwise.floatingUnary(Op.SIN, this);
    }

    /** @return cos x, as 1 − 2sin²(x/2) (accurate for large x too) */
    public Tensor cos() {
        return Elementwise.cos(this);
    }

    /**
     * @return erf x: Cody's rational approximations (double precision) for float64; for float32
     *     the same near 0 and, beyond 0.46875, 1 − erfc by one Chebyshev-fitted formula whose
     *     relative error is below float32's epsilon
     */
    public Tensor erf() {
        return SpecialFunctions.erf(this);
    }

    /**
     * @param min the lower bound
     * @param max the upper bound
     * @return this clamped to [min, max]; NaN stays NaN; gradient 1 inside, 0 outside
     */
    public Tensor clamp(double min, double max) {
        return Elementwise.clamp(this, min, max);
    }

    /**
     * @param min the lower bound
     * @return max(this, min), PyTorch's clamp(min=...)
     */
    public Tensor clampMin(double min) {
        return Elementwise.clamp(this, min, null);
    }

    /**
     * @param max the upper bound
     * @return min(this, max), PyTorch's clamp(max=...)
     */
    public Tensor clampMax(double max) {
        return Elementwise.clamp(this, null, max);
    }

    // =================================================================== activations (stable)

    /** @return max(x, 0); NaN stays NaN; gradient 0 at 0 */
    public Tensor relu() {
        return Activations.relu(this);
    }

    /**
     * @param negativeSlope the slope below 0
     * @return x for x &gt; 0, negativeSlope·x otherwise
     */
    public Tensor leakyRelu(double negativeSlope) {
        return Activations.leakyRelu(this, negativeSlope);
    }

    /**
     * @param alpha the scale of the negative part
     * @return x for x &gt; 0, α(eˣ − 1) otherwise
     */
    public Tensor elu(double alpha) {
        return Activations.elu(this, alpha);
    }

    /** @return 1/(1 + e⁻ˣ), finite with a finite gradient for every finite x */
    public Tensor sigmoid() {
        return Activations.sigmoid(this);
    }

    /** @return tanh x, accurate near 0 and saturating without NaN */
    public Tensor tanh() {
        return Activations.tanh(this);
    }

    /** @return ln(1 + eˣ) without overflow */
    public Tensor softplus() {
        return Activations.softplus(this);
    }

    /** @return x·sigmoid(x) (SiLU, swish) */
    public Tensor silu() {
        return Activations.silu(this);
    }

    /** @return x·Φ(x), the exact GELU (Φ by erfc, accurate in the tails; erfc as in {@link #erf()}) */
    public Tensor gelu() {
        return Activations.gelu(this);
    }

    /** @return PyTorch's GELU with {@code approximate="tanh"} */
    public Tensor geluTanh() {
        return Activations.geluTanh(this);
    }

    // =================================================================== comparisons and logic (bool results)

    /**
     * @param other broadcast against this
     * @return this &lt; other (false where either is NaN)
     */
    public Tensor lt(Tensor other) {
        return Elementwise.lt(this, Arguments.notNull(other, "other"));
    }

    /**
     * @param value a number
     * @return this &lt; value
     */
    public Tensor lt(double value) {
        return Elementwise.lt(this, Ops.scalarFor(this, value));
    }

    /**
     * @param other broadcast against this
     * @return this ≤ other
     */
    public Tensor le(Tensor other) {
        return Elementwise.le(this, Arguments.notNull(other, "other"));
    }

    /**
     * @param value a number
     * @return this ≤ value
     */
    public Tensor le(double value) {
        return Elementwise.le(this, Ops.scalarFor(this, value));
    }

    /**
     * @param other broadcast against this
     * @return this &gt; other
     */
    public Tensor gt(Tensor other) {
        return Elementwise.gt(this, Arguments.notNull(other, "other"));
    }

    /**
     * @param value a number
     * @return this &gt; value
     */
    public Tensor gt(double value) {
        return Elementwise.gt(this, Ops.scalarFor(this, value));
    }

    /**
     * @param other broadcast against this
     * @return this ≥ other
     */
    public Tensor ge(Tensor other) {
        return Elementwise.ge(this, Arguments.notNull(other, "other"));
    }

    /**
     * @param value a number
     * @return this ≥ value
     */
    public Tensor ge(double value) {
        return Elementwise.ge(this, Ops.scalarFor(this, value));
    }

    /**
     * @param other broadcast against this
     * @return this = other
     */
    public Tensor eq(Tensor other) {
        return Elementwise.eq(this, Arguments.notNull(other, "other"));
    }

    /**
     * @param value a number
     * @return this = value
     */
    public Tensor eq(double value) {
        return Elementwise.eq(this, Ops.scalarFor(this, value));
    }

    /**
     * @param other broadcast against this
     * @return this ≠ other (true where either is NaN)
     */
    public Tensor ne(Tensor other) {
        return Elementwise.ne(this, Arguments.notNull(other, "other"));
    }

    /**
     * @param value a number
     * @return this ≠ value
     */
    public Tensor ne(double value) {
        return Elementwise.ne(this, Ops.scalarFor(this, value));
    }

    /** @return whether each element is NaN */
    public Tensor isNaN() {
        return Elementwise.isNaN(this);
    }

    /** @return not this (as bool) */
    public Tensor logicalNot() {
        return Elementwise.logicalNot(this);
    }

    /**
     * @param other broadcast against this
     * @return this and other (as bool)
     */
    public Tensor logicalAnd(Tensor other) {
        return Elementwise.logicalAnd(this, Arguments.notNull(other, "other"));
    }

    /**
     * @param other broadcast against this
     * @return this or other (as bool)
     */
    public Tensor logicalOr(Tensor other) {
        return Elementwise.logicalOr(this, Arguments.notNull(other, "other"));
    }

    /**
     * Selects elementwise, PyTorch's {@code torch.where}; the three broadcast together. The branch
     * not selected gets no gradient.
     *
     * @param condition where to take {@code whenTrue} (a non-bool condition means "≠ 0")
     * @param whenTrue values where the condition holds
     * @param whenFalse values elsewhere
     * @return the selection, of the promoted type of the two branches
     */
    public static Tensor where(Tensor condition, Tensor whenTrue, Tensor whenFalse) {
        return Elementwise.where(Arguments.notNull(condition, "condition"), Arguments.notNull(whenTrue, "whenTrue"),
                Arguments.notNull(whenFalse, "whenFalse"));
    }

    /**
     * @param dtype the target type (to int32: truncation toward zero; to bool: ≠ 0)
     * @return this tensor in that type (itself if it already has it)
     */
    public Tensor cast(DType dtype) {
        return Ops.cast(this, Arguments.notNull(dtype, "dtype"));
    }

    // =================================================================== reductions

    /** @return the sum of all elements, a scalar (bool counts in int32) */
    public Tensor sum() {
        return Reductions.reduce(this, Reduction.SUM, Ops.allAxes(this), false);
    }

    /**
     * @param axes the summed dimensions (negative from the end)
     * @return the sum over them, those dimensions removed
     */
    public Tensor sum(int... axes) {
        return Reductions.reduce(this, Reduction.SUM, axes, false);
    }

    /**
     * @param axes the summed dimensions
     * @param keepDim keep them as length 1
     * @return the sum over them
     */
    public Tensor sum(int[] axes, boolean keepDim) {
        return Reductions.reduce(this, Reduction.SUM, axes, keepDim);
    }

    /** @return the mean of all elements (NaN if there are none) */
    public Tensor mean() {
        return Reductions.reduce(this, Reduction.MEAN, Ops.allAxes(this), false);
    }

    /**
     * @param axes the dimensions
     * @return the mean over them, those dimensions removed
     */
    public Tensor mean(int... axes) {
        return Reductions.reduce(this, Reduction.MEAN, axes, false);
    }

    /**
     * @param axes the dimensions
     * @param keepDim keep them as length 1
     * @return the mean over them
     */
    public Tensor mean(int[] axes, boolean keepDim) {
        return Reductions.reduce(this, Reduction.MEAN, axes, keepDim);
    }

    /** @return the largest element (NaN if any is NaN) */
    public Tensor max() {
        return Reductions.reduce(this, Reduction.MAX, Ops.allAxes(this), false);
    }

    /**
     * @param axes the dimensions, none of length 0
     * @return the maximum over them (PyTorch's amax), those dimensions removed
     */
    public Tensor max(int... axes) {
        return Reductions.reduce(this, Reduction.MAX, axes, false);
    }

    /**
     * @param axes the dimensions
     * @param keepDim keep them as length 1
     * @return the maximum over them; ties share the gradient
     */
    public Tensor max(int[] axes, boolean keepDim) {
        return Reductions.reduce(this, Reduction.MAX, axes, keepDim);
    }

    /** @return the smallest element */
    public Tensor min() {
        return Reductions.reduce(this, Reduction.MIN, Ops.allAxes(this), false);
    }

    /**
     * @param axes the dimensions, none of length 0
     * @return the minimum over them, those dimensions removed
     */
    public Tensor min(int... axes) {
        return Reductions.reduce(this, Reduction.MIN, axes, false);
    }

    /**
     * @param axes the dimensions
     * @param keepDim keep them as length 1
     * @return the minimum over them
     */
    public Tensor min(int[] axes, boolean keepDim) {
        return Reductions.reduce(this, Reduction.MIN, axes, keepDim);
    }

    /** @return the product of all elements */
    public Tensor prod() {
        return Reductions.reduce(this, Reduction.PROD, Ops.allAxes(this), false);
    }

    /**
     * @param axes the dimensions
     * @return the product over them, those dimensions removed (exact gradient with zeros)
     */
    public Tensor prod(int... axes) {
        return Reductions.reduce(this, Reduction.PROD, axes, false);
    }

    /**
     * Any reduction over any axes.
     *
     * @param reduction how to combine
     * @param axes the reduced dimensions, negative from the end; repeats are an error
     * @param keepDim keep the reduced dimensions as length 1 (true) or remove them (false)
     * @return the reduced tensor
     */
    public Tensor reduce(Reduction reduction, int[] axes, boolean keepDim) {
        return Reductions.reduce(this, reduction, axes, keepDim);
    }

    /**
     * Σ(x − mean)² / (n − correction) over the axes, two-pass (no cancellation).
     *
     * @param axes the dimensions
     * @param correction 1 for the unbiased estimate (PyTorch's default), 0 for the population variance
     * @param keepDim keep the dimensions as length 1
     * @return the variance
     */
    public Tensor var(int[] axes, double correction, boolean keepDim) {
        return Reductions.variance(this, axes, correction, keepDim);
    }

    /** @return the unbiased variance of all elements, Σ(x − mean)² / (n − 1), a scalar */
    public Tensor var() {
        return var(allAxes(), 1, false);
    }

    /** @return the unbiased standard deviation of all elements, a scalar */
    public Tensor std() {
        return std(allAxes(), 1, false);
    }

    private int[] allAxes() {
        return java.util.stream.IntStream.range(0, rank()).toArray();
    }

    /**
     * @param axes the dimensions
     * @param correction as for {@link #var}
     * @param keepDim keep the dimensions as length 1
     * @return the standard deviation, √var
     */
    public Tensor std(int[] axes, double correction, boolean keepDim) {
        return Reductions.variance(this, axes, correction, keepDim).sqrt();
    }

    /**
     * ln Σ eˣ over the axes, stable for huge values (a slice of −∞ gives −∞).
     *
     * @param axes the dimensions
     * @param keepDim keep them as length 1
     * @return the log-sum-exp
     */
    public Tensor logSumExp(int[] axes, boolean keepDim) {
        return Reductions.logSumExp(this, axes, keepDim);
    }

    /**
     * @param axis the dimension
     * @return e^x / Σ e^x along it, stable for huge logits; gradients finite
     */
    public Tensor softmax(int axis) {
        return Reductions.softmax(this, axis);
    }

    /**
     * @param axis the dimension
     * @return x − ln Σ eˣ along it, without forming the softmax
     */
    public Tensor logSoftmax(int axis) {
        return Reductions.logSoftmax(this, axis);
    }

    /**
     * @param axis the dimension, not of length 0
     * @param keepDim keep it as length 1
     * @return the int32 index of the largest element along it, the first on ties; NaN counts as largest
     */
    public Tensor argmax(int axis, boolean keepDim) {
        return Reductions.argExtreme(this, axis, keepDim, true);
    }

    /** @return the int32 index of the largest element of the flattened tensor */
    public Tensor argmax() {
        return Reductions.argExtreme(reshape(-1), 0, false, true);
    }

    /**
     * @param axis the dimension, not of length 0
     * @param keepDim keep it as length 1
     * @return the int32 index of the smallest element along it, the first on ties
     */
    public Tensor argmin(int axis, boolean keepDim) {
        return Reductions.argExtreme(this, axis, keepDim, false);
    }

    /** @return the int32 index of the smallest element of the flattened tensor */
    public Tensor argmin() {
        return Reductions.argExtreme(reshape(-1), 0, false, false);
    }

    /**
     * One-hot encoding of an int32 tensor of class indices: shape [..., numClasses], int32. The
     * indices are read (a synchronisation point) to check that they lie in [0, numClasses).
     *
     * @param numClasses the number of classes
     * @return the encoding
     * @throws EinopsException if an index is out of range
     */
    public Tensor oneHot(int numClasses) {
        if (numClasses < 0) {
            throw Ops.error(this, "one_hot", "num_classes must not be negative, got " + numClasses);
        }
        checkIndices(numClasses, "one_hot");
        return Elementwise.eq(unsqueeze(-1), arange(numClasses)).cast(DType.INT32);
    }

    /**
     * Checks an int32 tensor of indices against a bound, PyTorch's index check: reads the values
     * (a synchronisation point), so a bad label fails at the call that uses it, not as a wrong loss.
     *
     * @param bound the number of valid indices: each must lie in [0, bound)
     * @param operation the operation, for the message
     * @return this tensor
     * @throws EinopsException if the type is not int32 or an index is out of range
     */
    public Tensor checkIndices(int bound, String operation) {
        Arguments.notNull(operation, "operation");
        if (dtype() != DType.INT32) {
            throw new EinopsException(operation + " needs int32 indices, got " + dtype().numpyName());
        }
        for (int index : toIntArray()) {
            if (index < 0 || index >= bound) {
                throw new EinopsException(operation + ": index " + index + " is out of range [0, " + bound + ")");
            }
        }
        return this;
    }

    // =================================================================== indexing

    /**
     * PyTorch's {@code gather}: {@code out[i][j][k] = this[index[i][j][k]][j][k]} for dim 0, and so on:
     * each element of the int32 index names a position along dim. The index has this tensor's rank
     * and is no longer along the other dimensions; the result has the index's shape. One GATHER
     * primitive, fused into the kernel that reads it; its gradient adds back where it read.
     *
     * <pre>{@code
     * Tensor rows = Tensor.of(new float[] {1, 2, 3, 4, 5, 6}, 2, 3);
     * rows.gather(1, Tensor.of(new int[] {2, 0}, 2, 1));       // [[3], [4]]
     * }</pre>
     *
     * @param dim the dimension the index addresses (negative counts from the end)
     * @param index int32 positions in [0, length of dim)
     * @return the gathered values
     * @throws dev.ein4j.error.IndexOutOfRangeException when the kernel runs, for an index outside the dimension
     */
    public Tensor gather(int dim, Tensor index) {
        return Indexing.gather(this, dim, index);
    }

    /**
     * PyTorch's {@code index_select}: the slices along dim that a 1-D int32 index names, in its order
     * (an embedding lookup is {@code weight.indexSelect(0, ids)}).
     *
     * @param dim the dimension
     * @param index 1-D int32 positions
     * @return this tensor's shape with dim of the index's length
     */
    public Tensor indexSelect(int dim, Tensor index) {
        return Indexing.indexSelect(this, dim, index);
    }

    /**
     * PyTorch's {@code scatter}: a copy of this tensor with {@code src} written at the positions the
     * int32 index gives along dim ({@code out[index[i][j]][j] = src[i][j]} for dim 0). The index has
     * this tensor's rank, this tensor's lengths along the other dimensions and is no longer than src.
     * Assigned back to this tensor ({@code cache.assign(cache.scatter(2, positions, keys))}) it writes
     * only the scattered elements, in place: how a key/value cache grows a step at a time.
     *
     * @param dim the dimension
     * @param index int32 positions
     * @param src the values
     * @return the updated copy
     */
    public Tensor scatter(int dim, Tensor index, Tensor src) {
        return Indexing.scatter(this, dim, index, src, false);
    }

    /**
     * PyTorch's {@code scatter_add}: like {@link #scatter} but adding, so repeated positions add up.
     *
     * @param dim the dimension
     * @param index int32 positions
     * @param src the values added
     * @return the updated copy
     */
    public Tensor scatterAdd(int dim, Tensor index, Tensor src) {
        return Indexing.scatter(this, dim, index, src, true);
    }

    /**
     * PyTorch's {@code torch.masked_fill}: value where the bool mask is true, this tensor elsewhere;
     * the two broadcast together (numpy's rule), so the result may be larger than this tensor.
     *
     * <pre>{@code
     * Tensor scores = Tensor.of(new float[] {1, 2, 3}, 3);
     * scores.maskedFill(Tensor.of(new boolean[] {false, true, true}), Double.NEGATIVE_INFINITY);   // [1, -inf, -inf]
     * }</pre>
     *
     * @param mask where to fill
     * @param value the value, converted to this tensor's type as PyTorch does (int32: truncated
     *              toward zero; bool: ≠ 0)
     * @return the filled tensor
     * @throws dev.ein4j.error.EinopsException if the type cannot hold the value (1e40 in float32, NaN in int32)
     */
    public Tensor maskedFill(Tensor mask, double value) {
        return Indexing.maskedFill(this, mask, value);
    }

    /**
     * PyTorch's {@code cumsum}: y[i] = x[0] + ... + x[i] along dim, by ⌈log₂ n⌉ doubling steps.
     *
     * @param dim the dimension
     * @return the cumulative sums (bool sums as int32)
     */
    public Tensor cumsum(int dim) {
        return Indexing.cumsum(this, dim);
    }

    /**
     * PyTorch's {@code topk}: the k largest values along dim, largest first, with their int32
     * positions; O(k·n), for k much smaller than the dimension. Equal values come in the order of
     * their positions; NaN counts as larger than every number, as in PyTorch. The values' gradient
     * goes back to the chosen positions.
     *
     * @param k how many, at most the dimension's length
     * @param dim the dimension
     * @return values and indices
     */
    public TopK topk(int k, int dim) {
        return Indexing.topk(this, k, dim, true);
    }

    /**
     * @param k how many
     * @param dim the dimension
     * @param largest the largest (true) or the smallest (false), first; NaN comes last among the smallest
     * @return values and indices
     */
    public TopK topk(int k, int dim, boolean largest) {
        return Indexing.topk(this, k, dim, largest);
    }

    // =================================================================== movement (views)

    /**
     * Same elements in row-major order, new shape; one length may be −1 (inferred). A view when the
     * layout allows, a copy otherwise.
     *
     * @param shape the new shape, as many elements
     * @return the reshaped tensor
     */
    public Tensor reshape(int... shape) {
        return Movement.reshape(this, shape);
    }

    /**
     * @param order a permutation: dimension k of the result is dimension order[k] of this
     * @return the permuted tensor (a view)
     */
    public Tensor permute(int... order) {
        return Movement.permute(this, order);
    }

    /**
     * @param first a dimension
     * @param second another dimension
     * @return the tensor with the two swapped (a view)
     */
    public Tensor transpose(int first, int second) {
        return Movement.transpose(this, first, second);
    }

    /**
     * numpy's broadcast_to: leading dimensions added, length-1 dimensions stretched (zero strides).
     *
     * @param shape the target shape
     * @return the broadcast tensor
     */
    public Tensor expand(int... shape) {
        return Movement.expand(this, shape);
    }

    /**
     * @param before elements added before each dimension
     * @param after elements added after each dimension
     * @param value the value of the added elements
     * @return the padded tensor (a masked view)
     */
    public Tensor pad(int[] before, int[] after, double value) {
        return Movement.pad(this, before, after, value);
    }

    /**
     * @param starts first index per dimension
     * @param ends one past the last index per dimension
     * @return the box [starts, ends) (a view)
     */
    public Tensor shrink(int[] starts, int[] ends) {
        return Movement.shrink(this, starts, ends);
    }

    /**
     * Python's {@code x[..., start:end, ...]} on one dimension: negative indices count from the
     * end, out-of-range bounds are clamped.
     *
     * @param axis the dimension
     * @param start first index
     * @param end one past the last index
     * @return the slice (a view)
     */
    public Tensor slice(int axis, int start, int end) {
        return Movement.slice(this, axis, start, end);
    }

    /**
     * @param axes dimensions to reverse
     * @return the flipped tensor (a view)
     */
    public Tensor flip(int... axes) {
        return Movement.flip(this, axes);
    }

    /**
     * @param axis where the new dimension goes (0..rank, negative from the end)
     * @return the tensor with a length-1 dimension inserted
     */
    public Tensor unsqueeze(int axis) {
        return Movement.unsqueeze(this, axis);
    }

    /**
     * @param axis a dimension of length 1
     * @return the tensor without it
     */
    public Tensor squeeze(int axis) {
        return Movement.squeeze(this, axis);
    }

    /** @return the tensor without its length-1 dimensions */
    public Tensor squeeze() {
        return Movement.squeezeAll(this);
    }

    /**
     * @param first the first dimension merged
     * @param last the last dimension merged (inclusive)
     * @return the tensor with dimensions first..last merged into one
     */
    public Tensor flatten(int first, int last) {
        return Movement.flatten(this, first, last);
    }

    /** @return the tensor as one dimension */
    public Tensor flatten() {
        return Movement.flatten(this, 0, -1);
    }

    /**
     * Joins tensors along an existing dimension; all other lengths must agree. Gradients flow back
     * to each part.
     *
     * @param axis the dimension
     * @param parts the tensors, at least one
     * @return the joined tensor
     */
    public static Tensor concat(int axis, Tensor... parts) {
        return Movement.concat(axis, parts);
    }

    /**
     * @param axis where the new dimension goes
     * @param parts tensors of one shape, at least one
     * @return the tensors joined along a new dimension
     */
    public static Tensor stack(int axis, Tensor... parts) {
        return Movement.stack(axis, parts);
    }

    /** @return the same values laid out compactly in row-major order (no copy if they already are) */
    public Tensor contiguous() {
        return Ops.unary(Op.CONTIGUOUS, this);
    }

    /** @return the same values, cut off from gradient computation */
    public Tensor detach() {
        return Ops.apply(Op.DETACH, dtype(), shape(), null, this);
    }

    // =================================================================== einops

    /**
     * einops' rearrange: reorder, split and merge axes; a view whenever strides can express it.
     * {@code x.rearrange("b (h w) c -> b h w c", Axes.of("h", 4))}.
     *
     * @param pattern {@code left -> right}, the same names on both sides
     * @param axes lengths of axes that the shape does not determine
     * @return the rearranged tensor
     */
    public Tensor rearrange(String pattern, Axes axes) {
        return Patterns.rearrange(this, pattern, axes);
    }

    /**
     * @param pattern {@code left -> right}
     * @return the rearranged tensor (see {@link #rearrange(String, Axes)})
     */
    public Tensor rearrange(String pattern) {
        return Patterns.rearrange(this, pattern, Axes.none());
    }

    /**
     * einops' reduce: axes missing on the right are reduced.
     * {@code x.reduce("b c (h 2) (w 2) -> b c h w", Reduction.MAX)} is 2×2 max pooling.
     *
     * @param pattern {@code left -> right}, right's names a subset of left's
     * @param reduction sum, mean, max, min or prod
     * @param axes lengths of axes that the shape does not determine
     * @return the reduced tensor
     */
    public Tensor reduce(String pattern, Reduction reduction, Axes axes) {
        return Patterns.reduce(this, pattern, reduction, axes);
    }

    /**
     * @param pattern the pattern
     * @param reduction how to reduce
     * @return the reduced tensor
     */
    public Tensor reduce(String pattern, Reduction reduction) {
        return Patterns.reduce(this, pattern, reduction, Axes.none());
    }

    /**
     * @param pattern the pattern
     * @param reduction "sum", "mean", "max", "min" or "prod"
     * @return the reduced tensor
     */
    public Tensor reduce(String pattern, String reduction) {
        Arguments.notNull(pattern, "pattern");
        return Patterns.reduce(this, pattern, Reduction.of(Arguments.notNull(reduction, "reduction")), Axes.none());
    }

    /**
     * @param pattern the pattern
     * @param reduction "sum", "mean", "max", "min" or "prod"
     * @param axes lengths by name
     * @return the reduced tensor
     */
    public Tensor reduce(String pattern, String reduction, Axes axes) {
        Arguments.notNull(pattern, "pattern");
        Arguments.notNull(axes, "axes");
        return Patterns.reduce(this, pattern, Reduction.of(Arguments.notNull(reduction, "reduction")), axes);
    }

    /**
     * einops' repeat: axes new on the right are repeated (a zero-stride view until something needs
     * it compact). {@code x.repeat("h w -> h w c", Axes.of("c", 3))}.
     *
     * @param pattern {@code left -> right}, left's names a subset of right's
     * @param axes the lengths of the new axes (anonymous ones need none)
     * @return the repeated tensor
     */
    public Tensor repeat(String pattern, Axes axes) {
        return Patterns.repeat(this, pattern, axes);
    }

    /**
     * @param pattern the pattern, new axes anonymous
     * @return the repeated tensor
     */
    public Tensor repeat(String pattern) {
        return Patterns.repeat(this, pattern, Axes.none());
    }

    /**
     * einops' parse_shape: {@code x.parseShape("b _ h w")} gives {b=.., h=.., w=..}.
     *
     * @param pattern names, {@code _}, lengths (checked) and at most one {@code ...}
     * @return lengths by name, in pattern order
     */
    public Map<String, Integer> parseShape(String pattern) {
        return Ein.parseShape(this, pattern);
    }

    /**
     * einops' {@code check_shape}: asserts this tensor's shape against a pattern and returns the
     * lengths of its named axes. Terms: a name, a composition {@code (h w)} (one dimension of
     * length h·w), {@code 1} or {@code ()}, a length such as {@code 3}, {@code _} (any length) and
     * at most one {@code ...} (any number of dimensions). Names given in {@code axes} must have
     * their given length; a composition may have one name whose length is neither given nor written.
     *
     * <pre>{@code
     * Tensor x = Tensor.zeros(8, 3, 32, 32);
     * x.checkShape("b c h w", Axes.of("c", 3));        // {b=8, c=3, h=32, w=32}
     * x.checkShape("b c (h 2) _", Axes.none());         // {b=8, c=3, h=16}
     * x.checkShape("... h w").length("w");              // 32
     * x.checkShape("b c h w", Axes.of("c", 1));
     * // ShapeException: axis c: the input has length 3 but 1 is expected
     * //   b c h w
     * //     ^
     * }</pre>
     *
     * @param pattern names, compositions, lengths, {@code _} and {@code ...}, names at most once
     * @param axes lengths the named axes must have
     * @return the length of every named axis, in the pattern's order (0 for an empty axis)
     * @throws dev.ein4j.error.PatternSyntaxException if the pattern is malformed
     * @throws ShapeException with a caret at the term that does not fit, or naming a given axis
     *         that the pattern lacks
     */
    public Axes checkShape(String pattern, Axes axes) {
        return Patterns.checkShape(this, pattern, axes);
    }

    /**
     * @param pattern names, compositions, lengths, {@code _} and {@code ...}
     * @return the length of every named axis (see {@link #checkShape(String, Axes)})
     * @throws ShapeException with a caret at the term that does not fit
     */
    public Axes checkShape(String pattern) {
        return checkShape(pattern, Axes.none());
    }

    // =================================================================== data

    /**
     * Computes this tensor now and keeps the result; later reads copy from it.
     *
     * @return this tensor
     */
    public Tensor realize() {
        Realizer.realize(List.of(node));
        return this;
    }

    /**
     * Overwrites this leaf's elements with {@code value}'s, in place: {@code this ← value}. The
     * value is computed straight into this tensor's buffer when its last kernel is elementwise
     * and reads this tensor only at the element it writes (so {@code w.assign(w.sub(g.mul(lr)))}
     * allocates nothing), otherwise computed aside and copied in. Optimizers update parameters
     * this way.
     *
     * <p>Computes this tensor first if it is not yet. Modifies it and every tensor sharing its data: views of it, and the tensor it
     * was made from by {@link #requireGrad()}. The update is not recorded for gradients, and
     * graphs built from this tensor but not yet computed will read the new values.
     *
     * @param value a tensor of this tensor's shape and type, on the same backend
     * @return this tensor
     * @throws EinopsException if gradients flow through this tensor but it is not a leaf, if its
     *     data is a view (broadcast, strided, or part of a larger buffer: assign to
     *     {@code x.contiguous().realize()} instead), or if the shapes or types differ
     */
    public Tensor assign(Tensor value) {
        Arguments.notNull(value, "value");
        if (node.op() != Op.INPUT && node.requiresGrad()) {
            throw Ops.error(this, "assign", "a result that gradients flow through cannot be assigned in place (backward "
                    + "would read the overwritten values); assign to the leaves themselves");
        }
        if (!Arrays.equals(value.shape(), shape()) || value.dtype() != dtype()) {
            throw Ops.error(this, "assign", "the value is " + value.dtype().numpyName() + Arrays.toString(value.shape())
                    + ", the tensor " + dtype().numpyName() + Arrays.toString(shape()));
        }
        assign(List.of(this), List.of(value));
        return this;
    }

    /**
     * Overwrites several leaves at once, {@code targets[i] ← values[i]}, in one realization: every
     * value is computed from the targets' old contents, and where one kernel computes several values
     * of one shape (an optimizer's parameter and its moments) it writes them all. Optimizers step
     * this way, so that a step is one kernel per parameter and replays one schedule.
     *
     * @param targets leaves with their own compact buffers, pairwise distinct
     * @param values one per target, of its shape and type
     * @throws EinopsException as {@link #assign(Tensor)} does, or if two targets share a buffer
     */
    public static void assign(List<Tensor> targets, List<Tensor> values) {
        Arguments.notNull(targets, "targets");
        Arguments.notNull(values, "values");
        if (targets.size() != values.size()) {
            throw new EinopsException("assign needs one value per target, got " + targets.size() + " targets and "
                    + values.size() + " values");
        }
        List<Node> targetNodes = new java.util.ArrayList<>(targets.size());
        List<Node> valueNodes = new java.util.ArrayList<>(values.size());
        for (int i = 0; i < targets.size(); i++) {
            Tensor target = Arguments.notNull(targets.get(i), "targets");
            Tensor value = Arguments.notNull(values.get(i), "values");
            target.checkAssignable(value);
            target.realize();
            targetNodes.add(target.node);
            valueNodes.add(value.node);
        }
        Realizer.assign(targetNodes, valueNodes);
    }

    private void checkAssignable(Tensor value) {
        if (node.op() != Op.INPUT && node.requiresGrad()) {
            throw Ops.error(this, "assign", "a result that gradients flow through cannot be assigned in place (backward "
                    + "would read the overwritten values); assign to the leaves themselves");
        }
        if (!Arrays.equals(value.shape(), shape()) || value.dtype() != dtype()) {
            throw Ops.error(this, "assign", "the value is " + value.dtype().numpyName() + Arrays.toString(value.shape())
                    + ", the tensor " + dtype().numpyName() + Arrays.toString(shape()));
        }
    }

    // =================================================================== ownership

    /**
     * Releases this tensor's buffer now, rather than when the garbage collector finds the tensor
     * unreachable: its storage goes back to the backend as soon as no other tensor shares it (a view,
     * the leaf made by {@link #requireGrad()}) and the kernels already submitted that read it have run.
     * Afterwards the tensor cannot be read or used (a {@link dev.ein4j.error.ClosedTensorException}
     * naming its type and shape); tensors computed from it that are not computed yet can no longer be
     * computed if they need its data. A second call does nothing. A leaf's gradient is released with it.
     *
     * <pre>{@code
     * try (Tensor big = Tensor.randn(4096, 4096).realize()) {
     *     float[] column = big.slice(1, 0, 1).toFloatArray();
     * }                                                      // 64 MiB back to the backend here
     * }</pre>
     *
     * @see #scope()
     */
    @Override
    public void close() {
        Node gradient = node.gradient();
        if (gradient != null && node.op() == Op.INPUT) {
            node.setGradient(null);
            Lifetimes.close(gradient);
        }
        Lifetimes.close(node);
    }

    /** @return whether this tensor was closed, by {@link #close()} or by the end of its scope */
    public boolean isClosed() {
        return Lifetimes.isClosed(node);
    }

    /**
     * Opens a scope on this thread: every tensor made on this thread while it is the innermost open
     * scope is closed when it closes, except those passed to {@link TensorScope#keep}. Scopes nest;
     * tensors made before the scope (parameters, optimizer state, buffers) are untouched by it, and
     * a leaf's gradient belongs to the leaf. A training step in a scope needs no garbage collector:
     *
     * <pre>{@code
     * for (Batch batch : batches) {
     *     try (TensorScope step = Tensor.scope()) {
     *         optimizer.zeroGrad();
     *         Tensor loss = step.keep(Functional.crossEntropy(model.forward(batch.images()), batch.labels()));
     *         loss.backward();
     *         optimizer.step();
     *         losses.add(loss.item());
     *     }                                  // activations, gradients of intermediates: released here
     * }
     * }</pre>
     *
     * @return the scope, to close (try-with-resources) on this thread
     */
    public static TensorScope scope() {
        return new TensorScope(Scope.open());
    }

    /**
     * Computes several tensors in one pass, sharing their common subgraphs.
     *
     * @param tensors the tensors
     */
    public static void realizeAll(Tensor... tensors) {
        Arguments.noNulls(tensors, "tensors");
        Realizer.realize(Arrays.stream(tensors).map(Tensor::node).toList());
    }

    /**
     * The kernels that reading this tensor would run now, without running them: each kernel's
     * program, inputs, output and size.
     *
     * @return the kernel list, or a line saying the tensor is already computed
     */
    public String explain() {
        return Realizer.explain(List.of(node));
    }

    /** @return the elements in row-major order, as floats */
    public float[] toFloatArray() {
        HostData data = Realizer.read(node);
        if (data instanceof HostData.Float32 floats) {
            return floats.values();
        }
        float[] values = new float[data.length()];
        for (int i = 0; i < values.length; i++) {
            values[i] = (float) data.get(i);
        }
        return values;
    }

    /** @return the elements in row-major order, as doubles */
    public double[] toDoubleArray() {
        return Realizer.read(node).toDoubles();
    }

    /** @return the elements in row-major order, as ints (floats truncated toward zero) */
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

    /**
     * @return the only element
     * @throws ShapeException if the tensor does not have exactly one element
     */
    public double item() {
        if (size() != 1) {
            throw Ops.error(this, "item", "item() needs exactly one element, the tensor has " + size());
        }
        return toDoubleArray()[0];
    }

    /**
     * One element, PyTorch's {@code x[i, j].item()}: computes the tensor (once) and reads the element.
     *
     * @param index one index per dimension, negative from the end
     * @return the element
     * @throws ShapeException if an index is out of range or the count is wrong
     */
    public double get(int... index) {
        Arguments.notNull(index, "index");
        if (index.length != rank()) {
            throw Ops.error(this, "get", "get needs " + rank() + " indices, got " + index.length);
        }
        int[] starts = new int[rank()];
        int[] ends = new int[rank()];
        for (int k = 0; k < index.length; k++) {
            int length = length(k);
            int at = index[k] < 0 ? index[k] + length : index[k];
            if (at < 0 || at >= length) {
                throw Ops.error(this, "get", "index " + index[k] + " is out of range for dimension " + k + " of length " + length);
            }
            starts[k] = at;
            ends[k] = at + 1;
        }
        realize();
        return shrink(starts, ends).item();
    }

    /** @return the values, numpy-style: {@code tensor([[1., 2.], [3., 4.]], dtype=float32)} */
    @Override
    public String toString() {
        return TensorFormat.format(toDoubleArray(), shape(), dtype());
    }

    // =================================================================== gradients

    /**
     * A leaf tensor with this tensor's values that collects gradients: use it for parameters. It
     * shares this tensor's data when that is one compact buffer, and gets a compact copy otherwise
     * (a broadcast such as {@code Tensor.zeros(n)}, a strided view), so that it can be updated in
     * place ({@link #assign}).
     *
     * @return the new leaf (this tensor is computed first)
     * @throws EinopsException if the type is not floating
     */
    public Tensor requireGrad() {
        if (!dtype().isFloating()) {
            throw new EinopsException("only float32 and float64 tensors can require gradients, not " + dtype().numpyName());
        }
        realize();
        dev.ein4j.runtime.Realized data = Results.get(node);
        if (!data.isCompact()) {
            // A broadcast or strided view gets a compact copy, so that optimizers can update the leaf in place.
            Tensor compact = Ops.apply(Op.CONTIGUOUS, dtype(), shape(), null, detach()).realize();
            data = Results.get(compact.node);
        }
        return new Tensor(Realizer.leaf(data, dtype(), true));
    }

    /** @return whether gradients flow into this tensor */
    public boolean requiresGrad() {
        return node.requiresGrad();
    }

    /**
     * Back-propagates from this one-element tensor: adds d(this)/d(leaf) to the gradient of every
     * leaf that requires gradients. Needs the {@code autograd} module on the class path.
     */
    public void backward() {
        if (size() != 1) {
            throw Ops.error(this, "backward", "backward() without a seed needs a tensor of one element, this one has "
                    + size() + "; pass a seed of its shape");
        }
        backward(onesLike());
    }

    /**
     * Back-propagates a seed: adds d(Σ this·seed)/d(leaf) to every leaf's gradient.
     *
     * @param seed upstream gradient, this tensor's shape
     */
    public void backward(Tensor seed) {
        Arguments.notNull(seed, "seed");
        if (!Arrays.equals(seed.shape(), shape())) {
            throw Ops.error(this, "backward", "the seed has shape " + Arrays.toString(seed.shape()) + ", not the tensor's "
                    + Arrays.toString(shape()));
        }
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

    /** Clears the accumulated gradient and releases its buffer (tensors read from {@link #grad()} before are closed). */
    public void zeroGrad() {
        Node gradient = node.gradient();
        node.setGradient(null);
        if (gradient != null) {
            Lifetimes.close(gradient);
        }
    }

    void setGrad(Tensor gradient) {
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
}
