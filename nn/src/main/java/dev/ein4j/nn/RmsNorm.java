package dev.ein4j.nn;

import dev.ein4j.tensor.Tensor;
import java.util.Arrays;

/**
 * Root-mean-square normalization over the trailing dimensions, PyTorch's {@code nn.RMSNorm} and
 * Hugging Face's {@code LlamaRMSNorm}: y = x · rsqrt(mean(x²) + eps) · weight, {@link Functional#rmsNorm},
 * with a learned {@code weight} (ones).
 *
 * <pre>{@code
 * RmsNorm norm = new RmsNorm(new int[] {4096}, 1e-6, true);     // Llama's input_layernorm
 * Tensor y = norm.forward(hidden);                               // [b, t, 4096]
 * }</pre>
 */
public class RmsNorm extends Module {

    private final int[] normalizedShape;
    private final double eps;

    /** @param normalizedShape the trailing shape normalized over; eps the machine epsilon of the input's dtype, learned weight */
    public RmsNorm(int... normalizedShape) {
        this(normalizedShape, Double.NaN, true);
    }

    /**
     * @param normalizedShape the trailing shape normalized over
     * @param eps added to the mean of squares (NaN: the machine epsilon of the input's dtype, PyTorch's default)
     * @param elementwiseAffine whether to learn a weight
     */
    public RmsNorm(int[] normalizedShape, double eps, boolean elementwiseAffine) {
        Checks.notNull(normalizedShape, "normalizedShape");
        for (int length : normalizedShape) {
            Checks.positive(length, "normalizedShape");
        }
        this.normalizedShape = normalizedShape.clone();
        this.eps = eps;
        if (elementwiseAffine) {
            registerParameter("weight", Tensor.ones(normalizedShape));
        }
    }

    /**
     * @param x [..., *normalizedShape]
     * @return x's shape
     */
    @Override
    public Tensor forward(Tensor x) {
        Tensor weight = hasParameter("weight") ? parameter("weight") : null;
        return Normalization.rmsNorm(Checks.notNull(x, "x"), normalizedShape, weight, eps);
    }

    @Override
    protected String extraRepresentation() {
        return Arrays.toString(normalizedShape) + ", eps=" + (Double.isNaN(eps) ? "None" : eps)
                + ", elementwise_affine=" + hasParameter("weight");
    }
}
