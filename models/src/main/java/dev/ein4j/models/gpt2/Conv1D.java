package dev.ein4j.models.gpt2;

import dev.ein4j.nn.Module;
import dev.ein4j.tensor.Ein;
import dev.ein4j.tensor.Tensor;
import java.util.Objects;

/**
 * GPT-2's "Conv1D", a linear layer whose weight is stored [in, out] (transposed from
 * {@link dev.ein4j.nn.Linear}'s): y = {@code einsum("... i, i o -> ... o", x, weight)} + bias.
 * Parameters {@code weight} [in, out] and {@code bias} [out], both zeros until loaded.
 */
public final class Conv1D extends Module {

    /**
     * @param inFeatures nx, the input width
     * @param outFeatures nf, the output width
     */
    public Conv1D(int inFeatures, int outFeatures) {
        registerParameter("weight", Tensor.zeros(inFeatures, outFeatures));
        registerParameter("bias", Tensor.zeros(outFeatures));
    }

    /**
     * @param x [..., in]
     * @return [..., out]
     */
    @Override
    public Tensor forward(Tensor x) {
        Objects.requireNonNull(x, "x");
        return Ein.einsum("... i, i o -> ... o", x, parameter("weight")).add(parameter("bias"));
    }

    @Override
    protected String extraRepresentation() {
        return "nf=" + parameter("weight").length(1) + ", nx=" + parameter("weight").length(0);
    }
}
