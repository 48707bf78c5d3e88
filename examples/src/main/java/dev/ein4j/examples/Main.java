package dev.ein4j.examples;

import dev.ein4j.examples.fashion.FashionMnist;
import dev.ein4j.examples.models.ModelsCommand;
import java.util.Arrays;

/**
 * The examples jar's entry point: {@code java --add-modules jdk.incubator.vector -jar
 * ein4j-examples.jar COMMAND [OPTIONS]}.
 */
public final class Main {

    private Main() {
    }

    /** @param args a command and its options */
    public static void main(String[] args) {
        if (args.length == 0) {
            usage();
            return;
        }
        String[] rest = Arrays.copyOfRange(args, 1, args.length);
        switch (args[0]) {
            case "fashion-mnist" -> FashionMnist.main(rest);
            case "vit" -> VisionTransformerExample.main(rest);
            case "bars" -> Flagship.main(rest);
            case "pattern" -> PatternCli.main(rest);
            case "models" -> ModelsCommand.main(rest);
            default -> {
                System.err.println("unknown command " + args[0]);
                usage();
                System.exit(2);
            }
        }
    }

    private static void usage() {
        System.out.println("""
                ein4j examples
                  fashion-mnist [--epochs N] [--data DIR|embedded] [--plot FILE.png] [--backend NAME]
                                  a CNN written as patterns, trained on Fashion-MNIST
                  vit [--epochs N] [--data DIR|embedded] [--backend NAME]
                                  a small vision transformer (patches by rearrange, attention by einsum)
                  bars [STEPS]    a one-block attention classifier on generated 8x8 images of bars
                  pattern OPERATION PATTERN
                                  a pattern's canonical form and axis structure, or its error with a caret
                  models run DIR --input X.npy --output Y.npy
                                  a Hugging Face model folder's logits for input_ids or pixel_values
                  models finetune DIR [--steps N] [--seed N]
                                  a new classifier head on a loaded image model, trained a few steps
                  models tokenize DIR --input TEXTS.jsonl --output OUT.jsonl
                                  ids and decoded text of each JSON string line, with DIR/tokenizer.json
                  models export-onnx DIR --input X.npy --output M.onnx [--opset N] [--fixed-batch]
                                  an ONNX model of the folder (input_ids or pixel_values in, logits out)""");
    }
}
