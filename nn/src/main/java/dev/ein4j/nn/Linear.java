package dev.ein4j.nn;

import dev.ein4j.tensor.Generator;
import dev.ein4j.tensor.Tensor;

/**
 * y = x·Wᵀ + b, the pattern {@code "... i, o i -> ... o"} plus a broadcast add, PyTorch's
 * {@code nn.Linear}. Parameters: {@code weight} [out, in] and {@code bias} [out], both initialized
 * U(−1/√in, 1/√in) as in PyTorch.
 *
 * <pre>{@code
 * Linear layer = new Linear(784, 10);
 * Tensor logits = layer.forward(images.rearrange("b h w -> b (h w)"));   // [b, 10]
 * }</pre>
 */
public class Linear extends Module {

    private final int inFeatures;
    private final int outFeatures;

    /**
     * @param inFeatures input features, at least 1
     * @param outFeatures output features, at least 1
     */
    public Linear(int inFeatures, int outFeatures) {
        this(inFeatures, outFeatures, true, Generator.global());
    }

    /**
     * @param inFeatures input features, at least 1
     * @param outFeatures output features, at least 1
     * @param bias whether to add a learned bias
     * @param generator the random stream of the initial weights
     */
    public Linear(int inFeatures, int outFeatures, boolean bias, Generator generator) {
        Checks.notNull(generator, "generator");
        Checks.positive(inFeatures, "inFeatures");
        Checks.positive(outFeatures, "outFeatures");
        this.inFeatures = inFeatures;
        this.outFeatures = outFeatures;
        double bound = 1 / Math.sqrt(inFeatures);
        registerParameter("weight", Init.kaimingUniform(generator, Math.sqrt(5), outFeatures, inFeatures));
        if (bias) {
            registerParameter("bias", Init.uniform(generator, -bound, bound, outFeatures));
        }
    }

    /**
     * @param x [..., in]
     * @return [..., out]
     */
    @Override
    public Tensor forward(Tensor x) {
        return hasParameter("bias") ? Functional.linear(x, weight(), bias()) : Functional.linear(x, weight());
    }

    /** @return the weight [out, in] */
    public Tensor weight() {
        return parameter("weight");
    }

    /** @return the bias [out] (an error if the layer has none) */
    public Tensor bias() {
        return parameter("bias");
    }

    @Override
    protected String extraRepresentation() {
        return "in_features=" + inFeatures + ", out_features=" + outFeatures + ", bias=" + hasParameter("bias");
    }
}
