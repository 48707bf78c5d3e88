package dev.ein4j.nn.optim;

import dev.ein4j.error.EinopsException;
import dev.ein4j.tensor.Tensor;
import java.util.List;

/**
 * Stochastic gradient descent, PyTorch's {@code optim.SGD}: with weight decay λ, momentum μ,
 * dampening τ and learning rate η,
 * <pre>
 *   g ← g + λ·p
 *   b ← g (first step), else μ·b + (1 − τ)·g
 *   g ← g + μ·b (Nesterov), else b
 *   p ← p − η·g
 * </pre>
 * One kernel per parameter, which also writes the momentum buffer.
 *
 * <pre>{@code
 * Sgd sgd = new Sgd(model.parameters(), 0.1).momentum(0.9).nesterov(true).weightDecay(5e-4);
 * }</pre>
 */
public class Sgd extends Optimizer {

    private double momentum;
    private double dampening;
    private double weightDecay;
    private boolean nesterov;

    /**
     * @param parameters the leaves to update
     * @param learningRate η
     */
    public Sgd(List<Tensor> parameters, double learningRate) {
        super(parameters, learningRate);
    }

    /**
     * @param momentum μ in [0, 1)
     * @return this optimizer
     */
    public Sgd momentum(double momentum) {
        this.momentum = Hyperparameters.fraction(momentum, "momentum");
        return this;
    }

    /**
     * @param dampening τ in [0, 1)
     * @return this optimizer
     */
    public Sgd dampening(double dampening) {
        this.dampening = Hyperparameters.fraction(dampening, "dampening");
        return this;
    }

    /**
     * @param weightDecay λ, the L2 penalty's factor (not negative)
     * @return this optimizer
     */
    public Sgd weightDecay(double weightDecay) {
        this.weightDecay = Hyperparameters.nonNegative(weightDecay, "weight decay");
        return this;
    }

    /**
     * @param nesterov whether to use Nesterov momentum (needs momentum &gt; 0 and no dampening)
     * @return this optimizer
     */
    public Sgd nesterov(boolean nesterov) {
        this.nesterov = nesterov;
        return this;
    }

    @Override
    protected int stateSize() {
        return 1;
    }

    @Override
    protected String[] stateNames() {
        return new String[] {"momentum_buffer"};
    }

    @Override
    protected void update(Tensor parameter, Tensor gradient, Tensor[] state, Updates updates) {
        if (nesterov && (momentum == 0 || dampening != 0)) {
            throw new EinopsException("Nesterov momentum needs a momentum above 0 and zero dampening");
        }
        Tensor g = weightDecay == 0 ? gradient : gradient.add(parameter.mul(weightDecay));
        if (momentum != 0) {
            boolean first = state[0] == null;
            if (first) {
                state[0] = zerosLike(parameter);
            }
            Tensor buffer = first ? g : state[0].mul(momentum).add(g.mul(1 - dampening));
            updates.set(state[0], buffer);
            g = nesterov ? g.add(buffer.mul(momentum)) : buffer;
        }
        updates.set(parameter, parameter.sub(g.mul(learningRate())));
    }
}
