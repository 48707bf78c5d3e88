package dev.ein4j.tensor;

import dev.ein4j.ir.Op;

/**
 * Numerically careful compositions of the primitives: values and gradients finite wherever
 * PyTorch's are, relative accuracy near zero, NaN in gives NaN out.
 *
 * <p>Two devices recur. A function that is odd or has a stable form on one side is evaluated on
 * {@code a = where(x ≥ 0, x, −x)}: unlike |x| = max(x, −x), its derivative at 0 is ±1, not a split
 * tie, so the gradient there is right. And a {@code where} never lets the branch it does not select
 * send back an infinite or NaN gradient (the gradient of where is 0·(d branch), which is NaN when
 * d branch is infinite): each branch is fed an input replaced by a harmless value where the branch
 * is not selected.
 */
final class Activations {

    private static final double SQRT_HALF = Math.sqrt(0.5);
    private static final double SQRT_TWO_OVER_PI = Math.sqrt(2 / Math.PI);

    private Activations() {
    }

    /** max(x, 0) as where(x ≤ 0, 0, x): NaN stays NaN (PyTorch's relu), the gradient at 0 is 0. */
    static Tensor relu(Tensor x) {
        Tensor zero = Ops.scalarFor(x, 0);
        return Elementwise.where(Elementwise.le(x, zero), zero, x);
    }

    /** x for x &gt; 0, slope·x otherwise (gradient slope at 0, as PyTorch). */
    static Tensor leakyRelu(Tensor x, double slope) {
        Tensor f = Ops.floating(x);
        return Elementwise.where(Elementwise.gt(f, Ops.scalarFor(f, 0)), f, f.mul(slope));
    }

    /** x for x &gt; 0, α·(eˣ − 1) otherwise, the negative branch by expm1 on a clamped input. */
    static Tensor elu(Tensor x, double alpha) {
        Tensor f = Ops.floating(x);
        Tensor positive = Elementwise.gt(f, Ops.scalarFor(f, 0));
        Tensor negativeInput = Elementwise.where(positive, Ops.scalarFor(f, 0), f);
        return Elementwise.where(positive, f, expm1(negativeInput).mul(alpha));
    }

    /**
     * 1 / (1 + e⁻ˣ) without overflow: with a = |x| and e = e⁻ᵃ ∈ (0, 1], 1/(1 + e) for x ≥ 0 and
     * e/(1 + e) for x &lt; 0. sigmoid(−400) is e⁻⁴⁰⁰ with a finite gradient, not 0·∞.
     */
    static Tensor sigmoid(Tensor x) {
        Tensor f = Ops.floating(x);
        Tensor nonNegative = Elementwise.ge(f, Ops.scalarFor(f, 0));
        Tensor a = Elementwise.where(nonNegative, f, Elementwise.neg(f));
        Tensor e = Elementwise.floatingUnary(Op.EXP, Elementwise.neg(a));
        Tensor r = Ops.unary(Op.RECIPROCAL, e.add(1.0));
        return Elementwise.where(nonNegative, r, e.mul(r));
    }

    /**
     * tanh x = sign(x) · (−t / (2 + t)) with t = expm1(−2|x|): exact to a few ulps near 0
     * (tanh(1e−8) is 1e−8), saturating to ±1 with a gradient that goes to 0, never NaN.
     */
    static Tensor tanh(Tensor x) {
        Tensor f = Ops.floating(x);
        Tensor nonNegative = Elementwise.ge(f, Ops.scalarFor(f, 0));
        Tensor a = Elementwise.where(nonNegative, f, Elementwise.neg(f));
        Tensor t = expm1(a.mul(-2.0));
        Tensor magnitude = Elementwise.neg(t).div(t.add(2.0));
        return Elementwise.where(nonNegative, magnitude, Elementwise.neg(magnitude));
    }

