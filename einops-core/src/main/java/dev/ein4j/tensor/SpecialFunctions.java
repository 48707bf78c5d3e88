package dev.ein4j.tensor;

import dev.ein4j.ir.DType;
import dev.ein4j.ir.Op;

/**
 * The error function from primitives, by W. J. Cody's rational Chebyshev approximations ("Rational
 * Chebyshev approximations for the error function", Math. Comp. 1969), which reach double
 * precision on three intervals: erf(y) = y·R₁(y²) for y ≤ 0.46875; erfc(y) = e^(−y²)·R₂(y) for
 * y ≤ 4; erfc(y) = e^(−y²)/y · (1/√π − R₃(1/y²)/y²) beyond. Each interval is evaluated on an input
 * clamped into it, and a {@code where} picks the one that applies.
 *
 * <p>float32 tensors take a shorter road to erfc: one Chebyshev-fitted formula for every y ≥ 0
 * (Press et al., <i>Numerical Recipes</i>, §6.2), erfc(y) ≈ t·e^(−y² + S(t)) with t = 1/(1 + y/2)
 * and S a polynomial of degree 9, whose fractional error is below 1.2·10⁻⁷ (float32's epsilon)
 * everywhere. It is about 30 primitives where the three intervals are about 75: an exact GELU in
 * float32 (a ViT's MLP epilogue) is 61 kernel instructions, 19 of them constants, instead of 176.
 */
final class SpecialFunctions {

    private static final double THRESHOLD = 0.46875;
    private static final double ONE_OVER_SQRT_PI = 0.56418958354775628695;

    // erf(y) ≈ y · A(y²)/B(y²) on [0, 0.46875]; highest degree first
    private static final double[] A = {0.185777706184603153, 3.16112374387056560, 113.864154151050156,
        377.485237685302021, 3209.37758913846947};
    private static final double[] B = {1.0, 23.6012909523441209, 244.024637934444173, 1282.61652607737228,
        2844.23683343917062};
    // erfc(y) ≈ e^(−y²) · C(y)/D(y) on [0.46875, 4]
    private static final double[] C = {2.15311535474403846e-8, 0.564188496988670089, 8.88314979438837594,
        66.1191906371416295, 298.635138197400131, 881.952221241769090, 1712.04761263407058,
        2051.07837782607147, 1230.33935479799725};
    private static final double[] D = {1.0, 15.7449261107098347, 117.693950891312499, 537.181101862009858,
        1621.38957456669019, 3290.79923573345963, 4362.61909014324716, 3439.36767414372164,
        1230.33935480374942};
    // erfc(y) ≈ e^(−y²)/y · (1/√π − z·P(z)/Q(z)), z = 1/y², beyond 4
    private static final double[] P = {0.0163153871373020978, 0.305326634961232344, 0.360344899949804439,
        0.125781726111229246, 0.0160837851487422766, 6.58749161529837803e-4};
    private static final double[] Q = {1.0, 2.56852019228982242, 1.87295284992346047, 0.527905102951428412,
        0.0605183413124413191, 0.00233520497626869185};

    // erfc(y) ≈ t · e^(−y² + S(t)), t = 1/(1 + y/2), float32 only; highest degree first
    private static final double[] S = {0.17087277, -0.82215223, 1.48851587, -1.13520398, 0.27886807,
        -0.18628806, 0.09678418, 0.37409196, 1.00002368, -1.26551223};

    private SpecialFunctions() {
    }

    /** erf(x), odd: the sign of x times erf(|x|). */
    static Tensor erf(Tensor x) {
        Tensor f = Ops.floating(x);
        Tensor nonNegative = Elementwise.ge(f, Ops.scalarFor(f, 0));
        Tensor y = Elementwise.where(nonNegative, f, Elementwise.neg(f));
        Tensor small = Elementwise.le(y, Ops.scalarFor(y, THRESHOLD));
        Tensor ySmall = Elementwise.where(small, y, Ops.scalarFor(y, 0));
        Tensor square = ySmall.mul(ySmall);
        Tensor inner = ySmall.mul(ratio(square, A, B));
        Tensor outer = Elementwise.neg(erfcOfNonNegative(Elementwise.where(small, Ops.scalarFor(y, 1), y))).add(1.0);
        Tensor magnitude = Elementwise.where(small, inner, outer);
        return Elementwise.where(nonNegative, magnitude, Elementwise.neg(magnitude));
    }

    /** erfc(y) for y ≥ 0 (or NaN), with its relative accuracy kept far into the tail. */
    static Tensor erfcOfNonNegative(Tensor y) {
        if (y.dtype() == DType.FLOAT32) {
            return erfcOfNonNegativeSingle(y);
        }
        Tensor small = Elementwise.le(y, Ops.scalarFor(y, THRESHOLD));
        Tensor middle = Elementwise.le(y, Ops.scalarFor(y, 4));
        Tensor ySmall = Elementwise.where(small, y, Ops.scalarFor(y, 0));
        Tensor yMiddle = Elementwise.where(middle, y, Ops.scalarFor(y, 1));
        Tensor yLarge = Elementwise.where(middle, Ops.scalarFor(y, 5), y);

        Tensor erfSmall = ySmall.mul(ratio(ySmall.mul(ySmall), A, B));
        Tensor gaussianMiddle = Ops.unary(Op.EXP, Elementwise.neg(yMiddle.mul(yMiddle)));
        Tensor erfcMiddle = gaussianMiddle.mul(ratio(yMiddle, C, D));
        Tensor z = Ops.unary(Op.RECIPROCAL, yLarge.mul(yLarge));
        Tensor gaussianLarge = Ops.unary(Op.EXP, Elementwise.neg(yLarge.mul(yLarge)));
        Tensor erfcLarge = gaussianLarge.div(yLarge).mul(Elementwise.neg(z.mul(ratio(z, P, Q))).add(ONE_OVER_SQRT_PI));
        return Elementwise.where(small, Elementwise.neg(erfSmall).add(1.0), Elementwise.where(middle, erfcMiddle, erfcLarge));
    }

    /**
     * erfc(y) for float32 y ≥ 0 by the single formula of the class comment; NaN stays NaN and
     * +∞ gives 0 (t = 0 and e^(−∞) = 0).
     */
    private static Tensor erfcOfNonNegativeSingle(Tensor y) {
        Tensor t = Ops.unary(Op.RECIPROCAL, y.mul(0.5).add(1.0));
        Tensor exponent = Elementwise.neg(y.mul(y)).add(horner(t, S));
        return t.mul(Ops.unary(Op.EXP, exponent));
    }

    /** numerator(t)/denominator(t), each a polynomial by Horner's rule, coefficients highest degree first. */
    private static Tensor ratio(Tensor t, double[] numerator, double[] denominator) {
        return horner(t, numerator).div(horner(t, denominator));
    }

    private static Tensor horner(Tensor t, double[] coefficients) {
        Tensor value = t.mul(coefficients[0]).add(coefficients[1]);
        for (int i = 2; i < coefficients.length; i++) {
            value = value.mul(t).add(coefficients[i]);
        }
        return value;
    }
}
