package dev.ein4j.examples.models;

import java.io.PrintStream;
import java.util.Arrays;

/**
 * {@code models}: commands on Hugging Face model folders, one subcommand each.
 *
 * <pre>
 * java -jar examples/target/ein4j-examples.jar models tokenize DIR --input TEXTS.jsonl --output OUT.jsonl
 * </pre>
 */
public final class ModelsCommand {

    private ModelsCommand() {
    }

    /** @param args a subcommand and its arguments; exits with the subcommand's status when it is not 0 */
    public static void main(String[] args) {
        int status = run(args, System.err);
        if (status != 0) {
            System.exit(status);
        }
    }

    /**
     * @param args a subcommand and its arguments
     * @param err where complaints go
     * @return the exit status: 0, or 2 for bad arguments, folders or files
     */
    static int run(String[] args, PrintStream err) {
        if (args.length == 0) {
            usage(err);
            return 2;
        }
        String[] rest = Arrays.copyOfRange(args, 1, args.length);
        return switch (args[0]) {
            case "tokenize" -> TokenizeCommand.run(rest, err);
            default -> {
                err.println("unknown models subcommand " + args[0]);
                usage(err);
                yield 2;
            }
        };
    }

    private static void usage(PrintStream err) {
        err.println("""
                usage: models SUBCOMMAND ...
                  tokenize DIR --input TEXTS.jsonl --output OUT.jsonl
                                  encode and decode every JSON string of TEXTS.jsonl with DIR/tokenizer.json""");
    }
}
