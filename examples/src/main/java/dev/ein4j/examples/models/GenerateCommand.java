package dev.ein4j.examples.models;

import dev.ein4j.backend.Backends;
import dev.ein4j.error.EinopsException;
import dev.ein4j.ir.DType;
import dev.ein4j.models.generation.GenerationConfig;
import dev.ein4j.models.generation.GenerationOptions;
import dev.ein4j.models.generation.TextGenerator;
import dev.ein4j.nn.io.Npy;
import dev.ein4j.tensor.Generator;
import dev.ein4j.tensor.Tensor;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * {@code models generate}: text generation with a model folder's causal language model
 * ({@link TextGenerator}: key/value cache, the folder's stop tokens).
 *
 * <pre>
 * models generate DIR --input IDS.npy --max-new-tokens N --output OUT.npy [--temperature T] [--top-k K] [--top-p P] [--seed S]
 * models generate DIR --prompt TEXT --max-new-tokens N [--temperature T] [--top-k K] [--top-p P] [--seed S]
 * </pre>
 *
 * <p>The first form reads prompt ids [b, t] (int32 or int64; the prompts of a batch have one length)
 * and writes [b, t + n]: the prompts and their continuations, n ≤ N (fewer when every sequence met a
 * stop token; a sequence that stopped before the others is padded), int64 as transformers'
 * {@code generate} returns them, or int32 when the input was int32. The second form needs DIR's
 * tokenizer.json: it prints the prompt, then streams the new text as it is generated. Greedy unless
 * a sampling option is given: {@code --temperature}, {@code --top-k}, {@code --top-p} (applied in that
 * order, as transformers' warpers; an option not given is not applied) or {@code --seed} (seed 0 when
 * not given). A bad folder, shape, dtype or option is one line on stderr and exit status 2; settings of
 * generation_config.json that transformers would apply and this command does not (repetition_penalty,
 * do_sample, ...: {@link GenerationConfig#unappliedSettings}) are a warning line each on stderr.
 */
final class GenerateCommand {

    static final String USAGE = "usage: models generate DIR --input IDS.npy --max-new-tokens N --output OUT.npy "
            + "[--temperature T] [--top-k K] [--top-p P] [--seed S]\n"
            + "       models generate DIR --prompt TEXT --max-new-tokens N [--temperature T] [--top-k K] [--top-p P] [--seed S]";

    private GenerateCommand() {
    }

    /** The command line, parsed. */
    private record Arguments(Path folder, Path input, Path output, String prompt, int maxNewTokens, Double temperature,
            Integer topK, Double topP, Long seed) {

        boolean sampling() {
            return temperature != null || topK != null || topP != null || seed != null;
        }
    }

    /** A command line that does not fit the usage. */
    private static final class UsageException extends Exception {
        UsageException(String message) {
            super(message);
        }
    }

    static int run(String[] args, PrintStream out, PrintStream err) {
        Arguments arguments;
        try {
            arguments = parse(args);
        } catch (UsageException bad) {
            return RunCommand.fail(err, bad.getMessage() + "; " + USAGE.replace("\n       ", " | "));
        }
        try {
            Backends.useConfiguredOr("cpu");
            if (!Files.isDirectory(arguments.folder())) {
                return RunCommand.fail(err, arguments.folder() + ": not a directory (a model folder holds config.json and weights)");
            }
            if (arguments.prompt() != null && !Files.isRegularFile(arguments.folder().resolve("tokenizer.json"))) {
                return RunCommand.fail(err, arguments.folder() + " has no tokenizer.json: --prompt needs one (give ids with --input)");
            }
            TextGenerator generator = TextGenerator.load(arguments.folder());
            for (String setting : GenerationConfig.unappliedSettings(arguments.folder())) {
                err.println("models generate: warning: " + GenerationConfig.FILE + " sets " + setting
                        + ", which transformers' generate applies and this command does not");
            }
            GenerationOptions options = options(arguments);
            if (arguments.prompt() != null) {
                out.print(arguments.prompt());
                generator.generateText(arguments.prompt(), options, piece -> {
                    out.print(piece);
                    out.flush();
                });
                out.println();
                return 0;
            }
            return generateIds(generator, arguments, options, out);
        } catch (EinopsException | UncheckedIOException error) {
            return RunCommand.fail(err, error.getMessage());
        }
    }

    private static int generateIds(TextGenerator generator, Arguments arguments, GenerationOptions options, PrintStream out) {
        Tensor ids = Npy.read(arguments.input());
        if (ids.dtype() != DType.INT32 || ids.rank() != 2) {
            throw new EinopsException(arguments.input() + ": prompts are input_ids, int32 or int64 [batch, tokens], got "
                    + ids.dtype().numpyName() + Arrays.toString(ids.shape()));
        }
        boolean int32 = TokenIdFiles.holdsInt32(arguments.input());
        Tensor generated = generator.generate(ids, options);
        int[] shape = generated.shape();
        if (int32) {
            Npy.write(arguments.output(), generated);
        } else {
            TokenIdFiles.writeInt64(arguments.output(), generated.toIntArray(), shape[0], shape[1]);
        }
        out.println(arguments.output() + ": " + (int32 ? "int32" : "int64") + Arrays.toString(shape) + " ids, "
                + (shape[1] - ids.length(1)) + " new tokens per sequence (" + (options.isSampling() ? "sampled" : "greedy") + ")");
        return 0;
    }

    private static GenerationOptions options(Arguments arguments) {
        if (!arguments.sampling()) {
            return GenerationOptions.greedy(arguments.maxNewTokens());
        }
        GenerationOptions options = GenerationOptions.sampling(arguments.maxNewTokens(),
                new Generator(arguments.seed() == null ? 0 : arguments.seed()));
        if (arguments.temperature() != null) {
            options = options.temperature(arguments.temperature());
        }
        if (arguments.topK() != null) {
            options = options.topK(arguments.topK());
        }
        return arguments.topP() == null ? options : options.topP(arguments.topP());
    }

    private static Arguments parse(String[] args) throws UsageException {
        Path folder = null;
        Path input = null;
        Path output = null;
        String prompt = null;
        Integer maxNewTokens = null;
        Double temperature = null;
        Integer topK = null;
        Double topP = null;
        Long seed = null;
        for (int i = 0; i < args.length; i++) {
            String arg = args[i];
            if (!arg.startsWith("--")) {
                if (folder != null) {
                    throw new UsageException("unexpected argument '" + arg + "'");
                }
                folder = Path.of(arg);
                continue;
            }
            if (i + 1 >= args.length) {
                throw new UsageException(arg.matches("--(input|output|prompt|max-new-tokens|temperature|top-k|top-p|seed)")
                        ? "missing value after " + arg : "unexpected argument '" + arg + "'");
            }
            String value = args[++i];
            switch (arg) {
                case "--input" -> input = Path.of(value);
                case "--output" -> output = Path.of(value);
                case "--prompt" -> prompt = value;
                case "--max-new-tokens" -> maxNewTokens = integer(arg, value);
                case "--temperature" -> temperature = number(arg, value);
                case "--top-k" -> topK = integer(arg, value);
                case "--top-p" -> topP = number(arg, value);
                case "--seed" -> seed = seed(value);
                default -> throw new UsageException("unexpected argument '" + arg + "'");
            }
        }
        if (folder == null || maxNewTokens == null) {
            throw new UsageException(folder == null ? "missing DIR" : "missing --max-new-tokens");
        }
        if (prompt != null ? input != null || output != null : input == null || output == null) {
            throw new UsageException(prompt != null ? "--prompt takes no --input or --output"
                    : "missing " + (input == null ? "--input" : "--output") + " (or give --prompt)");
        }
        return new Arguments(folder, input, output, prompt, maxNewTokens, temperature, topK, topP, seed);
    }

    private static int integer(String option, String value) throws UsageException {
        try {
            return Integer.parseInt(value);
        } catch (NumberFormatException bad) {
            throw new UsageException(option + " takes an integer, got '" + value + "'");
        }
    }

    private static long seed(String value) throws UsageException {
        try {
            return Long.parseLong(value);
        } catch (NumberFormatException bad) {
            throw new UsageException("--seed takes an integer, got '" + value + "'");
        }
    }

    private static double number(String option, String value) throws UsageException {
        try {
            return Double.parseDouble(value);
        } catch (NumberFormatException bad) {
            throw new UsageException(option + " takes a number, got '" + value + "'");
        }
    }
}
