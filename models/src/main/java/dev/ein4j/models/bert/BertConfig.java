package dev.ein4j.models.bert;

import dev.ein4j.models.HfActivations;
import dev.ein4j.models.ModelConfig;
import java.util.List;
import java.util.Objects;

/**
 * The options of transformers' {@code BertConfig} that a {@code BertForMaskedLM} reads, each named
 * as its {@code config.json} key in camel case, with transformers' defaults.
 *
 * @param vocabSize V, the rows of {@code word_embeddings}
 * @param hiddenSize the width H
 * @param numHiddenLayers the number of encoder layers
 * @param numAttentionHeads the heads (H / heads is the head width)
 * @param intermediateSize the width of the feed-forward layer
 * @param hiddenAct the feed-forward and head activation, a name of {@link HfActivations}
 * @param hiddenDropoutProb dropout after embeddings and each residual branch (training only)
 * @param attentionProbsDropoutProb dropout of the attention weights (training only)
 * @param maxPositionEmbeddings the learned positions
 * @param typeVocabSize the token types (segments)
 * @param layerNormEps the layer norms' ε
 * @param padTokenId the padding token, whose embedding learns nothing (null for none)
 * @param isDecoder whether attention is causal
 * @param addCrossAttention whether the layers hold cross-attention weights (unused without an encoder)
 * @param tieWordEmbeddings whether the decoder is {@code word_embeddings}' transpose with
 *     {@code cls.predictions.bias}
 */
public record BertConfig(int vocabSize, int hiddenSize, int numHiddenLayers, int numAttentionHeads,
        int intermediateSize, String hiddenAct, double hiddenDropoutProb, double attentionProbsDropoutProb,
        int maxPositionEmbeddings, int typeVocabSize, double layerNormEps, Integer padTokenId, boolean isDecoder,
        boolean addCrossAttention, boolean tieWordEmbeddings) {

    /**
     * @param config a BERT config.json
     * @return its options
     * @throws dev.ein4j.models.ModelLoadException if a value is malformed or not supported
     */
    public static BertConfig from(ModelConfig config) {
        Objects.requireNonNull(config, "config");
        int hidden = config.positiveInteger("hidden_size", 768);
        int heads = config.positiveInteger("num_attention_heads", 12);
        if (hidden % heads != 0) {
            throw config.unsupported("num_attention_heads", "which does not divide hidden_size " + hidden);
        }
        // older configs name the position encoding; only learned absolute positions exist in BERT itself
        config.choice("position_embedding_type", "absolute", List.of("absolute"));
        int vocab = config.positiveInteger("vocab_size", 30522);
        Integer pad = config.nullableInteger("pad_token_id", 0);
        if (pad != null && (pad < 0 || pad >= vocab)) {
            pad = null; // transformers warns and embeds such a token like any other
        }
        boolean decoder = config.bool("is_decoder", false);
        boolean cross = config.bool("add_cross_attention", false);
        if (cross && !decoder) {
            throw config.unsupported("add_cross_attention", "which needs is_decoder true");
        }
        return new BertConfig(vocab, hidden, config.nonNegativeInteger("num_hidden_layers", 12), heads,
                config.positiveInteger("intermediate_size", 3072), config.choice("hidden_act", "gelu", HfActivations.NAMES),
                config.number("hidden_dropout_prob", 0.1), config.number("attention_probs_dropout_prob", 0.1),
                config.positiveInteger("max_position_embeddings", 512), config.positiveInteger("type_vocab_size", 2),
                config.number("layer_norm_eps", 1e-12), pad, decoder, cross, config.bool("tie_word_embeddings", true));
    }

    /** @return H / heads */
    public int headDim() {
        return hiddenSize / numAttentionHeads;
    }
}
