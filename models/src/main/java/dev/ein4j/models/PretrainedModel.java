package dev.ein4j.models;

import dev.ein4j.nn.Module;
import dev.ein4j.tensor.Tensor;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A Hugging Face model: a {@link Module} tree whose state-dict names are those of the
 * transformers class it implements, so that the checkpoint of that class loads into it by name.
 * {@link #forward} returns the head's logits.
 *
 * <p>Subclasses are {@link LanguageModel}s (token ids in) and {@link ImageClassifier}s (pixels in).
 */
public abstract class PretrainedModel extends Module {

    private final String architecture;

    /** @param architecture the transformers class this model implements, as {@code architectures[0]} names it */
    protected PretrainedModel(String architecture) {
        this.architecture = Objects.requireNonNull(architecture, "architecture");
    }

    /** @return the transformers class this model implements, as {@code architectures[0]} names it */
    public final String architecture() {
        return architecture;
    }

    /**
     * Whether a checkpoint tensor that this model does not hold may be skipped: a copy of a tied
     * weight, or a buffer that older transformers versions saved (an attention mask, position ids).
     *
     * @param name a checkpoint tensor's name
     * @return whether to skip it rather than report it as unexpected
     */
    protected boolean ignoresCheckpointTensor(String name) {
        return false;
    }

    /**
     * Assigns a checkpoint's tensors to this model's parameters and buffers, in place, converted to
     * each entry's type. Every tensor is checked before any is assigned: a tensor the model needs
     * that the checkpoint lacks, one the checkpoint has that the model does not know, or one of
     * another shape or kind (floating or integer) make one {@link WeightMismatchException} listing
     * each, and the model keeps its values.
     *
     * @param checkpoint the weights
     * @throws WeightMismatchException if the checkpoint does not fit
     */
    public void loadCheckpoint(Checkpoint checkpoint) {
        Objects.requireNonNull(checkpoint, "checkpoint");
        Map<String, Tensor> own = stateDict();
        Map<String, Tensor> found = checkpoint.tensors();
        List<String> problems = new ArrayList<>();
        Map<String, Tensor> assignment = new LinkedHashMap<>();
        for (Map.Entry<String, Tensor> entry : own.entrySet()) {
            String name = entry.getKey();
            Tensor target = entry.getValue();
            Tensor value = found.get(name);
            if (value == null) {
                problems.add("missing: " + name + " " + Arrays.toString(target.shape()));
            } else if (!Arrays.equals(value.shape(), target.shape())) {
                problems.add("shape: " + name + " is " + Arrays.toString(target.shape()) + " in the model but "
                        + Arrays.toString(value.shape()) + " in the checkpoint");
            } else if (value.dtype().isFloating() != target.dtype().isFloating()) {
                problems.add("type: " + name + " is " + target.dtype().numpyName() + " in the model but "
                        + value.dtype().numpyName() + " in the checkpoint");
            } else {
                assignment.put(name, value);
            }
        }
        for (Map.Entry<String, Tensor> entry : found.entrySet()) {
            if (!own.containsKey(entry.getKey()) && !ignoresCheckpointTensor(entry.getKey())) {
                problems.add("unexpected: " + entry.getKey() + " " + Arrays.toString(entry.getValue().shape()));
            }
        }
        if (!problems.isEmpty()) {
            throw new WeightMismatchException(checkpoint.source() + " does not fit " + architecture(), problems);
        }
        loadStateDict(assignment);
    }
}
