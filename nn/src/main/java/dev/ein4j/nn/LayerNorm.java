package dev.ein4j.nn;

import dev.ein4j.tensor.Tensor;
import java.util.Arrays;

/**
 * Layer normalization over the trailing dimensions, PyTorch's {@code nn.LayerNorm}:
 * {@link Functional#layerNorm} with a learned {@code weight} (ones) and {@code bias} (zeros).
 *
 * <pre>{@code
 * LayerNorm norm = new LayerNorm(512);          // over the last dimension of [b, t, 512]
 * }</pre>
 */
public class LayerNorm extends Module {

    private final int[] normalizedShape;
    private final double eps;

    /** @param normalizedShape the trailing shape normalized over, eps 1e-5, learned affine */
    public LayerNorm(int... normalizedShape) {
        this(normalizedShape, 1e-5, true);
    }

    /**
     * @param normalizedShape the trailing shape normalized over
     * @param eps added to the variance
     * @param elementwiseAffine whether to learn a weight and a bias
     */
    public LayerNorm(int[] normalizedShape, double eps, boolean elementwiseAffine) {
        Checks.notNull(normalizedShape, "normalizedShape");
        for (int length : normalizedShape) {
            Checks.positive(length, "normalizedShape");
        }
        this.normalizedShape = normalizedShape.clone();
        this.eps = eps;
        if (elementwiseAffine) {
            registerParameter("weight", Tensor.ones(normalizedShape));
            registerParameter("bias", Tensor.zeros(normalizedShape));
        }
    }

    @Override
    public Tensor forward(Tensor x) {
        return hasParameter("weight") ? Functional.layerNorm(x, normalizedShape, parameter("weight"), parameter("bias"), eps)
                : Functional.layerNorm(x, normalizedShape, eps);
    }

    @Override
    protected String extraRepresentation() {
        return Arrays.toString(normalizedShape) + ", eps=" + eps + ", elementwise_affine=" + hasParameter("weight");
    }
}
