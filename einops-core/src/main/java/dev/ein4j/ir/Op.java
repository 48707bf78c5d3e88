package dev.ein4j.ir;

/**
 * Every primitive of the IR. Backends implement the compute groups; movement and graph ops are
 * resolved in the core as views over buffers. Every other operation (subtraction, division, relu,
 * softmax, mean, min, einsum, windows, ...) is composed from these in the core.
 *
 * <p>Adding a primitive needs a reason: every backend must implement it and the autograd module
 * must give it a vector-Jacobian rule (or declare it non-differentiable).
 *
 * <table>
 *   <caption>Groups</caption>
 *   <tr><th>group</th><th>ops</th><th>semantics (x, y, z inputs of equal shape)</th></tr>
 *   <tr><td>MOVEMENT</td><td>RESHAPE PERMUTE EXPAND PAD SHRINK FLIP WINDOW</td><td>views: no arithmetic</td></tr>
 *   <tr><td>UNARY</td><td>EXP LOG SQRT RECIPROCAL SIN CAST</td><td>e^x, ln x, √x, 1/x, sin x, x rounded to the output type</td></tr>
 *   <tr><td>BINARY</td><td>ADD MUL MAX CMPLT CMPEQ</td><td>x+y, x·y, max(x,y) (NaN wins), [x&lt;y], [x=y] (the comparisons give BOOL)</td></tr>
 *   <tr><td>TERNARY</td><td>WHERE</td><td>c ? y : z, c of type BOOL</td></tr>
 *   <tr><td>REDUCE</td><td>SUM MAX PROD</td><td>over given axes, which stay as length 1</td></tr>
 *   <tr><td>CONTRACT</td><td>CONTRACT</td><td>Σ over given axes of x·y (x, y views of one shape); the axes stay as length 1</td></tr>
 *   <tr><td>INDEX</td><td>GATHER SCATTER</td><td>x read at positions an INT32 index tensor gives along one axis;
 *       a base with src written (or added) at indexed positions along one axis</td></tr>
 *   <tr><td>CREATION</td><td>CONST IOTA RAND</td><td>a constant, 0..n−1 (INT32), counter-based uniform [0,1) from a seed</td></tr>
 *   <tr><td>GRAPH</td><td>INPUT CONTIGUOUS DETACH</td><td>data from the user, a compact copy, a gradient barrier</td></tr>
 * </table>
 *
 * <p>Every value is stored in its node's {@link DType}: each primitive's result is rounded to that
 * type ({@link DType#round}). Integer arithmetic wraps; {@code BOOL} arithmetic is logical (ADD
 * and MAX are "or", MUL is "and").
 */
public enum Op {
    // ---- movement: views over a buffer, resolved by the core; no arithmetic
    /** Same elements in row-major order under a new shape of equal size. */
    RESHAPE(Group.MOVEMENT),
    /** Reorder dimensions ({@link PermuteArgument}). */
    PERMUTE(Group.MOVEMENT),
    /** Stretch length-1 dimensions to the node's shape (stride 0). */
    EXPAND(Group.MOVEMENT),
    /** Add elements of a fill value around each dimension ({@link PadArgument}). */
    PAD(Group.MOVEMENT),
    /** Keep a box of each dimension ({@link ShrinkArgument}). */
    SHRINK(Group.MOVEMENT),
    /** Reverse dimensions ({@link AxesArgument}). */
    FLIP(Group.MOVEMENT),
    /**
     * Sliding windows over one dimension ({@link WindowArgument}): an axis of stride t becomes two,
     * positions with stride s·t and kernel offsets with stride d·t. A primitive because the same
     * view composed from RESHAPE/EXPAND/SHRINK (tinygrad's pooling trick) is not one strided view
     * here and would copy the input K times per window axis; as one view, a convolution reads its
     * input in place. Its vector-Jacobian rule is an overlap-add built from other primitives.
     */
    WINDOW(Group.MOVEMENT),

    // ---- unary: y = f(x)
    /** e^x. */
    EXP(Group.UNARY),
    /** ln x. */
    LOG(Group.UNARY),
    /** √x. */
    SQRT(Group.UNARY),
    /** 1/x. */
    RECIPROCAL(Group.UNARY),
    /** sin x. */
    SIN(Group.UNARY),
    /** x rounded to the node's type. */
    CAST(Group.UNARY),

    // ---- binary: z = f(x, y), operands of one shape
    /** x + y. */
    ADD(Group.BINARY),
    /** x · y. */
    MUL(Group.BINARY),
    /** max(x, y); NaN if either is NaN. */
    MAX(Group.BINARY),
    /** x &lt; y, a BOOL (false if either is NaN). */
    CMPLT(Group.BINARY, false),
    /** x = y, a BOOL (false if either is NaN). */
    CMPEQ(Group.BINARY, false),

