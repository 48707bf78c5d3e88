package dev.ein4j.models.generation;

import dev.ein4j.error.EinopsException;
import dev.ein4j.tensor.Generator;
import java.util.Objects;

/**
 * How {@link TextGenerator} chooses tokens and when it stops: greedy (the most likely token) or
 * sampling with a seeded {@link Generator}, shaped as transformers' logits processors do, in their
 * order: temperature (logits / T), top-k (only the k largest logits, ties with the k-th kept), top-p
 * (the smallest set of most likely tokens whose probabilities reach p). Immutable: each setter
 * returns a copy.
 *
 * <pre>{@code
 * GenerationOptions greedy = GenerationOptions.greedy(32);
 * GenerationOptions sampled = GenerationOptions.sampling(32, new Generator(7)).temperature(0.8).topK(40).topP(0.95);
 * GenerationOptions streamed = greedy.listener(tokens -> System.out.println(Arrays.toString(tokens)));
 * }</pre>
 *
 * <p>A sampling option not set is not applied: unlike transformers' {@code generate}, whose top_k is
 * 50 unless given, {@code sampling(n, g)} alone draws from the whole distribution. Stop tokens are
 * the model folder's ({@link GenerationConfig#read}) unless {@link #stopTokens} replaces them.
 */
public final class GenerationOptions {

    private final int maxNewTokens;
    private final Generator generator;
    private final double temperature;
    private final int topK;
    private final double topP;
    private final GenerationConfig stopTokens;
    private final TokenListener listener;

    private GenerationOptions(int maxNewTokens, Generator generator, double temperature, int topK, double topP,
            GenerationConfig stopTokens, TokenListener listener) {
        this.maxNewTokens = maxNewTokens;
        this.generator = generator;
        this.temperature = temperature;
        this.topK = topK;
        this.topP = topP;
        this.stopTokens = stopTokens;
        this.listener = listener;
    }

    /**
     * @param maxNewTokens the most tokens to add to each sequence, at least 0
     * @return greedy decoding: each step appends the most likely token (the first of equal ones)
     */
    public static GenerationOptions greedy(int maxNewTokens) {
        return new GenerationOptions(checkCount(maxNewTokens), null, 1.0, 0, 1.0, null, null);
    }

    /**
     * @param maxNewTokens the most tokens to add to each sequence, at least 0
     * @param generator the random stream: equal seeds give equal tokens
     * @return sampling from the model's distribution (temperature 1, no top-k, no top-p until set)
     */
    public static GenerationOptions sampling(int maxNewTokens, Generator generator) {
        Objects.requireNonNull(generator, "generator");
        return new GenerationOptions(checkCount(maxNewTokens), generator, 1.0, 0, 1.0, null, null);
    }

    /**
     * @param value T &gt; 0: logits are divided by it before the other processors (below 1 sharpens)
     * @return a copy with that temperature
     * @throws EinopsException if T is not a positive finite number, or these options are greedy
     */
    public GenerationOptions temperature(double value) {
        requireSampling("temperature");
        if (!(value > 0) || Double.isInfinite(value)) {
            throw new EinopsException("temperature must be a positive finite number, got " + value);
        }
        return new GenerationOptions(maxNewTokens, generator, value, topK, topP, stopTokens, listener);
    }

    /**
     * @param value k ≥ 1, or 0 for no top-k: only tokens whose logit is at least the k-th largest stay
     * @return a copy with that top-k
     * @throws EinopsException if k is negative, or these options are greedy
     */
    public GenerationOptions topK(int value) {
        requireSampling("top-k");
        if (value < 0) {
            throw new EinopsException("top-k must be at least 1 (0: none), got " + value);
        }
        return new GenerationOptions(maxNewTokens, generator, temperature, value, topP, stopTokens, listener);
    }

    /**
     * @param value p in (0, 1]: the most likely tokens whose probabilities sum to at least p stay (1: all)
     * @return a copy with that top-p
     * @throws EinopsException if p is outside (0, 1], or these options are greedy
     */
    public GenerationOptions topP(double value) {
        requireSampling("top-p");
        if (!(value > 0 && value <= 1)) {
            throw new EinopsException("top-p must be in (0, 1], got " + value);
        }
        return new GenerationOptions(maxNewTokens, generator, temperature, topK, value, stopTokens, listener);
    }

    /**
     * @param tokens the tokens that end a sequence, in place of the model folder's, and their padding
     *     ({@link GenerationConfig#NONE}: run every sequence to max_new_tokens)
     * @return a copy with those stop tokens
     */
    public GenerationOptions stopTokens(GenerationConfig tokens) {
        Objects.requireNonNull(tokens, "tokens");
        return new GenerationOptions(maxNewTokens, generator, temperature, topK, topP, tokens, listener);
    }

    /**
     * @param value told of every step's tokens as soon as they are chosen (streaming)
     * @return a copy with that listener
     */
    public GenerationOptions listener(TokenListener value) {
        Objects.requireNonNull(value, "value");
        return new GenerationOptions(maxNewTokens, generator, temperature, topK, topP, stopTokens, value);
    }

    /** @return the most tokens added to each sequence */
    public int maxNewTokens() {
        return maxNewTokens;
    }

    /** @return whether tokens are sampled (else greedy) */
    public boolean isSampling() {
        return generator != null;
    }

    /** @return the random stream of sampling, or null when greedy */
    public Generator generator() {
        return generator;
    }

    /** @return T, 1 when not set */
    public double temperature() {
        return temperature;
    }

    /** @return k, 0 when not set */
    public int topK() {
        return topK;
    }

    /** @return p, 1 when not set */
    public double topP() {
        return topP;
    }

    /** @return the stop tokens that replace the model's, or null for the model's */
    public GenerationConfig stopTokens() {
        return stopTokens;
    }

    /** @return the listener, or null */
    public TokenListener listener() {
        return listener;
    }

    @Override
    public String toString() {
        String mode = generator == null ? "greedy" : "sampling (temperature " + temperature + ", top-k " + topK + ", top-p " + topP
                + ", " + generator + ")";
        return "GenerationOptions[" + mode + ", " + maxNewTokens + " new tokens"
                + (stopTokens == null ? "" : ", stop " + stopTokens) + "]";
    }

    private void requireSampling(String option) {
        if (generator == null) {
            throw new EinopsException(option + " shapes sampling, but these options are greedy: start from GenerationOptions.sampling");
        }
    }

    private static int checkCount(int maxNewTokens) {
        if (maxNewTokens < 0) {
            throw new EinopsException("max new tokens must not be negative, got " + maxNewTokens);
        }
        return maxNewTokens;
    }
}
