package dev.ein4j.nn;

import dev.ein4j.tensor.Tensor;
import java.util.Arrays;

/** Normalization over trailing dimensions (layer norm) and over batch statistics (batch norm). */
final class Normalization {

    private Normalization() {
    }

    /**
     * (x − mean) / √(var + eps) · weight + bias over the trailing {@code normalizedShape}, with the
     * biased variance, as PyTorch's layer_norm.
     */
    static Tensor layerNorm(Tensor x, int[] normalizedShape, Tensor weight, Tensor bias, double eps) {
        Checks.notNull(x, "x");
        Checks.notNull(normalizedShape, "normalizedShape");
        int count = normalizedShape.length;
        int[] shape = x.shape();
        boolean fits = count <= shape.length
                && Arrays.equals(Arrays.copyOfRange(shape, shape.length - count, shape.length), normalizedShape);
        if (!fits) {
            throw Checks.shapeError("layer_norm", "normalized shape " + Arrays.toString(normalizedShape)
                    + " is not the trailing shape of the input " + Arrays.toString(shape), x);
        }
        for (Tensor affine : new Tensor[] {weight, bias}) {
            if (affine != null && !Arrays.equals(affine.shape(), normalizedShape)) {
                throw Checks.shapeError("layer_norm", "weight and bias must have the normalized shape "
                        + Arrays.toString(normalizedShape) + ", got " + Arrays.toString(affine.shape()), x, affine);
            }
        }
        int[] axes = Checks.range(shape.length - count, shape.length);
        Tensor mean = x.mean(axes, true);
        Tensor centered = x.sub(mean);
        Tensor variance = centered.square().mean(axes, true);
        Tensor normalized = centered.mul(variance.add(eps).rsqrt());
        if (weight != null) {
            normalized = normalized.mul(weight);
        }
        return bias == null ? normalized : normalized.add(bias);
    }
}