    /**
     * eˣ − 1, accurate near 0 by Kahan's formula (u − 1)·x / ln u with u = eˣ for |x| &lt; ½ (and x
     * itself where u rounds to 1); u − 1 elsewhere, where it does not cancel.
     */
    static Tensor expm1(Tensor x) {
        Tensor f = Ops.floating(x);
        Tensor u = Ops.unary(Op.EXP, f);
        Tensor one = Ops.scalarFor(f, 1);
        Tensor small = Elementwise.lt(Elementwise.abs(f), Ops.scalarFor(f, 0.5));
        Tensor roundsToOne = Elementwise.eq(u, one);
        Tensor kahanInput = Elementwise.where(Elementwise.logicalAnd(small, Elementwise.logicalNot(roundsToOne)), f,
                Ops.scalarFor(f, 0.25));
        Tensor uk = Ops.unary(Op.EXP, kahanInput);
        Tensor kahan = uk.sub(one).mul(kahanInput).div(Ops.unary(Op.LOG, uk));
        return Elementwise.where(small, Elementwise.where(roundsToOne, f, kahan), u.sub(one));
    }

    /**
     * ln(1 + x), accurate near 0 by ln(u)·x / (u − 1) with u = 1 + x (and x itself where u rounds to
     * 1, or x is +∞).
     */
    static Tensor log1p(Tensor x) {
        Tensor f = Ops.floating(x);
        Tensor one = Ops.scalarFor(f, 1);
        Tensor u = f.add(one);
        Tensor plain = Elementwise.logicalOr(Elementwise.eq(u, one),
                Elementwise.eq(f, Tensor.scalar(Double.POSITIVE_INFINITY, f.dtype())));
        Tensor safe = Elementwise.where(plain, one, f);
        Tensor us = safe.add(one);
        Tensor corrected = Ops.unary(Op.LOG, us).mul(safe).div(us.sub(one));
        return Elementwise.where(plain, f, corrected);
    }

    /**
     * ln(1 + eˣ) (PyTorch's softplus with β = 1) as x + log1p(e⁻ˣ) for x ≥ 0 and log1p(eˣ) for
     * x &lt; 0: no overflow, and the gradient is sigmoid(x) everywhere, ½ at 0.
     */
    static Tensor softplus(Tensor x) {
        Tensor f = Ops.floating(x);
        Tensor zero = Ops.scalarFor(f, 0);
        Tensor nonNegative = Elementwise.ge(f, zero);
        Tensor positiveInput = Elementwise.where(nonNegative, f, zero);
        Tensor negativeInput = Elementwise.where(nonNegative, zero, f);
        Tensor upper = positiveInput.add(log1p(Ops.unary(Op.EXP, Elementwise.neg(positiveInput))));
        Tensor lower = log1p(Ops.unary(Op.EXP, negativeInput));
        return Elementwise.where(nonNegative, upper, lower);
    }

    /** x · sigmoid(x). */
    static Tensor silu(Tensor x) {
        Tensor f = Ops.floating(x);
        return f.mul(sigmoid(f));
    }

    /**
     * x·Φ(x), Φ the standard normal distribution function, by erfc so that the left tail keeps its
     * relative accuracy: Φ(x) = 1 − ½erfc(x/√2) for x ≥ 0 and ½erfc(−x/√2) below.
     */
    static Tensor gelu(Tensor x) {
        Tensor f = Ops.floating(x);
        Tensor nonNegative = Elementwise.ge(f, Ops.scalarFor(f, 0));
        Tensor a = Elementwise.where(nonNegative, f, Elementwise.neg(f));
        Tensor tail = SpecialFunctions.erfcOfNonNegative(a.mul(SQRT_HALF)).mul(0.5);
        Tensor cdf = Elementwise.where(nonNegative, Elementwise.neg(tail).add(1.0), tail);
        return f.mul(cdf);
    }

    /** PyTorch's tanh approximation ½x(1 + tanh(√(2/π)(x + 0.044715x³))), as x·sigmoid(2·inner). */
    static Tensor geluTanh(Tensor x) {
        Tensor f = Ops.floating(x);
        Tensor inner = f.add(f.mul(f).mul(f).mul(0.044715)).mul(SQRT_TWO_OVER_PI);
        return f.mul(sigmoid(inner.mul(2.0)));
    }
}
