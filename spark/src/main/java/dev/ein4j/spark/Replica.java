package dev.ein4j.spark;

import dev.ein4j.error.EinopsException;
import dev.ein4j.nn.Module;
import dev.ein4j.nn.optim.Optimizer;
import dev.ein4j.tensor.Tensor;
import dev.ein4j.tensor.TensorScope;
import java.io.IOException;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A worker's copy of the model and its optimizer, restored from a checkpoint, and one training step:
 * forward and backward on the worker's share of the batch, the gradients averaged over all workers,
 * the optimizer's in-place update. Every replica starts from the same checkpoint and applies the
 * same averaged gradients, so all hold the same parameters after every step ({@link #digest()}
 * checks it at the end of each epoch).
 *
 * <p>Checkpoint entries: {@code model.NAME} for the model's state dict, {@code optimizer.KEY} for the
 * optimizer's ({@link Optimizer#stateDict()}; absent in the initial checkpoint).
 */
final class Replica {

    static final String MODEL = "model.";
    static final String OPTIMIZER = "optimizer.";

    private final Module model;
    private final Optimizer optimizer;
    private final LossFunction loss;
    private final GradientAverage average;

    private Replica(Module model, Optimizer optimizer, LossFunction loss) {
        this.model = model;
        this.optimizer = optimizer;
        this.loss = loss;
        List<Tensor> parameters = model.parameters();
        List<Tensor> buffers = model.stateDict().values().stream()
                .filter(t -> t.dtype().isFloating() && parameters.stream().noneMatch(p -> p == t)).toList();
        this.average = new GradientAverage(parameters, buffers);
    }

    /**
     * @param spec the model, optimizer and loss
     * @param checkpoint the entries of the checkpoint to start from
     * @return the replica, in training mode
     */
    static Replica restore(TrainingSpec spec, Map<String, Tensor> checkpoint) {
        Module model = spec.model().get();
        Replica replica = new Replica(model, spec.optimizer().create(model.parameters()), spec.loss());
        model.loadStateDict(entries(checkpoint, MODEL));
        Map<String, Tensor> optimizerState = entries(checkpoint, OPTIMIZER);
        if (!optimizerState.isEmpty()) {
            replica.optimizer.loadStateDict(optimizerState);
        }
        model.train();
        return replica;
    }

    /**
     * One synchronous step.
     *
     * @param batch this worker's share of the global batch
     * @param columns how to make tensors of it
     * @param weight the share's fraction of the global batch
     * @param ring the workers' ring
     * @return the loss on the share
     * @throws IOException if a peer is lost
     */
    @SuppressWarnings("try") // a tensor scope is opened for what its close releases
    double step(List<Example> batch, ExampleColumns columns, double weight, RingAllReduce ring) throws IOException {
        try (TensorScope step = Tensor.scope()) {
            optimizer.zeroGrad();
            Tensor value = loss.compute(model.forward(columns.inputs(batch)), columns.targets(batch));
            if (value == null || value.size() != 1) {
                throw new EinopsException("the loss function must return one number, the mean loss of the batch; it returned "
                        + (value == null ? "null" : "a tensor of shape " + Arrays.toString(value.shape())));
            }
            value.backward();
            double number = value.item();
            average.apply(weight, ring);
            optimizer.step();
            return number;
        }
    }

    /** @return the numbers each step exchanges */
    int exchangedNumbers() {
        return average.length();
    }

    /** @return the entries of a checkpoint of this replica (the tensors themselves) */
    Map<String, Tensor> checkpoint() {
        return checkpoint(model, optimizer);
    }

    /**
     * @param model a model
     * @param optimizer its optimizer, or null (the initial checkpoint)
     * @return the checkpoint's entries
     */
    static Map<String, Tensor> checkpoint(Module model, Optimizer optimizer) {
        Map<String, Tensor> entries = new LinkedHashMap<>();
        model.stateDict().forEach((name, tensor) -> entries.put(MODEL + name, tensor));
        if (optimizer != null) {
            optimizer.stateDict().forEach((name, tensor) -> entries.put(OPTIMIZER + name, tensor));
        }
        return entries;
    }

    /**
     * @return a 64-bit digest of every parameter's and buffer's bits, equal on two replicas exactly
     *     when (but for a collision) they hold the same state
     */
    long digest() {
        long hash = 0xcbf29ce484222325L; // FNV-1a over the 64-bit patterns
        for (Tensor tensor : model.stateDict().values()) {
            for (double value : tensor.toDoubleArray()) {
                hash = (hash ^ Double.doubleToRawLongBits(value)) * 0x100000001b3L;
            }
        }
        return hash;
    }

    /**
     * @param checkpoint checkpoint entries
     * @param prefix {@link #MODEL} or {@link #OPTIMIZER}
     * @return the entries under the prefix, without it
     */
    static Map<String, Tensor> entries(Map<String, Tensor> checkpoint, String prefix) {
        Map<String, Tensor> entries = new LinkedHashMap<>();
        checkpoint.forEach((name, tensor) -> {
            if (name.startsWith(prefix)) {
                entries.put(name.substring(prefix.length()), tensor);
            }
        });
        return entries;
    }
}
