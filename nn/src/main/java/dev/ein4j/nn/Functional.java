package dev.ein4j.nn;

import dev.ein4j.tensor.Tensor;

/**
 * The functions of PyTorch's {@code torch.nn.functional}, each a few pattern strings and
 * elementwise math; the layer modules wrap them.
 *
 * <pre>{@code
 * Tensor logits = Functional.linear(x, w, b);                         // "b ... i, o i -> b ... o"
 * Tensor loss = Functional.crossEntropy(logits, labels);              // int32 labels, mean over the batch
 * Tensor y = Functional.layerNorm(x, new int[] {512}, gamma, beta, 1e-5);
 * }</pre>
 */
public final class Functional {

    private Functional() {
    }

    // ------------------------------------------------------------------ losses

    /**
     * Cross-entropy of logits against class indices, PyTorch's {@code cross_entropy}: −log softmax
     * of the target class, averaged over the batch. Stable for huge logits.
     *
     * @param logits [N, C] (or [C] for one example)
     * @param target int32 class indices, [N] (or [])
     * @return the mean loss, a scalar
     */
    public static Tensor crossEntropy(Tensor logits, Tensor target) {
        return Losses.crossEntropy(logits, target, LossReduction.MEAN, 0.0);
    }

    /**
     * @param logits [N, C] (or [C])
     * @param target int32 class indices, [N] (or [])
     * @param reduction mean, sum or none (then one loss per example)
     * @param labelSmoothing ε in [0, 1]: the target is (1 − ε) on the class plus ε/C on every class
     * @return the loss
     */
    public static Tensor crossEntropy(Tensor logits, Tensor target, LossReduction reduction, double labelSmoothing) {
        return Losses.crossEntropy(logits, target, reduction, labelSmoothing);
    }

    /**
     * @param input predictions
     * @param target targets, broadcast against the predictions
     * @return the mean squared error
     */
    public static Tensor mseLoss(Tensor input, Tensor target) {
        return Losses.mseLoss(input, target, LossReduction.MEAN);
    }

    /**
     * @param input predictions
     * @param target targets, broadcast against the predictions
     * @param reduction mean, sum or none
     * @return the squared errors, combined
     */
    public static Tensor mseLoss(Tensor input, Tensor target, LossReduction reduction) {
        return Losses.mseLoss(input, target, reduction);
    }

    // ------------------------------------------------------------------ normalization

    /**
     * Layer normalization over the trailing dimensions, PyTorch's {@code layer_norm}:
     * (x − mean) / √(var + eps) · weight + bias, the variance biased.
     *
     * @param x [..., *normalizedShape]
     * @param normalizedShape the trailing shape normalized over
     * @param weight scale, of the normalized shape
     * @param bias shift, of the normalized shape
     * @param eps added to the variance
     * @return the normalized tensor, x's shape
     */
    public static Tensor layerNorm(Tensor x, int[] normalizedShape, Tensor weight, Tensor bias, double eps) {
        Checks.notNull(weight, "weight");
        Checks.notNull(bias, "bias");
        return Normalization.layerNorm(x, normalizedShape, weight, bias, eps);
    }

    /**
     * Layer normalization without the affine part: (x − mean) / √(var + eps).
     *
     * @param x [..., *normalizedShape]
     * @param normalizedShape the trailing shape normalized over
     * @param eps added to the variance
     * @return the normalized tensor, x's shape
     */
    public static Tensor layerNorm(Tensor x, int[] normalizedShape, double eps) {
        return Normalization.layerNorm(x, normalizedShape, null, null, eps);
    }

    // ------------------------------------------------------------------ linear

    /**
     * x·Wᵀ as one pattern: {@code einsum("... i, o i -> ... o")}, PyTorch's {@code linear} without bias.
     *
     * @param x [..., in]
     * @param weight [out, in]
     * @return [..., out]
     */
    public static Tensor linear(Tensor x, Tensor weight) {
        return linearWithOptionalBias(x, weight, null);
    }

    /**
     * x·Wᵀ + b as one pattern and a broadcast add, PyTorch's {@code linear}.
     *
     * @param x [..., in]
     * @param weight [out, in]
     * @param bias [out]
     * @return [..., out]
     */
    public static Tensor linear(Tensor x, Tensor weight, Tensor bias) {
        Checks.notNull(bias, "bias");
        return linearWithOptionalBias(x, weight, bias);
    }

    private static Tensor linearWithOptionalBias(Tensor x, Tensor weight, Tensor bias) {
        Checks.notNull(x, "x");
        Checks.notNull(weight, "weight");
        Checks.rank(weight, "linear", "weight", 2);
        if (x.rank() == 0 || x.length(-1) != weight.length(1)) {
            throw Checks.shapeError("linear", "input features " + (x.rank() == 0 ? "none" : x.length(-1))
                    + " do not match the weight's " + weight.length(1), x, weight);
        }
        Tensor y = dev.ein4j.tensor.Ein.einsum("... i, o i -> ... o", x, weight);
        if (bias != null) {
            if (bias.rank() != 1 || bias.length(0) != weight.length(0)) {
                throw Checks.shapeError("linear", "bias must have shape [" + weight.length(0) + "]", weight, bias);
            }
            y = y.add(bias);
        }
        return y;
    }
}
