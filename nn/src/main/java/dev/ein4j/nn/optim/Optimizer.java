package dev.ein4j.nn.optim;

import dev.ein4j.error.EinopsException;
import dev.ein4j.tensor.Tensor;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Updates parameters from their accumulated gradients, in place ({@link Tensor#assign}): each
 * updated tensor (the parameter and each piece of optimizer state) is one elementwise kernel that
 * reads the old values and writes the new ones into the same buffer, so a step allocates nothing.
 * Parameters without a gradient are skipped.
 *
 * <pre>{@code
 * Optimizer optimizer = new Adam(model.parameters(), 1e-3);
 * for (Batch batch : batches) {
 *     optimizer.zeroGrad();
 *     Functional.crossEntropy(model.forward(batch.images()), batch.labels()).backward();
 *     optimizer.step();
 * }
 * }</pre>
 */
public abstract class Optimizer {

    private final List<Tensor> parameters;
    private final Map<Tensor, Tensor[]> state = new IdentityHashMap<>();
    private double learningRate;
    private long steps;

    /**
     * @param parameters the leaves to update (each must require gradients)
     * @param learningRate the step size, positive
     */
    protected Optimizer(List<Tensor> parameters, double learningRate) {
        Objects.requireNonNull(parameters, "parameters");
        this.parameters = new ArrayList<>(parameters.size());
        for (Tensor parameter : parameters) {
            Objects.requireNonNull(parameter, "parameters");
            if (!parameter.requiresGrad() || !parameter.dtype().isFloating()) {
                throw new EinopsException("an optimizer updates floating leaves made with requireGrad(); got a tensor "
                        + parameter.dtype().numpyName() + java.util.Arrays.toString(parameter.shape())
                        + " that does not collect gradients");
            }
            this.parameters.add(parameter);
        }
        setLearningRate(learningRate);
    }

    /** Applies one update to every parameter that has a gradient. */
    public void step() {
        steps++;
        for (Tensor parameter : parameters) {
            if (parameter.hasGrad()) {
                update(parameter, parameter.grad(), state.computeIfAbsent(parameter, p -> new Tensor[stateSize()]));
            }
        }
    }

    /**
     * Updates one parameter in place.
     *
     * @param parameter the parameter
     * @param gradient its accumulated gradient
     * @param state this optimizer's tensors for the parameter, null until the update sets them
     */
    protected abstract void update(Tensor parameter, Tensor gradient, Tensor[] state);

    /** @return how many state tensors each parameter gets (momentum, moments) */
    protected abstract int stateSize();

    /** Clears the gradients of all parameters. */
    public void zeroGrad() {
        parameters.forEach(Tensor::zeroGrad);
    }

    /** @return the parameters, in order (read-only) */
    public List<Tensor> parameters() {
        return Collections.unmodifiableList(parameters);
    }

    /** @return the step size */
    public double learningRate() {
        return learningRate;
    }

    /**
     * Changes the step size (learning-rate schedules).
     *
     * @param learningRate positive and finite
     */
    public void setLearningRate(double learningRate) {
        this.learningRate = Hyperparameters.positive(learningRate, "learning rate");
    }

    /** @return the number of {@link #step()} calls so far (t in Adam's bias correction) */
    public long steps() {
        return steps;
    }

    /**
     * @param like a parameter
     * @return a compact zero tensor of its shape and type, updatable in place
     */
    protected static Tensor zerosLike(Tensor like) {
        return Tensor.zeros(like.dtype(), like.shape()).contiguous().realize();
    }
}
