package dev.ein4j.models.generation;

import dev.ein4j.error.EinopsException;
import dev.ein4j.error.ShapeException;
import dev.ein4j.ir.DType;
import dev.ein4j.models.AutoModel;
import dev.ein4j.models.ModelLoadException;
import dev.ein4j.models.PretrainedModel;
import dev.ein4j.models.tokenizer.StreamingDecoder;
import dev.ein4j.models.tokenizer.Tokenizer;
import dev.ein4j.tensor.GradientMode;
import dev.ein4j.tensor.Tensor;
import dev.ein4j.tensor.TensorScope;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * Generates tokens with a causal language model and a {@link KeyValueCache}, as transformers'
 * {@code generate}: the prompts (a batch of one length) run in one pass that fills the cache, then
 * each step feeds the tokens just chosen, one per sequence, and reads the logits of the last
 * position. A sequence that emits a stop token is finished: it gets the pad token from then on, and
 * generation ends when every sequence has finished or max_new_tokens were added. Tokens are chosen on
 * the host from the last logits row ({@link GenerationOptions}: greedy, or sampled with temperature,
 * top-k and top-p from a seeded generator).
 *
 * <pre>{@code
 * TextGenerator generator = TextGenerator.load(Path.of("gpt2"));     // model, stop tokens, tokenizer.json
 * Tensor ids = generator.generate(Tensor.of(new int[] {464, 3290}, 1, 2), GenerationOptions.greedy(20));   // [1, 2 + n]
 * String text = generator.generateText("Once upon a time", GenerationOptions.greedy(20), System.out::print);
 * }</pre>
 *
 * <p>Memory: the cache is allocated for the prompt plus max_new_tokens positions and closed when the
 * call returns, and each step's tensors are closed at the end of the step (a {@link Tensor#scope()}),
 * so nothing the generation makes outlives it but the returned ids. Every decode step builds a graph
 * of the same structure, its position a parameter, and replays the first step's schedule. Runs
 * without gradients. Not thread-safe (the model is shared state).
 */
public final class TextGenerator {

    private final CausalLanguageModel model;
    private final GenerationConfig defaults;
    private final Tokenizer tokenizer;

    private TextGenerator(CausalLanguageModel model, GenerationConfig defaults, Tokenizer tokenizer) {
        this.model = model;
        this.defaults = defaults;
        this.tokenizer = tokenizer;
    }

    /**
     * @param model a causal language model (GPT2LMHeadModel, LlamaForCausalLM)
     * @return a generator without stop tokens (give them in the options) or tokenizer
     * @throws EinopsException if the model cannot generate (a masked language model, an image model)
     */
    public static TextGenerator of(PretrainedModel model) {
        Objects.requireNonNull(model, "model");
        return new TextGenerator(causal(model), GenerationConfig.NONE, null);
    }

    /**
     * @param model a causal language model
     * @param defaults the stop and pad tokens used when the options name none
     * @param tokenizer the tokenizer of the text forms, or null
     * @return the generator
     */
    public static TextGenerator of(PretrainedModel model, GenerationConfig defaults, Tokenizer tokenizer) {
        Objects.requireNonNull(model, "model");
        Objects.requireNonNull(defaults, "defaults");
        return new TextGenerator(causal(model), defaults, tokenizer);
    }

    /**
     * Loads a model folder: the model ({@link AutoModel#load}), its stop tokens
     * ({@link GenerationConfig#read}) and, when the folder has a tokenizer.json, its tokenizer.
     *
     * @param folder a model folder
     * @return the generator
     * @throws ModelLoadException if the folder does not hold a causal language model this library supports
     */
    public static TextGenerator load(Path folder) {
        Objects.requireNonNull(folder, "folder");
        PretrainedModel model = AutoModel.load(folder);
        CausalLanguageModel causal = causal(model);
        Tokenizer tokenizer = Files.isRegularFile(folder.resolve("tokenizer.json")) ? Tokenizer.load(folder) : null;
        return new TextGenerator(causal, GenerationConfig.read(folder), tokenizer);
    }

