package dev.ein4j.models;

import dev.ein4j.error.EinopsException;
import dev.ein4j.error.ShapeException;
import dev.ein4j.ir.DType;
import dev.ein4j.nn.Embedding;
import dev.ein4j.nn.Linear;
import dev.ein4j.tensor.Ein;
import dev.ein4j.tensor.Tensor;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * A model that reads token ids and gives one row of vocabulary logits per token: the causal
 * language models ({@code GPT2LMHeadModel}, {@code LlamaForCausalLM}) and masked ones
 * ({@code BertForMaskedLM}).
 *
 * <pre>{@code
 * LanguageModel model = (LanguageModel) AutoModel.load(Path.of("models/gpt2"));
 * Tensor ids = Tensor.of(new int[] {464, 3290, 318}, 1, 3);
 * Tensor logits = model.logits(ids);                                 // [1, 3, vocab]
 * Tensor padded = model.logits(ids2, Tensor.of(new int[] {1, 1, 0}, 1, 3));   // with padding
 * }</pre>
 */
public abstract class LanguageModel extends PretrainedModel {

    private final int vocabularySize;
    private final int maxPositions;

    /**
     * @param architecture the transformers class, as {@code architectures[0]} names it
     * @param vocabularySize V
     * @param maxPositions the longest sequence the model reads, or {@link Integer#MAX_VALUE}
     */
    protected LanguageModel(String architecture, int vocabularySize, int maxPositions) {
        super(architecture);
        this.vocabularySize = vocabularySize;
        this.maxPositions = maxPositions;
    }

    /** @return the number of token ids, V: logits are [b, t, V] */
    public final int vocabularySize() {
        return vocabularySize;
    }

    /** @return the longest sequence the model reads (its learned positions), or {@link Integer#MAX_VALUE} */
    public final int maxPositions() {
        return maxPositions;
    }

    /**
     * The language modelling head: {@code einsum("b t h, v h -> b t v")} against the token
     * embeddings when they are tied to it, else its own linear layer.
     *
     * @param hidden [b, t, H]
     * @param head the head's layer ({@code lm_head}), or null when tied
     * @param embedding the token embeddings [V, H]
     * @return [b, t, V]
     */
    protected static Tensor vocabularyLogits(Tensor hidden, Linear head, Embedding embedding) {
        return head == null ? Ein.einsum("b t h, v h -> b t v", hidden, embedding.weight()) : head.forward(hidden);
    }

    /**
     * @param inputIds int32 [b, t], each in [0, V)
     * @return float32 [b, t, V], the head's logits (evaluation mode unless {@link #train()} was called)
     * @throws EinopsException if the ids are not int32 [b, t] of known tokens
     */
    public Tensor logits(Tensor inputIds) {
        Objects.requireNonNull(inputIds, "inputIds");
        checkInputIds(inputIds);
        return computeLogits(inputIds, null);
    }

    /**
     * @param inputIds int32 [b, t], each in [0, V)
     * @param attentionMask int32 or bool [b, t]: 1 (true) for tokens, 0 (false) for padding, which
     *     no token attends to; the logits at padding positions are not meaningful
     * @return float32 [b, t, V]
     * @throws EinopsException if the ids or the mask do not fit
     */
    public Tensor logits(Tensor inputIds, Tensor attentionMask) {
        Objects.requireNonNull(inputIds, "inputIds");
        Objects.requireNonNull(attentionMask, "attentionMask");
        checkInputIds(inputIds);
        return computeLogits(inputIds, keptTokens(inputIds, attentionMask));
    }

    /**
     * @param inputIds int32 [b, t], checked
     * @param attentionMask int32 or bool [b, t]
     * @return bool [b, t], true for tokens and false for padding
     * @throws ShapeException if the mask does not fit the ids
     */
    protected Tensor keptTokens(Tensor inputIds, Tensor attentionMask) {
        if (!Arrays.equals(attentionMask.shape(), inputIds.shape()) || attentionMask.dtype().isFloating()) {
            throw new ShapeException(architecture() + ".logits", shapes(inputIds, attentionMask),
                    "attention_mask must be int32 or bool of the ids' shape, got " + attentionMask.dtype().numpyName()
                            + Arrays.toString(attentionMask.shape()));
        }
        return attentionMask.dtype() == DType.BOOL ? attentionMask : attentionMask.ne(0);
    }

    /** @return {@link #logits(Tensor)} */
    @Override
    public Tensor forward(Tensor inputIds) {
        Objects.requireNonNull(inputIds, "inputIds");
        return logits(inputIds);
    }

    /**
     * @param inputIds int32 [b, t], checked
     * @param kept bool [b, t], false at padding; null when there is none
     * @return [b, t, V]
     */
    protected abstract Tensor computeLogits(Tensor inputIds, Tensor kept);

    /**
     * @param inputIds what a caller gave as token ids
     * @throws EinopsException unless they are int32 [b, t], t ≤ {@link #maxPositions()}, each in [0, V)
     */
    protected void checkInputIds(Tensor inputIds) {
        String operation = architecture() + ".logits";
        if (inputIds.dtype() != DType.INT32 || inputIds.rank() != 2 || inputIds.length(0) == 0 || inputIds.length(1) == 0) {
            throw new ShapeException(operation, shapes(inputIds), "input_ids must be int32 [batch, tokens] with at least one token, got "
                    + inputIds.dtype().numpyName() + Arrays.toString(inputIds.shape()));
        }
        if (inputIds.length(1) > maxPositions()) {
            throw new ShapeException(operation, shapes(inputIds), inputIds.length(1) + " tokens exceed the "
                    + maxPositions() + " positions the model has learned");
        }
        int[] ids = inputIds.toIntArray();
        int tokens = inputIds.length(1);
        for (int i = 0; i < ids.length; i++) {
            if (ids[i] < 0 || ids[i] >= vocabularySize()) {
                throw new EinopsException(operation + ": input_ids[" + i / tokens + ", " + i % tokens + "] is " + ids[i]
                        + ", outside the vocabulary [0, " + vocabularySize() + ")");
            }
        }
    }

    static List<long[]> shapes(Tensor... tensors) {
        return Arrays.stream(tensors).map(t -> Arrays.stream(t.shape()).asLongStream().toArray()).toList();
    }
}
