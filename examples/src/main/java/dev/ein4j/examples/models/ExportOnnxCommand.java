package dev.ein4j.examples.models;

import dev.ein4j.backend.Backends;
import dev.ein4j.error.EinopsException;
import dev.ein4j.ir.DType;
import dev.ein4j.models.AutoModel;
import dev.ein4j.models.LanguageModel;
import dev.ein4j.models.PretrainedModel;
import dev.ein4j.nn.io.Npy;
import dev.ein4j.onnx.ExportOptions;
import dev.ein4j.onnx.ExportedModel;
import dev.ein4j.onnx.Onnx;
import dev.ein4j.onnx.proto.ValueInfo;
import dev.ein4j.tensor.Tensor;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;

/**
 * {@code models export-onnx DIR --input X.npy --output M.onnx [--opset N] [--fixed-batch]}: loads a
 * model folder with {@link AutoModel}, traces its head on the input (input_ids [b, t], int32 or
 * int64, for language models; pixel_values [b, c, h, w], float32, for image classifiers) and writes
 * an ONNX model whose input is {@code input_ids} (int64) or {@code pixel_values} (float32) and whose
 * output is {@code logits}, with the checkpoint's tensor names for the weights. The batch axis is
 * dynamic unless {@code --fixed-batch} is given; the other lengths are the input's. A bad folder,
 * input, option or graph is one line on stderr and exit status 2.
 *
 * <pre>{@code
 * Onnx.export(in -> List.of(model.forward(in.get(0))), List.of(ids), Path.of("gpt2.onnx"),
 *         ExportOptions.defaults().inputNames("input_ids").outputNames("logits").dynamicBatch()
 *                 .namedWeights(model.stateDict()));
 * }</pre>
 */
final class ExportOnnxCommand {

    static final String USAGE = "usage: models export-onnx DIR --input X.npy --output M.onnx [--opset N] [--fixed-batch]";

    private ExportOnnxCommand() {
    }

    static int run(String[] args, PrintStream out, PrintStream err) {
        Path folder = null;
        Path input = null;
        Path output = null;
        ExportOptions options = ExportOptions.defaults().outputNames("logits");
        boolean dynamicBatch = true;
        try {
            for (int i = 0; i < args.length; i++) {
                String arg = args[i];
                boolean valued = arg.equals("--input") || arg.equals("--output") || arg.equals("--opset");
                if (valued && i + 1 < args.length) {
                    String value = args[++i];
                    switch (arg) {
                        case "--input" -> input = Path.of(value);
                        case "--output" -> output = Path.of(value);
                        default -> options = options.opset(Integer.parseInt(value));
                    }
                } else if (arg.equals("--fixed-batch")) {
                    dynamicBatch = false;
                } else if (!arg.startsWith("--") && folder == null) {
                    folder = Path.of(arg);
                } else {
                    return RunCommand.fail(err, "unexpected argument '" + arg + "'; " + USAGE);
                }
            }
        } catch (NumberFormatException notANumber) {
            return RunCommand.fail(err, "--opset takes an integer: " + notANumber.getMessage());
        } catch (EinopsException badOption) {
            return RunCommand.fail(err, badOption.getMessage());
        }
        if (folder == null || input == null || output == null) {
            return RunCommand.fail(err, USAGE);
        }
        try {
            Backends.useConfiguredOr("cpu");
            PretrainedModel model = AutoModel.load(folder);
            Tensor sample = Npy.read(input);
            Path inputFile = input;
            options = options.inputNames(model instanceof LanguageModel ? "input_ids" : "pixel_values")
                    .namedWeights(model.stateDict());
            if (dynamicBatch) {
                options = options.dynamicBatch();
            }
            ExportedModel exported = Onnx.export(in -> List.of(RunCommand.logits(model, in.get(0), inputFile)
                    .cast(DType.FLOAT32)), List.of(sample), output, options);
            out.println(summary(exported, model, options));
            return 0;
        } catch (EinopsException | UncheckedIOException error) {
            return RunCommand.fail(err, error.getMessage());
        }
    }

    /** @return e.g. {@code gpt2.onnx: GPT2LMHeadModel, opset 17, input_ids int64[batch, 7] -> logits float[batch, 7, 50], ...} */
    private static String summary(ExportedModel exported, PretrainedModel model, ExportOptions options) {
        String operators = exported.operatorCounts().entrySet().stream()
                .sorted((a, b) -> b.getValue().compareTo(a.getValue()))
                .map(entry -> entry.getKey() + " " + entry.getValue()).collect(Collectors.joining(", "));
        return exported.file() + ": " + model.architecture() + ", opset " + options.opset() + ", "
                + describe(exported.inputs().get(0)) + " -> " + describe(exported.outputs().get(0)) + ", "
                + exported.operators() + " operators (" + operators + "), " + exported.initializers() + " initializers, "
                + exported.bytes() + " bytes";
    }

    private static String describe(ValueInfo value) {
        return value.name() + " " + value.type().name().toLowerCase(java.util.Locale.ROOT) + value.shape();
    }
}
