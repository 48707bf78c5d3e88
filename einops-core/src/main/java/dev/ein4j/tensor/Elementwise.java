package dev.ein4j.tensor;

import dev.ein4j.ir.DType;
import dev.ein4j.ir.Op;

/**
 * Elementwise arithmetic, comparisons, logic and selection, composed from the IR's few primitives
 * (ADD MUL MAX CMPLT CMPEQ WHERE, EXP LOG SQRT RECIPROCAL SIN CAST). The compositions keep NaN
 * visible (it propagates wherever PyTorch's does) and take care that a branch not selected by a
 * {@code where} cannot send an infinite or NaN gradient back.
 */
final class Elementwise {

    private Elementwise() {
    }

    static Tensor add(Tensor x, Tensor y) {
        return Ops.binary(Op.ADD, x, y);
    }

    static Tensor sub(Tensor x, Tensor y) {
        return Ops.binary(Op.ADD, x, neg(y));
    }

    static Tensor mul(Tensor x, Tensor y) {
        return Ops.binary(Op.MUL, x, y);
    }

    /** True division: int32 and bool operands give float32, as PyTorch's {@code /}. */
    static Tensor div(Tensor x, Tensor y) {
        return Ops.binary(Op.MUL, Ops.floating(x), Ops.unary(Op.RECIPROCAL, Ops.floating(y)));
    }

    static Tensor neg(Tensor x) {
        return x.dtype() == DType.BOOL ? Ops.binary(Op.MUL, Ops.cast(x, DType.INT32), Ops.scalarFor(x, -1))
                : Ops.binary(Op.MUL, x, Ops.scalarFor(x, -1));
    }

    /** A floating primitive: int32 and bool inputs are converted to float32 first. */
    static Tensor floatingUnary(Op op, Tensor x) {
        return Ops.unary(op, Ops.floating(x));
    }

    /** cos x = 1 − 2 sin²(x/2): accurate for large x too (sin(x + π/2) would round x + π/2). */
    static Tensor cos(Tensor x) {
        Tensor half = floatingUnary(Op.SIN, Ops.floating(x).mul(0.5));
        return half.mul(half).mul(-2.0).add(1.0);
    }

    /** |x| = max(x, −x): NaN stays NaN, and the gradient at 0 is 0 (the tie splits +1 and −1). */
    static Tensor abs(Tensor x) {
        return x.dtype() == DType.BOOL ? x : Ops.binary(Op.MAX, x, neg(x));
    }

    /** −1, 0 or 1; NaN for NaN; ±0 keeps its sign (x·0). */
    static Tensor sign(Tensor x) {
        Tensor one = Ops.scalarFor(x, 1);
        Tensor minusOne = Ops.scalarFor(x, -1);
        Tensor zero = mul(x, Ops.scalarFor(x, 0));
        return where(gt(x, Ops.scalarFor(x, 0)), one, where(lt(x, Ops.scalarFor(x, 0)), minusOne, zero));
    }

    static Tensor maximum(Tensor x, Tensor y) {
        return Ops.binary(Op.MAX, x, y);
    }

    /** min(x, y) = r(max(r(x), r(y))) with r order-reversing; NaN if either is NaN; ties split the gradient evenly. */
    static Tensor minimum(Tensor x, Tensor y) {
        DType type = x.dtype().promote(y.dtype());
        return reversed(Ops.binary(Op.MAX, reversed(Ops.cast(x, type)), reversed(Ops.cast(y, type))));
    }

    /**
     * An order-reversing involution, so that a minimum is a maximum in disguise: −x for floats;
     * for int32 the bitwise complement −x − 1 (it maps the smallest int32 to the largest, where −x
     * would overflow); for bool, not.
     */
    static Tensor reversed(Tensor x) {
        return switch (x.dtype()) {
            case BOOL -> logicalNot(x);
            case INT32 -> Ops.binary(Op.ADD, Ops.binary(Op.MUL, x, Ops.scalarFor(x, -1)), Ops.scalarFor(x, -1));
            default -> neg(x);
        };
    }

    // ------------------------------------------------------------------ comparisons (BOOL results)

    static Tensor lt(Tensor x, Tensor y) {
        return Ops.binary(Op.CMPLT, x, y);
    }

    static Tensor gt(Tensor x, Tensor y) {
        return Ops.binary(Op.CMPLT, y, x);
    }

    /** x ≤ y as (x &lt; y) or (x = y): false when either is NaN. */
    static Tensor le(Tensor x, Tensor y) {
        return logicalOr(lt(x, y), eq(x, y));
    }

    static Tensor ge(Tensor x, Tensor y) {
        return logicalOr(gt(x, y), eq(x, y));
    }

    static Tensor eq(Tensor x, Tensor y) {
        return Ops.binary(Op.CMPEQ, x, y);
    }