    private static CausalLanguageModel causal(PretrainedModel model) {
        if (!(model instanceof CausalLanguageModel causal)) {
            throw new ModelLoadException(model.architecture() + " is not a causal language model: it cannot generate text");
        }
        return causal;
    }

    /** @return the stop and pad tokens used when the options name none */
    public GenerationConfig defaults() {
        return defaults;
    }

    /** @return the tokenizer of the text forms, if the generator has one */
    public java.util.Optional<Tokenizer> tokenizer() {
        return java.util.Optional.ofNullable(tokenizer);
    }

    /**
     * Continues a batch of prompts.
     *
     * @param promptIds int32 [b, t], t ≥ 1, each id in [0, V): the prompts, all of one length
     * @param options how to choose tokens and when to stop
     * @return int32 [b, t + n], the prompts and their continuations; n ≤ max_new_tokens, fewer when
     *     every sequence stopped early (a sequence that stopped before the others is padded)
     * @throws EinopsException if the ids are not int32 [b, t] of known tokens, or t + max_new_tokens
     *     exceeds the positions the model has learned
     */
    public Tensor generate(Tensor promptIds, GenerationOptions options) {
        Objects.requireNonNull(promptIds, "promptIds");
        Objects.requireNonNull(options, "options");
        int[] prompt = checkPrompt(promptIds, options.maxNewTokens());
        int batch = promptIds.length(0);
        int length = promptIds.length(1);
        int[][] generated = GradientMode.noGrad(() -> run(promptIds, batch, options));
        int added = generated.length;
        int[] all = new int[batch * (length + added)];
        for (int b = 0; b < batch; b++) {
            System.arraycopy(prompt, b * length, all, b * (length + added), length);
            for (int step = 0; step < added; step++) {
                all[b * (length + added) + length + step] = generated[step][b];
            }
        }
        return Tensor.of(all, batch, length + added);
    }

    /**
     * Continues a text, streaming the new text as it is generated. Needs a tokenizer.
     *
     * @param prompt the text to continue (encoded with the tokenizer's special tokens, as transformers' tokenizer)
     * @param options how to choose tokens and when to stop
     * @param text told of each new piece of text (whole characters; special tokens left out)
     * @return the new text, what {@code text} was told in order
     * @throws EinopsException if the generator has no tokenizer, or as {@link #generate(Tensor, GenerationOptions)}
     */
    public String generateText(String prompt, GenerationOptions options, Consumer<String> text) {
        Objects.requireNonNull(prompt, "prompt");
        Objects.requireNonNull(options, "options");
        Objects.requireNonNull(text, "text");
        if (tokenizer == null) {
            throw new EinopsException("text generation needs a tokenizer: load a model folder with a tokenizer.json");
        }
        int[] ids = tokenizer.encode(prompt);
        if (ids.length == 0) {
            throw new EinopsException("the prompt " + quote(prompt) + " encodes to no tokens");
        }
        StreamingDecoder decoder = tokenizer.streamingDecoder(true);
        StringBuilder all = new StringBuilder();
        GenerationConfig stop = options.stopTokens() != null ? options.stopTokens() : defaults;
        boolean[] done = {false};
        TokenListener outer = options.listener();
        GenerationOptions streaming = options.listener(tokens -> {
            if (!done[0]) {
                String piece = decoder.next(tokens[0]);
                all.append(piece);
                text.accept(piece);
                done[0] = stop.isEndOfSequence(tokens[0]);
            }
            if (outer != null) {
                outer.accept(tokens);
            }
        });
        generate(Tensor.of(ids, 1, ids.length), streaming);
        String rest = decoder.finish();
        if (!rest.isEmpty()) {
            all.append(rest);
            text.accept(rest);
        }
        return all.toString();
    }

