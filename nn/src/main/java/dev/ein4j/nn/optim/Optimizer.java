package dev.ein4j.nn.optim;

import dev.ein4j.error.EinopsException;
import dev.ein4j.tensor.Tensor;
import dev.ein4j.tensor.TensorScope;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Updates parameters from their accumulated gradients, in place: a step computes every new value
 * (parameters and optimizer state) from the old ones and writes them all in one realization
 * ({@link Tensor#assign(List, List)}), so a parameter and its state are one elementwise kernel that
 * reads the old values and writes the new ones into the same buffers, a step allocates nothing, and
 * every step after the first replays the first one's schedule (the learning rate and step-dependent
 * numbers are kernel parameters). Parameters without a gradient are skipped.
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

    /** Applies one update to every parameter that has a gradient, all in one realization. */
    public void step() {
        steps++;
        Updates updates = new Updates();
        for (Tensor parameter : parameters) {
            if (parameter.hasGrad()) {
                update(parameter, parameter.grad(), state.computeIfAbsent(parameter, p -> new Tensor[stateSize()]), updates);
            }
        }
        updates.apply();
    }

    /**
     * Says how one parameter and its state change: each new value is an expression of the old values
     * (read them from {@code parameter} and {@code state}; a new value that reads another new value
     * uses that expression, not the tensor it will be written to).
     *
     * @param parameter the parameter
     * @param gradient its accumulated gradient
     * @param state this optimizer's tensors for the parameter, null until the update sets them (make
     *     them with {@link #zerosLike})
     * @param updates where to put each new value
     */
    protected abstract void update(Tensor parameter, Tensor gradient, Tensor[] state, Updates updates);

    /** The new values of one step, written together when every parameter has said its own. */
    protected static final class Updates {
        private final List<Tensor> targets = new ArrayList<>();
        private final List<Tensor> values = new ArrayList<>();

        private Updates() {
        }

        /**
         * @param target a parameter or a piece of state
         * @param value its new value, computed from the values before the step
         */
        public void set(Tensor target, Tensor value) {
            targets.add(target);
            values.add(value);
        }

        private void apply() {
            if (!targets.isEmpty()) {
                Tensor.assign(targets, values);
            }
        }
    }

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
        // the optimizer's own state: made outside any scope the step runs in, which must not close it
        return TensorScope.unscoped(() -> Tensor.zeros(like.dtype(), like.shape()).contiguous().realize());
    }
}
