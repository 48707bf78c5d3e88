package dev.ein4j.models.generation;

import dev.ein4j.tensor.Tensor;
import java.util.Objects;

/**
 * A decoder-only language model that can run with a {@link KeyValueCache}: the prompt in one pass,
 * then one token at a time, each attending to the keys and values cached so far.
 * {@code GPT2LMHeadModel} and {@code LlamaForCausalLM} implement it; {@link TextGenerator} drives it.
 *
 * <pre>{@code
 * CausalLanguageModel model = (CausalLanguageModel) AutoModel.load(Path.of("gpt2"));
 * try (KeyValueCache cache = model.allocateCache(1, 40)) {
 *     Tensor first = model.nextTokenLogits(promptIds, DecodeStep.of(cache, 0, promptIds.length(1)));   // [1, V]
 * }
 * }</pre>
 */
public interface CausalLanguageModel {

    /** @return the number of token ids, V */
    int vocabularySize();

    /** @return the most positions a sequence may have ({@link Integer#MAX_VALUE} without learned positions) */
    int maxPositions();

    /**
     * @param batch b
     * @param maxLength the positions to hold
     * @return an empty cache of this model's layers and key/value heads, to close when done
     */
    KeyValueCache allocateCache(int batch, int maxLength);

    /**
     * The final hidden states of a step's tokens, attending to the cached positions before them and to
     * each other causally; writes their keys and values into the step's cache.
     *
     * @param inputIds int32 [b, t], t the step's length, each in [0, V)
     * @param step the positions and the cache
     * @return [b, t, H], after the final norm
     */
    Tensor hiddenStates(Tensor inputIds, DecodeStep step);

    /**
     * @param hidden [b, t, H]
     * @return the language modelling head's logits [b, t, V]
     */
    Tensor head(Tensor hidden);

    /**
     * @param inputIds int32 [b, t]
     * @param step the positions and the cache
     * @return the logits of every token, [b, t, V]
     */
    default Tensor logits(Tensor inputIds, DecodeStep step) {
        Objects.requireNonNull(inputIds, "inputIds");
        Objects.requireNonNull(step, "step");
        return head(hiddenStates(inputIds, step));
    }

    /**
     * The logits that choose the next token: the head applied to the last position only.
     *
     * @param inputIds int32 [b, t]
     * @param step the positions and the cache
     * @return [b, V]
     */
    default Tensor nextTokenLogits(Tensor inputIds, DecodeStep step) {
        Objects.requireNonNull(inputIds, "inputIds");
        Objects.requireNonNull(step, "step");
        Tensor hidden = hiddenStates(inputIds, step);
        int last = hidden.length(1) - 1;
        return head(hidden.slice(1, last, last + 1)).squeeze(1);
    }
}
