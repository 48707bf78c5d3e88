package dev.ein4j.nn.optim;

import dev.ein4j.tensor.Tensor;
import java.util.List;

/**
 * Adam, PyTorch's {@code optim.Adam}: at step t, with β₁, β₂, ε, learning rate η and L2 weight
 * decay λ added to the gradient,
 * <pre>
 *   g ← g + λ·p
 *   m ← β₁·m + (1 − β₁)·g          v ← β₂·v + (1 − β₂)·g²
 *   p ← p − η · (m / (1 − β₁ᵗ)) / (√(v / (1 − β₂ᵗ)) + ε)
 * </pre>
 * One kernel per parameter, writing p, m and v in place. {@link AdamW} decouples the decay.
 *
 * <pre>{@code
 * Adam adam = new Adam(model.parameters(), 1e-3).betas(0.9, 0.999);
 * }</pre>
 */
public class Adam extends Optimizer {

    private double beta1 = 0.9;
    private double beta2 = 0.999;
    private double eps = 1e-8;
    private double weightDecay;

    /**
     * @param parameters the leaves to update
     * @param learningRate η (PyTorch's default is 1e-3)
     */
    public Adam(List<Tensor> parameters, double learningRate) {
        super(parameters, learningRate);
    }

    /**
     * @param beta1 β₁ in [0, 1), the decay of the first moment
     * @param beta2 β₂ in [0, 1), the decay of the second moment
     * @return this optimizer
     */
    public Adam betas(double beta1, double beta2) {
        this.beta1 = Hyperparameters.fraction(beta1, "beta1");
        this.beta2 = Hyperparameters.fraction(beta2, "beta2");
        return this;
    }

    /**
     * @param eps ε, added to the denominator, positive
     * @return this optimizer
     */
    public Adam eps(double eps) {
        this.eps = Hyperparameters.positive(eps, "eps");
        return this;
    }

    /**
     * @param weightDecay λ (not negative)
     * @return this optimizer
     */
    public Adam weightDecay(double weightDecay) {
        this.weightDecay = Hyperparameters.nonNegative(weightDecay, "weight decay");
        return this;
    }

    /** @return λ */
    protected double weightDecay() {
        return weightDecay;
    }

    @Override
    protected int stateSize() {
        return 2;
    }

    @Override
    protected String[] stateNames() {
        return new String[] {"exp_avg", "exp_avg_sq"};
    }

    @Override
    protected void update(Tensor parameter, Tensor gradient, Tensor[] state, Updates updates) {
        Tensor g = weightDecay == 0 ? gradient : gradient.add(parameter.mul(weightDecay));
        adamStep(parameter, g, state, updates);
    }

    /** @return the parameter before the step: itself for Adam, decayed for AdamW */
    Tensor decayed(Tensor parameter) {
        return parameter;
    }

    /** The moment updates and the bias-corrected step, shared with AdamW. */
    final void adamStep(Tensor parameter, Tensor g, Tensor[] state, Updates updates) {
        if (state[0] == null) {
            state[0] = zerosLike(parameter);
            state[1] = zerosLike(parameter);
        }
        Tensor m = state[0].mul(beta1).add(g.mul(1 - beta1));
        Tensor v = state[1].mul(beta2).add(g.square().mul(1 - beta2));
        long t = steps();
        double firstCorrection = 1 - Math.pow(beta1, t);
        double secondCorrection = 1 - Math.pow(beta2, t);
        Tensor denominator = v.div(secondCorrection).sqrt().add(eps);
        updates.set(state[0], m);
        updates.set(state[1], v);
        updates.set(parameter, decayed(parameter).sub(m.div(denominator).mul(learningRate() / firstCorrection)));
    }
}
