package dev.ein4j.onnx;

import dev.ein4j.tensor.Tensor;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * How {@link Onnx#export} writes a model: the names of the graph's inputs and outputs, a dynamic
 * batch axis, the opset, and what to do with random numbers and int32 inputs. Immutable: each
 * method returns a changed copy.
 *
 * <pre>{@code
 * ExportOptions options = ExportOptions.defaults()
 *         .inputNames("input_ids").outputNames("logits")
 *         .dynamicBatch()                              // axis 0 of every input may have any length
 *         .opset(18);
 * }</pre>
 */
public final class ExportOptions {

    /** The opset written unless another is asked for. */
    public static final int DEFAULT_OPSET = 17;
    /** The lowest opset written (Shape's start and end attributes, ReduceSum's axes input). */
    public static final int MIN_OPSET = 17;
    /** The highest opset written (ONNX Runtime 1.22's). */
    public static final int MAX_OPSET = 22;

    private final List<String> inputNames;
    private final List<String> outputNames;
    private final int batchAxis;
    private final int opset;
    private final boolean freezeRandom;
    private final boolean int64Inputs;
    private final Map<String, Tensor> namedWeights;

    private ExportOptions(List<String> inputNames, List<String> outputNames, int batchAxis, int opset,
            boolean freezeRandom, boolean int64Inputs, Map<String, Tensor> namedWeights) {
        this.inputNames = inputNames;
        this.outputNames = outputNames;
        this.batchAxis = batchAxis;
        this.opset = opset;
        this.freezeRandom = freezeRandom;
        this.int64Inputs = int64Inputs;
        this.namedWeights = namedWeights;
    }

    /**
     * @return inputs named {@code input_0, input_1, ...}, outputs {@code output_0, ...}, fixed
     *     shapes, opset {@value #DEFAULT_OPSET}, random numbers refused, int32 inputs declared int64
     */
    public static ExportOptions defaults() {
        return new ExportOptions(List.of(), List.of(), -1, DEFAULT_OPSET, false, true, Map.of());
    }

    /**
     * @param names one name per sample input, in order (e.g. {@code "input_ids"}); distinct, non-empty
     * @return options with those names
     */
    public ExportOptions inputNames(String... names) {
        return new ExportOptions(checkedNames(names, "names"), outputNames, batchAxis, opset, freezeRandom,
                int64Inputs, namedWeights);
    }

    /**
     * @param names one name per output of the traced call, in order (e.g. {@code "logits"})
     * @return options with those names
     */
    public ExportOptions outputNames(String... names) {
        return new ExportOptions(inputNames, checkedNames(names, "names"), batchAxis, opset, freezeRandom,
                int64Inputs, namedWeights);
    }

    /** @return options where axis 0 of every input is a batch of any length ({@link #dynamicBatch(int)}) */
    public ExportOptions dynamicBatch() {
        return dynamicBatch(0);
    }

    /**
     * A dynamic batch: the given axis of every input is declared with the symbolic length
     * {@code batch}, and every length of the graph that grows with it is computed from the input's
     * shape when the model runs. The call is traced twice, with the samples and with one more
     * batch element, to find those lengths; a graph whose structure or constants change with the
     * batch size is refused.
     *
     * @param axis the batch axis of every input, ≥ 0
     * @return options with a dynamic batch
     * @throws OnnxExportException if the axis is negative
     */
    public ExportOptions dynamicBatch(int axis) {
        if (axis < 0) {
            throw new OnnxExportException("the dynamic batch axis must be ≥ 0, got " + axis);
        }
        return new ExportOptions(inputNames, outputNames, axis, opset, freezeRandom, int64Inputs, namedWeights);
    }

    /**
     * @param version the ONNX opset, {@value #MIN_OPSET} to {@value #MAX_OPSET}
     * @return options with that opset
     * @throws OnnxExportException if it is outside that range
     */
    public ExportOptions opset(int version) {
        if (version < MIN_OPSET || version > MAX_OPSET) {
            throw new OnnxExportException("opset " + version + " is not written; choose " + MIN_OPSET + " to " + MAX_OPSET);
        }
        return new ExportOptions(inputNames, outputNames, batchAxis, version, freezeRandom, int64Inputs, namedWeights);
    }

    /**
     * Exports random numbers drawn inside the traced call (RAND nodes: {@code Tensor.rand} in the
     * function, dropout in training mode) as the constants they were in that call, rather than
     * refusing the graph. Every run of the exported model then sees those same numbers.
     *
     * @return options that freeze random numbers
     */
    public ExportOptions freezeRandom() {
        return new ExportOptions(inputNames, outputNames, batchAxis, opset, true, int64Inputs, namedWeights);
    }

    /**
     * Declares int32 inputs as int32 in the model. By default they are int64 (ONNX's type for
     * token ids and indices), cast to int32 where the graph starts.
     *
     * @return options keeping int32 inputs
     */
    public ExportOptions int32Inputs() {
        return new ExportOptions(inputNames, outputNames, batchAxis, opset, freezeRandom, false, namedWeights);
    }

    /**
     * Names initializers: a weight the traced graph reads is written under its name here (a
     * state-dict name such as {@code "transformer.h.0.attn.c_attn.weight"}) instead of a generated
     * one. {@link Onnx#export(dev.ein4j.nn.Module, List, java.nio.file.Path, ExportOptions)} uses
     * the module's state dict.
     *
     * @param weights names and tensors (e.g. {@code model.stateDict()}); added to those given before
     * @return options with those names
     */
    public ExportOptions namedWeights(Map<String, Tensor> weights) {
        Objects.requireNonNull(weights, "weights");
        Map<String, Tensor> merged = new LinkedHashMap<>(namedWeights);
        weights.forEach((name, tensor) -> merged.put(Objects.requireNonNull(name, "weights"),
                Objects.requireNonNull(tensor, "weights")));
        return new ExportOptions(inputNames, outputNames, batchAxis, opset, freezeRandom, int64Inputs,
                Map.copyOf(merged));
    }

    /** @return the input names given, or an empty list for the defaults */
    public List<String> inputNames() {
        return inputNames;
    }

    /** @return the output names given, or an empty list for the defaults */
    public List<String> outputNames() {
        return outputNames;
    }

    /** @return whether the batch is dynamic */
    public boolean hasDynamicBatch() {
        return batchAxis >= 0;
    }

    /** @return the dynamic batch axis, or -1 */
    public int batchAxis() {
        return batchAxis;
    }

    /** @return the opset */
    public int opset() {
        return opset;
    }

    /** @return whether random numbers are frozen */
    public boolean freezesRandom() {
        return freezeRandom;
    }

    /** @return whether int32 inputs are declared int64 */
    public boolean declaresInt64Inputs() {
        return int64Inputs;
    }

    /** @return the named weights */
    public Map<String, Tensor> namedWeights() {
        return namedWeights;
    }

    private static List<String> checkedNames(String[] names, String parameter) {
        Objects.requireNonNull(names, parameter);
        for (String name : names) {
            Objects.requireNonNull(name, parameter);
            if (name.isEmpty()) {
                throw new OnnxExportException("a value name must not be empty: " + Arrays.toString(names));
            }
        }
        if (Arrays.stream(names).distinct().count() != names.length) {
            throw new OnnxExportException("value names must be distinct: " + Arrays.toString(names));
        }
        return List.of(names);
    }

    @Override
    public String toString() {
        return "ExportOptions[inputs " + inputNames + ", outputs " + outputNames + ", "
                + (batchAxis >= 0 ? "dynamic batch axis " + batchAxis : "fixed shapes") + ", opset " + opset
                + (freezeRandom ? ", random numbers frozen" : "") + (int64Inputs ? "" : ", int32 inputs") + "]";
    }
}