    /** @return the new tokens, [step][sequence] */
    private int[][] run(Tensor promptIds, int batch, GenerationOptions options) {
        int steps = options.maxNewTokens();
        if (steps == 0) {
            return new int[0][];
        }
        GenerationConfig stop = options.stopTokens() != null ? options.stopTokens() : defaults;
        if (stop.eosTokenIds().length > 0 && stop.padTokenId() >= model.vocabularySize()) {
            throw new EinopsException("generate: the pad token " + stop.padTokenId() + " that follows a finished sequence is "
                    + "outside the vocabulary [0, " + model.vocabularySize() + ")");
        }
        TokenSampler sampler = new TokenSampler(options);
        double[] uniforms = options.isSampling() ? uniforms(options, steps, batch) : null;
        int vocabulary = model.vocabularySize();
        int length = promptIds.length(1);
        int[][] chosen = new int[steps][];
        boolean[] finished = new boolean[batch];
        int unfinished = batch;
        // the last chosen token is never fed back, so its position needs no slot
        try (KeyValueCache cache = model.allocateCache(batch, length + steps - 1)) {
            Tensor input = promptIds;
            int start = 0;
            for (int step = 0; step < steps && unfinished > 0; step++) {
                float[] logits;
                try (TensorScope scope = Tensor.scope()) {
                    Tensor ids = step == 0 ? input : Tensor.of(chosen[step - 1], batch, 1);
                    logits = model.nextTokenLogits(ids, DecodeStep.of(cache, start, ids.length(1))).toFloatArray();
                    start += ids.length(1);
                }
                int[] tokens = new int[batch];
                for (int b = 0; b < batch; b++) {
                    if (finished[b]) {
                        tokens[b] = stop.padTokenId();
                        continue;
                    }
                    tokens[b] = sampler.choose(logits, b, vocabulary, uniforms == null ? 0 : uniforms[step * batch + b]);
                    if (stop.isEndOfSequence(tokens[b])) {
                        finished[b] = true;
                        unfinished--;
                    }
                }
                chosen[step] = tokens;
                if (options.listener() != null) {
                    options.listener().accept(tokens.clone());
                }
            }
        }
        int added = 0;
        while (added < steps && chosen[added] != null) {
            added++;
        }
        return Arrays.copyOf(chosen, added);
    }

    /** One draw for the whole generation: [step][sequence] uniforms in [0, 1), reproducible for a seed. */
    private static double[] uniforms(GenerationOptions options, int steps, int batch) {
        try (Tensor draws = Tensor.rand(options.generator(), DType.FLOAT64, steps, batch)) {
            return draws.toDoubleArray();
        }
    }

    private int[] checkPrompt(Tensor ids, int newTokens) {
        String operation = "generate";
        if (ids.dtype() != DType.INT32 || ids.rank() != 2 || ids.length(0) == 0 || ids.length(1) == 0) {
            throw new ShapeException(operation, List.of(longs(ids.shape())), "prompt ids must be int32 [batch, tokens] with at least "
                    + "one token, got " + ids.dtype().numpyName() + Arrays.toString(ids.shape()));
        }
        long needed = (long) ids.length(1) + Math.max(newTokens - 1, 0);
        if (needed > model.maxPositions()) {
            throw new ShapeException(operation, List.of(longs(ids.shape())), ids.length(1) + " prompt tokens and " + newTokens
                    + " new ones need " + needed + " positions, but the model has learned " + model.maxPositions());
        }
        int[] values = ids.toIntArray();
        int tokens = ids.length(1);
        for (int i = 0; i < values.length; i++) {
            if (values[i] < 0 || values[i] >= model.vocabularySize()) {
                throw new EinopsException(operation + ": prompt id [" + i / tokens + ", " + i % tokens + "] is " + values[i]
                        + ", outside the vocabulary [0, " + model.vocabularySize() + ")");
            }
        }
        return values;
    }

    private static long[] longs(int[] shape) {
        return Arrays.stream(shape).asLongStream().toArray();
    }

    private static String quote(String text) {
        return '"' + (text.length() > 40 ? text.substring(0, 37) + "..." : text) + '"';
    }
}
