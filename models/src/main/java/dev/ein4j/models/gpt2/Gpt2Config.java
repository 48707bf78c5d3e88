package dev.ein4j.models.gpt2;

import dev.ein4j.models.HfActivations;
import dev.ein4j.models.ModelConfig;
import java.util.Objects;

/**
 * The options of transformers' {@code GPT2Config} that a {@code GPT2LMHeadModel} reads, each named
 * as its {@code config.json} key in camel case ({@code n_embd} is {@link #nEmbd}), with
 * transformers' defaults. {@code hidden_size}, {@code n_positions}'s alias
 * {@code max_position_embeddings}, {@code num_attention_heads} and {@code num_hidden_layers} are
 * read where the canonical keys are absent, as transformers' {@code attribute_map} does.
 *
 * @param vocabSize V, the rows of {@code wte}
 * @param nPositions the learned positions, the rows of {@code wpe}
 * @param nEmbd the width E
 * @param nLayer the number of blocks
 * @param nHead the number of attention heads (E / n_head is the head width)
 * @param nInner the width of the MLP ({@code n_inner}, 4·E when null)
 * @param activationFunction the MLP's activation, a name of {@link dev.ein4j.models.HfActivations}
 * @param residPdrop dropout after each residual branch (training only)
 * @param embdPdrop dropout of the embeddings (training only)
 * @param attnPdrop dropout of the attention weights (training only)
 * @param layerNormEpsilon the layer norms' ε
 * @param scaleAttnWeights whether scores are divided by √(head width)
 * @param scaleAttnByInverseLayerIdx whether block i's scores are further divided by i + 1
 * @param reorderAndUpcastAttn computes the scores in float32 (what this library always does)
 * @param addCrossAttention whether the blocks have cross-attention weights (held, unused without an encoder)
 * @param tieWordEmbeddings whether the head is {@code wte}'s transpose (no {@code lm_head.weight})
 */
public record Gpt2Config(int vocabSize, int nPositions, int nEmbd, int nLayer, int nHead, int nInner,
        String activationFunction, double residPdrop, double embdPdrop, double attnPdrop, double layerNormEpsilon,
        boolean scaleAttnWeights, boolean scaleAttnByInverseLayerIdx, boolean reorderAndUpcastAttn,
        boolean addCrossAttention, boolean tieWordEmbeddings) {

    /**
     * @param config a GPT-2 config.json
     * @return its options
     * @throws dev.ein4j.models.ModelLoadException if a value is malformed or not supported
     */
    public static Gpt2Config from(ModelConfig config) {
        Objects.requireNonNull(config, "config");
        int nEmbd = config.positiveInteger("n_embd", config.positiveInteger("hidden_size", 768));
        int nHead = config.positiveInteger("n_head", config.positiveInteger("num_attention_heads", 12));
        if (nEmbd % nHead != 0) {
            throw config.unsupported("n_head", "which does not divide n_embd " + nEmbd);
        }
        Integer nInner = config.optionalInteger("n_inner");
        if (nInner != null && nInner < 1) {
            throw config.unsupported("n_inner", "must be a positive integer or null");
        }
        String activation = config.choice("activation_function", "gelu_new", HfActivations.NAMES);
        return new Gpt2Config(config.positiveInteger("vocab_size", 50257),
                config.positiveInteger("n_positions", config.positiveInteger("max_position_embeddings", 1024)), nEmbd,
                config.nonNegativeInteger("n_layer", config.nonNegativeInteger("num_hidden_layers", 12)), nHead,
                nInner == null ? 4 * nEmbd : nInner, activation, config.number("resid_pdrop", 0.1),
                config.number("embd_pdrop", 0.1), config.number("attn_pdrop", 0.1),
                config.number("layer_norm_epsilon", 1e-5), config.bool("scale_attn_weights", true),
                config.bool("scale_attn_by_inverse_layer_idx", false), config.bool("reorder_and_upcast_attn", false),
                config.bool("add_cross_attention", false), config.bool("tie_word_embeddings", true));
    }

    /** @return E / n_head */
    public int headDim() {
        return nEmbd / nHead;
    }
}