    /** x ≠ y: true when either is NaN (numpy's and PyTorch's rule). */
    static Tensor ne(Tensor x, Tensor y) {
        return logicalNot(eq(x, y));
    }

    static Tensor isNaN(Tensor x) {
        return x.dtype().isFloating() ? ne(x, x) : Ops.constant(0, DType.BOOL, x.shape());
    }

    static Tensor isInf(Tensor x) {
        if (!x.dtype().isFloating()) {
            return Ops.constant(0, DType.BOOL, x.shape());
        }
        return eq(abs(x), Ops.constant(Double.POSITIVE_INFINITY, x.dtype(), new int[0]));
    }

    // ------------------------------------------------------------------ logic on BOOL

    static Tensor logicalNot(Tensor x) {
        return Ops.binary(Op.CMPEQ, Ops.cast(x, DType.BOOL), Ops.constant(0, DType.BOOL, new int[0]));
    }

    static Tensor logicalAnd(Tensor x, Tensor y) {
        return Ops.binary(Op.MUL, Ops.cast(x, DType.BOOL), Ops.cast(y, DType.BOOL));
    }

    static Tensor logicalOr(Tensor x, Tensor y) {
        return Ops.binary(Op.MAX, Ops.cast(x, DType.BOOL), Ops.cast(y, DType.BOOL));
    }

    // ------------------------------------------------------------------ selection

    /** condition ? x : y, broadcast; a non-bool condition means "≠ 0". */
    static Tensor where(Tensor condition, Tensor x, Tensor y) {
        DType type = x.dtype().promote(y.dtype());
        int[] shape = Ops.broadcastShapes("where", Ops.broadcastShapes("where", condition.shape(), x.shape()), y.shape());
        return Ops.apply(Op.WHERE, type, shape, null, Ops.broadcastTo(Ops.cast(condition, DType.BOOL), shape),
                Ops.broadcastTo(Ops.cast(x, type), shape), Ops.broadcastTo(Ops.cast(y, type), shape));
    }

    /**
     * min(max(x, lo), hi) as PyTorch's clamp: NaN stays NaN, and the gradient is 1 inside
     * [lo, hi] (ends included) and 0 outside. A null bound is absent.
     */
    static Tensor clamp(Tensor x, Double min, Double max) {
        Tensor result = x;
        if (min != null) {
            Tensor lo = Ops.scalarFor(x, min);
            result = where(lt(result, lo), lo, result);
        }
        if (max != null) {
            Tensor hi = Ops.scalarFor(x, max);
            result = where(gt(result, hi), hi, result);
        }
        return result;
    }

    // ------------------------------------------------------------------ powers

    /**
     * x^p for a constant p: exact repeated squaring for whole exponents (negative bases included),
     * √ for 0.5, otherwise exp(p·ln x) (NaN for negative bases, as numpy) with 0^p handled apart.
     */
    static Tensor pow(Tensor x, double exponent) {
        if (exponent == Math.rint(exponent) && Math.abs(exponent) <= (1L << 31)) {
            long power = (long) Math.abs(exponent);
            Tensor base = exponent < 0 ? Ops.unary(Op.RECIPROCAL, Ops.floating(x)) : x;
            return wholePower(base, power);
        }
        Tensor floating = Ops.floating(x);
        if (exponent == 0.5) {
            return Ops.unary(Op.SQRT, floating);
        }
        // 0 and −∞ have the values C99's pow gives them; ln would make NaN of both
        Tensor zero = Ops.scalarFor(floating, 0);
        Tensor minusInfinity = Ops.scalarFor(floating, Double.NEGATIVE_INFINITY);
        Tensor isZero = eq(floating, zero);
        Tensor isMinusInfinity = eq(floating, minusInfinity);
        Tensor special = logicalOr(isZero, isMinusInfinity);
        Tensor safe = where(special, Ops.scalarFor(floating, 1), floating); // keeps ln 0 out of the gradient
        Tensor general = Ops.unary(Op.EXP, mul(Ops.unary(Op.LOG, safe), Ops.scalarFor(floating, exponent)));
        Tensor specialValue = where(isZero, Ops.scalarFor(floating, Math.pow(0.0, exponent)),
                Ops.scalarFor(floating, Math.pow(Double.NEGATIVE_INFINITY, exponent)));
        return where(special, specialValue, general);
    }

    private static Tensor wholePower(Tensor base, long power) {
        if (power == 0) {
            return Ops.broadcastTo(Ops.scalarFor(base, 1), base.shape());
        }
        Tensor result = null;
        Tensor square = base;
        while (power > 0) {
            if ((power & 1) == 1) {
                result = result == null ? square : mul(result, square);
            }
            power >>= 1;
            if (power > 0) {
                square = mul(square, square);
            }
        }
        return result;
    }
}
