package dev.ein4j.models.vit;

import dev.ein4j.models.HfActivations;
import dev.ein4j.models.ModelConfig;
import java.util.Objects;

/**
 * The options of transformers' {@code ViTConfig} that a {@code ViTForImageClassification} reads,
 * each named as its {@code config.json} key in camel case, with transformers' defaults.
 *
 * @param hiddenSize the width H
 * @param numHiddenLayers the number of encoder layers
 * @param numAttentionHeads the heads
 * @param headDim the width of a head ({@code head_dim}, H / heads when absent)
 * @param intermediateSize the width of the MLP
 * @param hiddenAct the MLP's activation, a name of {@link HfActivations}
 * @param hiddenDropoutProb dropout of embeddings and residual branches (training only)
 * @param attentionProbsDropoutProb dropout of the attention weights (training only)
 * @param layerNormEps the layer norms' ε
 * @param imageSize {height, width} of the images the position embeddings are for
 * @param patchSize {height, width} of a patch
 * @param numChannels the channels of an image
 * @param qkvBias whether the query, key and value projections have biases
 * @param numLabels the classes (0: the logits are the features)
 */
public record VitConfig(int hiddenSize, int numHiddenLayers, int numAttentionHeads, int headDim,
        int intermediateSize, String hiddenAct, double hiddenDropoutProb, double attentionProbsDropoutProb,
        double layerNormEps, int[] imageSize, int[] patchSize, int numChannels, boolean qkvBias, int numLabels) {

    /**
     * @param config a ViT config.json
     * @return its options
     * @throws dev.ein4j.models.ModelLoadException if a value is malformed or not supported
     */
    public static VitConfig from(ModelConfig config) {
        Objects.requireNonNull(config, "config");
        int hidden = config.positiveInteger("hidden_size", 768);
        int heads = config.positiveInteger("num_attention_heads", 12);
        if (!config.has("head_dim") && hidden % heads != 0) {
            throw config.unsupported("num_attention_heads", "which does not divide hidden_size " + hidden);
        }
        int[] image = config.pair("image_size", 224);
        int[] patch = config.pair("patch_size", 16);
        for (int i = 0; i < 2; i++) {
            if (patch[i] < 1 || image[i] < patch[i]) {
                throw config.unsupported("patch_size", "which does not fit image_size " + image[0] + "x" + image[1]);
            }
        }
        return new VitConfig(hidden, config.nonNegativeInteger("num_hidden_layers", 12), heads,
                config.positiveInteger("head_dim", hidden / heads), config.positiveInteger("intermediate_size", 3072),
                config.choice("hidden_act", "gelu", HfActivations.NAMES), config.number("hidden_dropout_prob", 0.0),
                config.number("attention_probs_dropout_prob", 0.0), config.number("layer_norm_eps", 1e-12), image, patch,
                config.positiveInteger("num_channels", 3), config.bool("qkv_bias", true), config.numLabels());
    }

    @Override
    public int[] imageSize() {
        return imageSize.clone();
    }

    @Override
    public int[] patchSize() {
        return patchSize.clone();
    }

    /** @return the patches of an image, (height / patch) · (width / patch) */
    public int numPatches() {
        return (imageSize[0] / patchSize[0]) * (imageSize[1] / patchSize[1]);
    }
}
