package dev.ein4j.nn.optim;

import dev.ein4j.tensor.Tensor;
import java.util.List;

/**
 * AdamW, PyTorch's {@code optim.AdamW}: Adam with decoupled weight decay, p ← p·(1 − η·λ) before
 * the Adam step (λ defaults to 0.01). The decay is folded into the parameter's kernel: one kernel
 * per parameter.
 *
 * <pre>{@code
 * AdamW adamW = new AdamW(model.parameters(), 3e-4);
 * adamW.weightDecay(0.05);
 * }</pre>
 */
public class AdamW extends Adam {

    /**
     * @param parameters the leaves to update
     * @param learningRate η
     */
    public AdamW(List<Tensor> parameters, double learningRate) {
        super(parameters, learningRate);
        weightDecay(0.01);
    }

    @Override
    protected void update(Tensor parameter, Tensor gradient, Tensor[] state, Updates updates) {
        adamStep(parameter, gradient, state, updates);
    }

    @Override
    Tensor decayed(Tensor parameter) {
        return weightDecay() == 0 ? parameter : parameter.mul(1 - learningRate() * weightDecay());
    }
}
