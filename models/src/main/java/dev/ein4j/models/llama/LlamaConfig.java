package dev.ein4j.models.llama;

import dev.ein4j.models.HfActivations;
import dev.ein4j.models.ModelConfig;
import java.util.Objects;

/**
 * The options of transformers' {@code LlamaConfig} that a {@code LlamaForCausalLM} reads, each
 * named as its {@code config.json} key in camel case, with transformers' defaults.
 *
 * @param vocabSize V, the rows of {@code embed_tokens}
 * @param hiddenSize the width H
 * @param intermediateSize the width of the gated MLP
 * @param numHiddenLayers the number of decoder layers
 * @param numAttentionHeads the query heads
 * @param numKeyValueHeads the key and value heads (fewer: grouped-query attention, 1: multi-query)
 * @param headDim the width of a head ({@code head_dim}, H / heads when absent)
 * @param hiddenAct the MLP gate's activation, a name of {@link HfActivations}
 * @param maxPositionEmbeddings the context length the rotary scaling refers to
 * @param rmsNormEps the RMS norms' ε
 * @param padTokenId the padding token, whose embedding learns nothing (null for none)
 * @param tieWordEmbeddings whether the head is {@code embed_tokens}' transpose (no {@code lm_head.weight})
 * @param attentionBias whether q, k, v and o projections have biases
 * @param attentionDropout dropout of the attention weights (training only)
 * @param mlpBias whether the MLP's projections have biases
 * @param rope the rotary embedding's parameters ({@code rope_parameters}, or the older
 *     {@code rope_theta} and {@code rope_scaling})
 */
public record LlamaConfig(int vocabSize, int hiddenSize, int intermediateSize, int numHiddenLayers,
        int numAttentionHeads, int numKeyValueHeads, int headDim, String hiddenAct, int maxPositionEmbeddings,
        double rmsNormEps, Integer padTokenId, boolean tieWordEmbeddings, boolean attentionBias, double attentionDropout,
        boolean mlpBias, LlamaRope rope) {

    /**
     * @param config a Llama config.json
     * @return its options
     * @throws dev.ein4j.models.ModelLoadException if a value is malformed or not supported
     */
    public static LlamaConfig from(ModelConfig config) {
        Objects.requireNonNull(config, "config");
        int hidden = config.positiveInteger("hidden_size", 4096);
        int heads = config.positiveInteger("num_attention_heads", 32);
        if (hidden % heads != 0) {
            throw config.unsupported("num_attention_heads", "which does not divide hidden_size " + hidden);
        }
        int keyValueHeads = config.positiveInteger("num_key_value_heads", heads);
        if (heads % keyValueHeads != 0) {
            throw config.unsupported("num_key_value_heads", "which does not divide num_attention_heads " + heads);
        }
        int headDim = config.positiveInteger("head_dim", hidden / heads);
        if (headDim % 2 != 0) {
            throw config.unsupported("head_dim", "but rotary embeddings need an even head width");
        }
        int vocab = config.positiveInteger("vocab_size", 32000);
        int maxPositions = config.positiveInteger("max_position_embeddings", 2048);
        Integer pad = config.nullableInteger("pad_token_id", null);
        if (pad != null && (pad < 0 || pad >= vocab)) {
            pad = null; // transformers warns and embeds such a token like any other
        }
        return new LlamaConfig(vocab, hidden, config.positiveInteger("intermediate_size", 11008),
                config.nonNegativeInteger("num_hidden_layers", 32), heads, keyValueHeads, headDim,
                config.choice("hidden_act", "silu", HfActivations.NAMES), maxPositions,
                config.number("rms_norm_eps", 1e-6), pad, config.bool("tie_word_embeddings", false),
                config.bool("attention_bias", false), config.number("attention_dropout", 0.0),
                config.bool("mlp_bias", false), LlamaRope.from(config, headDim, maxPositions));
    }
}
