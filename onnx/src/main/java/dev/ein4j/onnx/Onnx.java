package dev.ein4j.onnx;

import dev.ein4j.nn.Module;
import dev.ein4j.onnx.proto.Graph;
import dev.ein4j.onnx.proto.Model;
import dev.ein4j.onnx.proto.OperatorSetId;
import dev.ein4j.tensor.Tensor;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import java.util.function.Function;

/**
 * ONNX export: traces one call of a model or a function of tensors, translates its IR graph
 * operator by operator, and writes an ONNX model that ONNX Runtime (or any ONNX engine) runs.
 * Sample inputs become graph inputs, the module's parameters and buffers named initializers
 * (their state-dict names), constants computed inside the call initializers; the outputs of the
 * call are the graph's outputs. Nothing is written when a node cannot be translated.
 *
 * <pre>{@code
 * Module model = ...;                                            // in evaluation mode
 * Onnx.export(model, List.of(Tensor.randn(1, 3, 224, 224)), Path.of("model.onnx"),
 *         ExportOptions.defaults().inputNames("pixel_values").outputNames("logits").dynamicBatch());
 *
 * LanguageModel gpt = ...;                                       // several inputs: a function
 * Onnx.export(in -> List.of(gpt.logits(in.get(0), in.get(1))), List.of(ids, mask), Path.of("gpt.onnx"),
 *         ExportOptions.defaults().inputNames("input_ids", "attention_mask").outputNames("logits")
 *                 .namedWeights(gpt.stateDict()));
 * }</pre>
 *
 * <p>The model is written for the opset of the options (17 by default) with the matching ONNX IR
 * version. What each primitive becomes is listed in the README ("Serving with ONNX Runtime").
 */
public final class Onnx {

    /** The producer name written into models. */
    public static final String PRODUCER = "ein4j";

    private Onnx() {
    }

    /**
     * Exports a module's {@code forward} with the default options.
     *
     * @param model a module in evaluation mode
     * @param sampleInputs one tensor, the input of {@code forward}
     * @param file the model file to write
     * @return what was written
     * @throws OnnxExportException if the model or its graph cannot be exported (nothing is written)
     * @throws UncheckedIOException if the file cannot be written
     */
    public static ExportedModel export(Module model, List<Tensor> sampleInputs, Path file) {
        return export(model, sampleInputs, file, ExportOptions.defaults());
    }

    /**
     * Exports a module's {@code forward}: its parameters and buffers become initializers named as
     * in its state dict.
     *
     * @param model a module in evaluation mode
     * @param sampleInputs one tensor, the input of {@code forward}
     * @param file the model file to write
     * @param options names, dynamic batch, opset
     * @return what was written
     * @throws OnnxExportException if the model is in training mode (dropout would draw random
     *     numbers, batch norm would use and update batch statistics), if there is not exactly one
     *     sample, or if the graph cannot be exported
     * @throws UncheckedIOException if the file cannot be written
     */
    public static ExportedModel export(Module model, List<Tensor> sampleInputs, Path file, ExportOptions options) {
        Objects.requireNonNull(model, "model");
        Objects.requireNonNull(sampleInputs, "sampleInputs");
        Objects.requireNonNull(file, "file");
        Objects.requireNonNull(options, "options");
        if (model.isTraining()) {
            throw new OnnxExportException(model.getClass().getSimpleName() + " is in training mode, where dropout draws"
                    + " random numbers and batch norm uses and updates batch statistics; call model.eval() before exporting");
        }
        if (sampleInputs.size() != 1) {
            throw new OnnxExportException(model.getClass().getSimpleName() + ".forward takes one tensor, got "
                    + sampleInputs.size() + " sample inputs; export a function of tensors for several");
        }
        return export(inputs -> List.of(model.forward(inputs.get(0))), sampleInputs, file,
                options.namedWeights(model.stateDict()));
    }

    /**
     * Exports a function of tensors with the default options.
     *
     * @param function the call to trace: the sample inputs in, the outputs out
     * @param sampleInputs the inputs of the traced call
     * @param file the model file to write
     * @return what was written
     * @throws OnnxExportException if the graph cannot be exported (nothing is written)
     * @throws UncheckedIOException if the file cannot be written
     */
    public static ExportedModel export(Function<List<Tensor>, List<Tensor>> function, List<Tensor> sampleInputs, Path file) {
        return export(function, sampleInputs, file, ExportOptions.defaults());
    }

    /**
     * Exports a function of tensors: the function is called on the sample inputs (once, twice with
     * a dynamic batch) and the graph from the inputs to its results is written.
     *
     * @param function the call to trace: the sample inputs in, the outputs out
     * @param sampleInputs the inputs of the traced call, distinct tensors
     * @param file the model file to write
     * @param options names, dynamic batch, opset, named weights
     * @return what was written
     * @throws OnnxExportException if the graph cannot be exported (nothing is written)
     * @throws UncheckedIOException if the file cannot be written
     */
    public static ExportedModel export(Function<List<Tensor>, List<Tensor>> function, List<Tensor> sampleInputs, Path file,
            ExportOptions options) {
        Objects.requireNonNull(file, "file");
        Model model = toModel(function, sampleInputs, options);
        try {
            long bytes = model.write(file);
            return ExportedModel.of(file, bytes, model);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the ONNX model " + file + ": " + e.getMessage(), e);
        } catch (IllegalStateException tooLarge) {
            throw new OnnxExportException(file + ": " + tooLarge.getMessage());
        }
    }

    /**
     * Translates a function of tensors into an ONNX model in memory, without writing it.
     *
     * @param function the call to trace
     * @param sampleInputs the inputs of the traced call
     * @param options names, dynamic batch, opset, named weights
     * @return the model ({@link Model#toByteArray()} gives the file's bytes)
     * @throws OnnxExportException if the graph cannot be exported
     */
    public static Model toModel(Function<List<Tensor>, List<Tensor>> function, List<Tensor> sampleInputs,
            ExportOptions options) {
        Objects.requireNonNull(function, "function");
        Objects.requireNonNull(sampleInputs, "sampleInputs");
        Objects.requireNonNull(options, "options");
        for (Tensor sample : sampleInputs) {
            Objects.requireNonNull(sample, "sampleInputs");
        }
        TracedGraph traced = Tracer.trace(function, sampleInputs, options);
        Graph graph = new Translation(traced, options).run(PRODUCER);
        return new Model(irVersion(options.opset()), List.of(new OperatorSetId("", options.opset())), PRODUCER,
                version(), "exported by ein4j " + version(), graph);
    }

    /** The ONNX IR version that introduced each opset: 8 for 17 and 18, 9 for 19 and 20, 10 for 21 and 22. */
    static long irVersion(int opset) {
        return opset <= 18 ? 8 : opset <= 20 ? 9 : 10;
    }

    private static String version() {
        String version = Onnx.class.getPackage().getImplementationVersion();
        return version == null ? "0.1.0-SNAPSHOT" : version;
    }
}
