package dev.ein4j.spark;

import dev.ein4j.nn.optim.Optimizer;
import dev.ein4j.tensor.Tensor;
import java.io.Serializable;
import java.util.List;

/**
 * Makes each replica's optimizer over its parameters; serialized to the executors. The optimizer's
 * state is saved in every checkpoint and restored into the optimizer this makes
 * ({@link Optimizer#stateDict()}), so its kind and hyperparameters must be the same every time.
 *
 * <pre>{@code
 * OptimizerFactory adam = parameters -> new Adam(parameters, 2e-3);
 * }</pre>
 */
@FunctionalInterface
public interface OptimizerFactory extends Serializable {

    /**
     * @param parameters the replica's parameters, in state-dict order
     * @return an optimizer over them
     */
    Optimizer create(List<Tensor> parameters);
}
