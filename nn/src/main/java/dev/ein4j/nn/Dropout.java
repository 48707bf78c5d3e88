package dev.ein4j.nn;

import dev.ein4j.tensor.Generator;
import dev.ein4j.tensor.Tensor;

/**
 * Dropout, PyTorch's {@code nn.Dropout}: in training mode zeroes each element with probability p
 * and scales the rest by 1/(1 − p); in evaluation mode the identity.
 *
 * <pre>{@code
 * Module dropout = new Dropout(0.1);
 * }</pre>
 */
public class Dropout extends Module {

    private final double probability;
    private final Generator generator; // null: the global generator at each call, so that manualSeed applies

    /** @param probability p in [0, 1); masks from the global generator at each call ({@link Generator#global()}) */
    public Dropout(double probability) {
        Dropouts.checkProbability(probability);
        this.probability = probability;
        this.generator = null;
    }

    /**
     * @param probability p in [0, 1)
     * @param generator the random stream of the masks
     */
    public Dropout(double probability, Generator generator) {
        this.generator = Checks.notNull(generator, "generator");
        Dropouts.checkProbability(probability);
        this.probability = probability;
    }

    @Override
    public Tensor forward(Tensor x) {
        return Dropouts.dropout(x, probability, isTraining(), generator != null ? generator : Generator.global());
    }

    @Override
    protected String extraRepresentation() {
        return "p=" + probability;
    }
}
