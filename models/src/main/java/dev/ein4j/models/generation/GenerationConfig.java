package dev.ein4j.models.generation;

import dev.ein4j.models.AutoModel;
import dev.ein4j.models.ModelConfig;
import dev.ein4j.models.ModelLoadException;
import dev.ein4j.models.tokenizer.Tokenizer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * The special tokens that end and pad a generated sequence, read from a model folder the way
 * transformers' {@code generate} finds them: {@code eos_token_id} (one id or a list) and
 * {@code pad_token_id} from {@code generation_config.json}, else from {@code config.json}; when
 * neither names an end-of-sequence token, the tokenizer's ({@code tokenizer_config.json}'s
 * {@code eos_token}), if the folder has one. A finished sequence is padded with the pad token, or the
 * first end-of-sequence token when there is none (as transformers does).
 *
 * <pre>{@code
 * GenerationConfig config = GenerationConfig.read(Path.of("gpt2"));   // eos [50256], pad 50256
 * GenerationConfig none = GenerationConfig.NONE;                     // no stop tokens: always max_new_tokens
 * }</pre>
 *
 * @param eosTokenIds the tokens that end a sequence (empty: none does)
 * @param padTokenId what follows the end of a finished sequence, or -1 when there is no end token
 */
public record GenerationConfig(int[] eosTokenIds, int padTokenId) {

    /** The generation settings file of a model folder. */
    public static final String FILE = "generation_config.json";

    /** No stop tokens: every sequence runs to its max_new_tokens. */
    public static final GenerationConfig NONE = new GenerationConfig(new int[0], -1);

    /**
     * @param eosTokenIds the tokens that end a sequence, each at least 0
     * @param padTokenId the padding token, at least 0, or -1 (only when there are no end tokens)
     */
    public GenerationConfig {
        Objects.requireNonNull(eosTokenIds, "eosTokenIds");
        eosTokenIds = eosTokenIds.clone();
        for (int id : eosTokenIds) {
            if (id < 0) {
                throw new ModelLoadException("an end-of-sequence token id must not be negative, got " + id);
            }
        }
        if (padTokenId < -1 || padTokenId == -1 && eosTokenIds.length > 0) {
            throw new ModelLoadException("the pad token id must be at least 0 when there are end tokens, got " + padTokenId);
        }
    }

    /**
     * @param eosTokenIds the tokens that end a sequence
     * @return the settings, padding with the first of them (none: {@link #NONE})
     */
    public static GenerationConfig stoppingAt(int... eosTokenIds) {
        Objects.requireNonNull(eosTokenIds, "eosTokenIds");
        return new GenerationConfig(eosTokenIds, eosTokenIds.length == 0 ? -1 : eosTokenIds[0]);
    }

    /**
     * @param folder a model folder (config.json, maybe generation_config.json and a tokenizer)
     * @return its end and pad tokens
     * @throws ModelLoadException if a file is malformed or an id is not an integer
     */
    public static GenerationConfig read(Path folder) {
        Objects.requireNonNull(folder, "folder");
        Path generationFile = folder.resolve(FILE);
        ModelConfig generation = Files.isRegularFile(generationFile) ? ModelConfig.read(generationFile) : null;
        ModelConfig model = ModelConfig.read(folder.resolve(AutoModel.CONFIG));
        int[] eos = generation != null && generation.has("eos_token_id") ? generation.integerOrIntegers("eos_token_id")
                : model.integerOrIntegers("eos_token_id");
        if (eos.length == 0 && Files.isRegularFile(folder.resolve("tokenizer.json"))) {
            eos = Tokenizer.load(folder).endOfSequenceId().stream().toArray();
        }
        Integer pad = generation != null && generation.has("pad_token_id") ? generation.optionalInteger("pad_token_id")
                : model.optionalInteger("pad_token_id");
        if (pad == null) {
            return stoppingAt(eos);
        }
        return new GenerationConfig(eos, pad);
    }

    /**
     * The settings of a folder's generation_config.json that transformers' {@code generate} would apply
     * by default and this library does not: logits processors that act in greedy decoding too
     * (repetition_penalty, no_repeat_ngram_size, min_length, bad_words_ids, forced or suppressed
     * tokens, ...), beam search, and do_sample (here sampling is chosen by the options). A caller
     * comparing tokens with transformers should know of them.
     *
     * @param folder a model folder
     * @return "key=value" for each such setting, empty when there is none or no generation_config.json
     * @throws ModelLoadException if the file is malformed
     */
    public static List<String> unappliedSettings(Path folder) {
        Objects.requireNonNull(folder, "folder");
        Path file = folder.resolve(FILE);
        if (!Files.isRegularFile(file)) {
            return List.of();
        }
        ModelConfig generation = ModelConfig.read(file);
        List<String> found = new ArrayList<>();
        for (String key : List.of("repetition_penalty", "encoder_repetition_penalty")) {
            addIf(found, key, generation.number(key, 1.0), generation.number(key, 1.0) != 1.0);
        }
        for (String key : List.of("no_repeat_ngram_size", "encoder_no_repeat_ngram_size", "min_length")) {
            addIf(found, key, generation.number(key, 0), generation.number(key, 0) != 0);
        }
        addIf(found, "num_beams", generation.number("num_beams", 1), generation.number("num_beams", 1) != 1);
        addIf(found, "do_sample", true, generation.bool("do_sample", false));
        addIf(found, "renormalize_logits", true, generation.bool("renormalize_logits", false));
        for (String key : List.of("min_new_tokens", "bad_words_ids", "forced_bos_token_id", "forced_eos_token_id",
                "suppress_tokens", "begin_suppress_tokens", "sequence_bias", "exponential_decay_length_penalty", "stop_strings")) {
            addIf(found, key, "set", generation.has(key));
        }
        return List.copyOf(found);
    }

    private static void addIf(List<String> found, String key, Object value, boolean condition) {
        if (condition) {
            boolean whole = value instanceof Double number && number == Math.rint(number) && !Double.isInfinite(number);
            found.add(key + "=" + (whole ? String.valueOf(((Double) value).longValue()) : value));
        }
    }

    /**
     * @param id a token id
     * @return whether it ends a sequence
     */
    public boolean isEndOfSequence(int id) {
        for (int eos : eosTokenIds) {
            if (eos == id) {
                return true;
            }
        }
        return false;
    }

    @Override
    public int[] eosTokenIds() {
        return eosTokenIds.clone();
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof GenerationConfig that && padTokenId == that.padTokenId
                && Arrays.equals(eosTokenIds, that.eosTokenIds);
    }

    @Override
    public int hashCode() {
        return 31 * Arrays.hashCode(eosTokenIds) + padTokenId;
    }

    @Override
    public String toString() {
        return "GenerationConfig[eos " + Arrays.toString(eosTokenIds) + ", pad " + padTokenId + "]";
    }
}
