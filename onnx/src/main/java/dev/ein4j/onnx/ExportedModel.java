package dev.ein4j.onnx;

import dev.ein4j.onnx.proto.Model;
import dev.ein4j.onnx.proto.OperatorNode;
import dev.ein4j.onnx.proto.TensorData;
import dev.ein4j.onnx.proto.ValueInfo;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * What {@link Onnx#export} wrote: the file, its size, the graph's inputs and outputs, and how many
 * operators of each type it holds.
 *
 * @param file the model file
 * @param bytes its size
 * @param inputs the graph inputs (name, type, shape; {@code batch} marks a dynamic batch)
 * @param outputs the graph outputs
 * @param operatorCounts operator type to count, sorted by type
 * @param initializers the number of initializers (weights and constants)
 * @param weightElements the number of elements they hold
 */
public record ExportedModel(Path file, long bytes, List<ValueInfo> inputs, List<ValueInfo> outputs,
        Map<String, Integer> operatorCounts, int initializers, long weightElements) {

    /** Copies the lists and the map. */
    public ExportedModel {
        Objects.requireNonNull(file, "file");
        inputs = List.copyOf(Objects.requireNonNull(inputs, "inputs"));
        outputs = List.copyOf(Objects.requireNonNull(outputs, "outputs"));
        operatorCounts = Map.copyOf(Objects.requireNonNull(operatorCounts, "operatorCounts"));
    }

    static ExportedModel of(Path file, long bytes, Model model) {
        Map<String, Integer> counts = new TreeMap<>();
        for (OperatorNode node : model.graph().nodes()) {
            counts.merge(node.opType(), 1, Integer::sum);
        }
        long elements = 0;
        for (TensorData data : model.graph().initializers()) {
            elements += data.size();
        }
        return new ExportedModel(file, bytes, model.graph().inputs(), model.graph().outputs(), counts,
                model.graph().initializers().size(), elements);
    }

    /** @return the number of operators */
    public int operators() {
        return operatorCounts.values().stream().mapToInt(Integer::intValue).sum();
    }

    @Override
    public String toString() {
        return file + ": " + bytes + " bytes, " + operators() + " operators " + new TreeMap<>(operatorCounts) + ", "
                + initializers + " initializers (" + weightElements + " elements)";
    }
}
