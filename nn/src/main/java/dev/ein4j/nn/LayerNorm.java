package dev.ein4j.nn;

import dev.ein4j.tensor.Tensor;
import java.util.Arrays;

/**
 * Layer normalization over the trailing dimensions, PyTorch's {@code nn.LayerNorm}:
 * {@link Functional#layerNorm} with a learned {@code weight} (ones) and {@code bias} (zeros); or,
 * made by {@link #channelsFirst}, over dimension 1 of [N, C, *] (Hugging Face's ConvNextLayerNorm
 * with {@code data_format="channels_first"}, {@link Functional#layerNormChannels}).
 *
 * <pre>{@code
 * LayerNorm norm = new LayerNorm(512);                    // over the last dimension of [b, t, 512]
 * LayerNorm channels = LayerNorm.channelsFirst(96, 1e-6); // over C of [b, 96, h, w]
 * }</pre>
 */
public class LayerNorm extends Module {

    private final int[] normalizedShape;
    private final double eps;
    private final boolean channelsFirst;

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
        this(normalizedShape, eps, elementwiseAffine, false);
    }

    private LayerNorm(int[] normalizedShape, double eps, boolean elementwiseAffine, boolean channelsFirst) {
        Checks.notNull(normalizedShape, "normalizedShape");
        for (int length : normalizedShape) {
            Checks.positive(length, "normalizedShape");
        }
        this.normalizedShape = normalizedShape.clone();
        this.eps = eps;
        this.channelsFirst = channelsFirst;
        if (elementwiseAffine) {
            registerParameter("weight", Tensor.ones(normalizedShape));
            registerParameter("bias", Tensor.zeros(normalizedShape));
        }
    }

    /**
     * Layer normalization over the channels of [N, C, *] (the state dict as {@code LayerNorm(C)}'s:
     * {@code weight} and {@code bias} [C]), Hugging Face's ConvNextLayerNorm with
     * {@code data_format="channels_first"}.
     *
     * @param numChannels C
     * @param eps added to the variance
     * @return the layer
     */
    public static LayerNorm channelsFirst(int numChannels, double eps) {
        return new LayerNorm(new int[] {numChannels}, eps, true, true);
    }

    @Override
    public Tensor forward(Tensor x) {
        if (channelsFirst) {
            Checks.notNull(x, "x");
            if (x.rank() >= 2 && x.length(1) != normalizedShape[0]) {
                throw Checks.shapeError("layer_norm_channels", "expected " + normalizedShape[0] + " channels in dimension 1", x);
            }
            return Functional.layerNormChannels(x, parameter("weight"), parameter("bias"), eps);
        }
        return hasParameter("weight") ? Functional.layerNorm(x, normalizedShape, parameter("weight"), parameter("bias"), eps)
                : Functional.layerNorm(x, normalizedShape, eps);
    }

    @Override
    protected String extraRepresentation() {
        return Arrays.toString(normalizedShape) + ", eps=" + eps + ", elementwise_affine=" + hasParameter("weight")
                + (channelsFirst ? ", data_format=channels_first" : "");
    }
}
