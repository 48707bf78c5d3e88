package dev.ein4j.examples.models;

import java.io.PrintStream;
import java.util.Arrays;

/**
 * {@code models SUBCOMMAND ...}: Hugging Face model folders from the command line.
 *
 * <pre>
 * java -jar ein4j-examples.jar models run DIR --input X.npy --output Y.npy
 * java -jar ein4j-examples.jar models finetune DIR [--steps N] [--seed N]
 * java -jar ein4j-examples.jar models tokenize DIR --input TEXTS.jsonl --output OUT.jsonl
 * java -jar ein4j-examples.jar models export-onnx DIR --input X.npy --output M.onnx [--opset N] [--fixed-batch]
 * java -jar ein4j-examples.jar models generate DIR --input IDS.npy --max-new-tokens N --output OUT.npy [--temperature T] [--top-k K] [--top-p P] [--seed S]
 * java -jar ein4j-examples.jar models generate DIR --prompt TEXT --max-new-tokens N
 * </pre>
 */
public final class ModelsCommand {

    private static final String USAGE = """
            usage: models run DIR --input X.npy --output Y.npy
                     the head's logits (float32) of a model folder for input_ids [b, t] (int32 or int64)
                     or pixel_values [b, c, h, w] (float32)
                   models finetune DIR [--steps N] [--seed N]
                     a new classifier head on an image model's features, trained with AdamW
                   models tokenize DIR --input TEXTS.jsonl --output OUT.jsonl
                     ids and decoded text of each JSON string line, with DIR/tokenizer.json
                   models export-onnx DIR --input X.npy --output M.onnx [--opset N] [--fixed-batch]
                     an ONNX model (input_ids int64 or pixel_values float32 in, logits out) traced on the input,
                     its batch axis dynamic unless --fixed-batch
                   models generate DIR --input IDS.npy --max-new-tokens N --output OUT.npy [--temperature T] [--top-k K]
                                   [--top-p P] [--seed S]
                     continues prompt ids [b, t] (int32 or int64) with a causal language model; writes [b, t + n]
                     (int64, or int32 for int32 input); greedy unless a sampling option is given
                   models generate DIR --prompt TEXT --max-new-tokens N [sampling options]
                     streams the continuation of a text, with DIR/tokenizer.json""";

    private ModelsCommand() {
    }

    /** @param args a subcommand and its arguments */
    public static void main(String[] args) {
        int status = run(args, System.out, System.err);
        if (status != 0) {
            System.exit(status);
        }
    }

    /**
     * @param args a subcommand and its arguments
     * @param out where results are reported
     * @param err where errors are reported, one line each
     * @return the exit status: 0, or 2 for bad arguments, folders or inputs
     */
    public static int run(String[] args, PrintStream out, PrintStream err) {
        if (args.length == 0) {
            err.println(USAGE);
            return 2;
        }
        String[] rest = Arrays.copyOfRange(args, 1, args.length);
        return switch (args[0]) {
            case "run" -> RunCommand.run(rest, out, err);
            case "finetune" -> FinetuneCommand.run(rest, out, err);
            case "tokenize" -> TokenizeCommand.run(rest, err);
            case "export-onnx" -> ExportOnnxCommand.run(rest, out, err);
            case "generate" -> GenerateCommand.run(rest, out, err);
            default -> {
                err.println("models: unknown subcommand '" + args[0] + "'\n" + USAGE);
                yield 2;
            }
        };
    }
}
