package dev.ein4j.nn;

import dev.ein4j.ir.DType;
import dev.ein4j.tensor.Axes;
import dev.ein4j.tensor.Tensor;
import java.util.Arrays;

/**
 * Rotary position embeddings as Hugging Face's Llama applies them: the first half of the rotated
 * features pairs with the second ({@code rotate_half}), x·cos + rotate_half(x)·sin, where
 * rotate_half(x) = [−x₂, x₁] is the view {@code "... (r f) -> ... r f"} flipped along r and signed.
 */
final class Rotary {

    private static final String OPERATION = "apply_rotary_pos_emb";

    private Rotary() {
    }

    /**
     * @param x [..., heads, t, D]
     * @param cos [..., t, R] (the head axis inserted at −3 to broadcast), R ≤ D even: the first R
     *     features rotate, the rest pass unchanged
     * @param sin like cos
     * @return x rotated, x's shape
     */
    static Tensor apply(Tensor x, Tensor cos, Tensor sin) {
        Checks.notNull(x, "x");
        Checks.notNull(cos, "cos");
        Checks.notNull(sin, "sin");
        check(x, cos, sin);
        Tensor c = cos.cast(x.dtype()).unsqueeze(-3);
        Tensor s = sin.cast(x.dtype()).unsqueeze(-3);
        int rotated = cos.length(-1);
        int features = x.length(-1);
        Tensor part = rotated == features ? x : x.slice(-1, 0, rotated);
        Tensor result = part.mul(c).add(rotateHalf(part).mul(s));
        return rotated == features ? result : Tensor.concat(-1, result, x.slice(-1, rotated, features));
    }

    /** [x₁, x₂] ↦ [−x₂, x₁] along the last axis. */
    static Tensor rotateHalf(Tensor x) {
        Tensor sign = Tensor.of(new double[] {-1, 1}, x.dtype(), 2, 1);
        return x.rearrange("... (r f) -> ... r f", Axes.of("r", 2)).flip(-2).mul(sign).rearrange("... r f -> ... (r f)");
    }

    private static void check(Tensor x, Tensor cos, Tensor sin) {
        if (!x.dtype().isFloating() || x.rank() < 3) {
            throw Checks.shapeError(OPERATION, "x must be a floating tensor [..., heads, t, headDim], got "
                    + x.dtype().numpyName() + Arrays.toString(x.shape()), x, cos, sin);
        }
        if (!Arrays.equals(cos.shape(), sin.shape()) || !cos.dtype().isFloating() || !sin.dtype().isFloating()) {
            throw Checks.shapeError(OPERATION, "cos and sin must be floating tensors of one shape, got "
                    + cos.dtype().numpyName() + Arrays.toString(cos.shape()) + " and " + sin.dtype().numpyName()
                    + Arrays.toString(sin.shape()), x, cos, sin);
        }
        int rotated = cos.rank() == 0 ? 0 : cos.length(-1);
        if (cos.rank() != x.rank() - 1 || rotated == 0 || rotated % 2 != 0 || rotated > x.length(-1)) {
            throw Checks.shapeError(OPERATION, "cos and sin must be [..., t, R] for x [..., heads, t, D], with R even and"
                    + " at most D", x, cos, sin);
        }
        int[] part = x.shape();
        part[part.length - 1] = rotated;
        int[] withHeads = cos.unsqueeze(-3).shape();
        if (!Checks.broadcastsTo(withHeads, part)) {
            throw Checks.shapeError(OPERATION, "cos and sin " + Arrays.toString(cos.shape()) + " with a head axis "
                    + Arrays.toString(withHeads) + " do not broadcast to " + Arrays.toString(part), x, cos, sin);
        }
    }

    /**
     * Hugging Face's rotary angles, in float32 as its LlamaRotaryEmbedding computes them (under
     * autocast off): the float32 product position·inv_freq, repeated for both halves, then cos and
     * sin (evaluated in float64 from those float32 angles and rounded), times the attention scaling.
     *
     * @param positionIds int32 [b, t] (or [t])
     * @param inverseFrequency float32 [R/2]
     * @return {cos, sin}, [b, t, R] in the dtype
     */
    static Tensor[] cosSin(Tensor positionIds, Tensor inverseFrequency, double scaling, DType dtype) {
        if (positionIds.dtype() != DType.INT32 || positionIds.rank() < 1 || positionIds.rank() > 2) {
            throw Checks.shapeError("rotary_embedding", "position ids must be int32 [batch, t] (or [t]), got "
                    + positionIds.dtype().numpyName() + Arrays.toString(positionIds.shape()), positionIds);
        }
        if (!dtype.isFloating()) {
            throw Checks.shapeError("rotary_embedding", "cos and sin must be floating, asked for " + dtype.numpyName(),
                    positionIds);
        }
        Tensor positions = positionIds.rank() == 1 ? positionIds.unsqueeze(0) : positionIds;
        Tensor angles = positions.cast(DType.FLOAT32).unsqueeze(-1).mul(inverseFrequency)
                .repeat("b t f -> b t (r f)", Axes.of("r", 2)).cast(DType.FLOAT64);
        Tensor cos = angles.cos();
        Tensor sin = angles.sin();
        if (scaling != 1.0) {
            cos = cos.mul(scaling);
            sin = sin.mul(scaling);
        }
        return new Tensor[] {cos.cast(dtype), sin.cast(dtype)};
    }
}