    // ---- ternary
    /** c ? x : y, the condition c a BOOL. */
    WHERE(Group.TERNARY),

    // ---- reduce over {@link AxesArgument} axes, kept as length 1
    /** Σ x. */
    SUM(Group.REDUCE),
    /** max x (the reduce MAX; an enum cannot hold two constants named MAX). */
    REDUCE_MAX(Group.REDUCE),
    /** Π x. */
    PROD(Group.REDUCE),

    // ---- the one multiply-reduce
    /** Σ over {@link AxesArgument} axes of x · y, the axes kept as length 1. */
    CONTRACT(Group.CONTRACT),

    // ---- indexing: positions that data gives
    /**
     * {@code out[i] = x[i with coordinate a replaced by index[i]]} (PyTorch's gather): sources x and
     * an INT32 index of x's shape except along axis a ({@link GatherArgument}); the output has the
     * index's shape. An index outside [0, length of a) is an error when the kernel runs. A primitive
     * because an embedding lookup as a one-hot contraction costs a vocabulary-wide product per token.
     */
    GATHER(Group.INDEX),
    /**
     * {@code out = base; out[i with coordinate a replaced by index[i]] = src[i]} (or {@code +=}):
     * sources base, an INT32 index and src of one shape (the base's except along axis a),
     * {@link ScatterArgument}. Duplicate indices add up when accumulating (the gradient of GATHER);
     * which write wins otherwise is unspecified. Written in place into an assigned buffer, it updates a
     * preallocated key/value cache without copying it.
     */
    SCATTER(Group.INDEX),

    // ---- creation
    /** A constant (argument: the value, a Double) over the node's shape. */
    CONST(Group.CREATION, false),
    /** Element i (flat row-major index) is i; INT32. */
    IOTA(Group.CREATION, false),
    /** Uniform [0, 1) from a seed (argument: a Long), see {@code CounterRandom}. */
    RAND(Group.CREATION, false),

    // ---- graph
    /** Data given by the user, already computed. */
    INPUT(Group.GRAPH, false),
    /** The same values, compact in row-major order. */
    CONTIGUOUS(Group.GRAPH),
    /** The same values, with no gradient flowing through. */
    DETACH(Group.GRAPH, false);

    /** The families of primitives; backends implement one method per compute family. */
    public enum Group {
        /** Views over a buffer: shape, strides, offset and a valid-region mask. */
        MOVEMENT,
        /** One input, same shape out. */
        UNARY,
        /** Two inputs of one shape, same shape out. */
        BINARY,
        /** Three inputs of one shape, same shape out. */
        TERNARY,
        /** One input, reduced axes kept as length 1. */
        REDUCE,
        /** Multiply-reduce of two same-shape views. */
        CONTRACT,
        /** Reads or writes at positions an index tensor gives. */
        INDEX,
        /** No inputs. */
        CREATION,
        /** Graph bookkeeping. */
        GRAPH
    }

    private final Group group;
    private final boolean differentiable;

    Op(Group group) {
        this(group, true);
    }

    Op(Group group, boolean differentiable) {
        this.group = group;
        this.differentiable = differentiable;
    }

    /**
     * The one declaration of where gradients stop: comparisons (piecewise constant), creation,
     * leaves and DETACH. A node of a non-floating type never carries a gradient either
     * ({@link Node#tracksGradient}).
     *
     * @return whether gradients flow through this primitive to its sources
     */
    public boolean isDifferentiable() {
        return differentiable;
    }

    /** @return the op's group */
    public Group group() {
        return group;
    }

    /**
     * The argument a node of this op carries, checked when the node is made. The switch has no
     * default branch: a new primitive does not compile until it says what it takes.
     *
     * @return the argument's type, or null when the op takes none
     */
    public Class<? extends OpArgument> argumentType() {
        return switch (this) {
            case PERMUTE -> PermuteArgument.class;
            case PAD -> PadArgument.class;
            case SHRINK -> ShrinkArgument.class;
            case FLIP, SUM, REDUCE_MAX, PROD, CONTRACT -> AxesArgument.class;
            case WINDOW -> WindowArgument.class;
            case CONST -> ConstantArgument.class;
            case RAND -> SeedArgument.class;
            case GATHER -> GatherArgument.class;
            case SCATTER -> ScatterArgument.class;
            case RESHAPE, EXPAND, EXP, LOG, SQRT, RECIPROCAL, SIN, CAST, ADD, MUL, MAX, CMPLT, CMPEQ, WHERE, IOTA, INPUT,
                    CONTIGUOUS, DETACH -> null;
        };
    }

    /** @return whether this op is evaluated elementwise (unary, binary or ternary) */
    public boolean isElementwise() {
        return group == Group.UNARY || group == Group.BINARY || group == Group.TERNARY;
    }
}
