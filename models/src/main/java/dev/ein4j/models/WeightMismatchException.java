package dev.ein4j.models;

import java.util.List;
import java.util.Objects;

/**
 * A checkpoint whose tensors do not fit the model its config describes: tensors the model needs
 * that the checkpoint lacks, tensors the checkpoint has that the model does not know, and tensors
 * whose shape differs from the model's. All of them are listed in one message, one per line, and
 * nothing was assigned:
 *
 * <pre>
 * models/vit/model.safetensors does not fit ViTForImageClassification (3 problems, nothing was loaded):
 *   missing: classifier.bias [10]
 *   unexpected: classifier.extra [4]
 *   shape: vit.layernorm.weight is [32] in the model but [64] in the checkpoint
 * </pre>
 */
public class WeightMismatchException extends ModelLoadException {

    private final List<String> problems;

    /**
     * @param source the weights file (or index) and the model, for the first line
     * @param problems one line per tensor at fault
     */
    public WeightMismatchException(String source, List<String> problems) {
        super(Objects.requireNonNull(source, "source") + " (" + Objects.requireNonNull(problems, "problems").size() + (problems.size() == 1 ? " problem" : " problems")
                + ", nothing was loaded):\n  " + String.join("\n  ", problems));
        this.problems = List.copyOf(problems);
    }

    /** @return one line per tensor at fault, e.g. {@code "missing: classifier.bias [10]"} */
    public List<String> problems() {
        return problems;
    }
}
