package dev.ein4j.spark;

import dev.ein4j.nn.Module;
import java.io.Serializable;

/**
 * Makes the model: once on the driver for the initial parameters (saved as the checkpoint of epoch 0),
 * and once per worker and epoch for its replica, which then loads the last checkpoint. It is
 * serialized to the executors, so a lambda may capture only serializable values.
 *
 * <pre>{@code
 * ModelSupplier model = () -> new Sequential(new Linear(784, 128), Activation.relu(), new Linear(128, 10));
 * }</pre>
 */
@FunctionalInterface
public interface ModelSupplier extends Serializable {

    /** @return a new model, in training mode; its initial values matter only on the driver */
    Module get();
}
