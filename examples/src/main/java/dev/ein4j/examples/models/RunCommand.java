package dev.ein4j.examples.models;

import dev.ein4j.backend.Backends;
import dev.ein4j.error.EinopsException;
import dev.ein4j.ir.DType;
import dev.ein4j.models.AutoModel;
import dev.ein4j.models.ImageClassifier;
import dev.ein4j.models.LanguageModel;
import dev.ein4j.models.PretrainedModel;
import dev.ein4j.nn.io.Npy;
import dev.ein4j.tensor.Tensor;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * {@code models run DIR --input X.npy --output Y.npy}: loads a model folder with {@link AutoModel},
 * runs its head in evaluation mode on the input (input_ids [b, t], int32 or int64, for language
 * models; pixel_values [b, c, h, w], float32, for image classifiers) and writes the logits as
 * float32. A bad folder, input shape or dtype is one line on stderr and exit status 2.
 */
final class RunCommand {

    private RunCommand() {
    }

    static int run(String[] args, PrintStream out, PrintStream err) {
        Path folder = null;
        Path input = null;
        Path output = null;
        for (int i = 0; i < args.length; i++) {
            String arg = args[i];
            if ((arg.equals("--input") || arg.equals("--output")) && i + 1 < args.length) {
                Path path = Path.of(args[++i]);
                if (arg.equals("--input")) {
                    input = path;
                } else {
                    output = path;
                }
            } else if (!arg.startsWith("--") && folder == null) {
                folder = Path.of(arg);
            } else {
                return fail(err, "unexpected argument '" + arg + "'; usage: models run DIR --input X.npy --output Y.npy");
            }
        }
        if (folder == null || input == null || output == null) {
            return fail(err, "usage: models run DIR --input X.npy --output Y.npy");
        }
        try {
            Backends.useConfiguredOr("cpu");
            PretrainedModel model = AutoModel.load(folder);
            Tensor logits = logits(model, Npy.read(input), input).cast(DType.FLOAT32);
            Npy.write(output, logits);
            out.println(output + ": float32" + Arrays.toString(logits.shape()) + " logits of " + model.architecture());
            return 0;
        } catch (EinopsException | UncheckedIOException error) {
            return fail(err, error.getMessage());
        }
    }

    /**
     * @param model a loaded model
     * @param input what the input file holds
     * @param file the input file, for messages
     * @return the head's logits
     * @throws EinopsException if the input is not what the model's family reads
     */
    static Tensor logits(PretrainedModel model, Tensor input, Path file) {
        String found = input.dtype().numpyName() + Arrays.toString(input.shape());
        if (model instanceof LanguageModel language) {
            if (input.dtype() != DType.INT32 || input.rank() != 2) {
                throw new EinopsException(file + ": " + model.architecture() + " reads input_ids, int32 or int64 [batch, tokens], got " + found);
            }
            return language.logits(input);
        }
        ImageClassifier images = (ImageClassifier) model;
        if (!input.dtype().isFloating() || input.rank() != 4) {
            throw new EinopsException(file + ": " + model.architecture() + " reads pixel_values, float32 [batch, "
                    + images.numChannels() + ", height, width], got " + found);
        }
        return images.logits(input.cast(DType.FLOAT32));
    }

    /** One line on stderr (a multi-line message, such as a list of mismatched weights, is joined). */
    static int fail(PrintStream err, String message) {
        err.println("models: " + String.valueOf(message).replaceAll("\\s*\\R\\s*", "; "));
        return 2;
    }
}
