package dev.ein4j.models.convnext;

import dev.ein4j.models.HfActivations;
import dev.ein4j.models.ModelConfig;
import java.util.Objects;

/**
 * The options of transformers' {@code ConvNextConfig} that a {@code ConvNextForImageClassification}
 * reads, each named as its {@code config.json} key in camel case, with transformers' defaults.
 *
 * @param numChannels the channels of an image
 * @param patchSize the side of the stem's patches (its kernel and stride)
 * @param numStages the stages used (the first entries of hidden_sizes and depths)
 * @param hiddenSizes the channels of each stage
 * @param depths the blocks of each stage
 * @param hiddenAct the blocks' activation, a name of {@link HfActivations}
 * @param layerNormEps ε of the final layer norm (the others use 1e-6, as transformers' do)
 * @param layerScaleInitValue when positive, each block scales its branch by a learned
 *     {@code layer_scale_parameter}; 0 or less, the blocks have none
 * @param dropPathRate stochastic depth while training (ignored: inference and fine-tuning here run without it)
 * @param numLabels the classes (0: the logits are the pooled features)
 */
public record ConvNextConfig(int numChannels, int patchSize, int numStages, int[] hiddenSizes, int[] depths,
        String hiddenAct, double layerNormEps, double layerScaleInitValue, double dropPathRate, int numLabels) {

    /**
     * @param config a ConvNeXt config.json
     * @return its options
     * @throws dev.ein4j.models.ModelLoadException if a value is malformed or not supported
     */
    public static ConvNextConfig from(ModelConfig config) {
        Objects.requireNonNull(config, "config");
        int[] sizes = config.integers("hidden_sizes", new int[] {96, 192, 384, 768});
        int[] depths = config.integers("depths", new int[] {3, 3, 9, 3});
        int stages = config.positiveInteger("num_stages", 4);
        if (sizes.length < stages || depths.length < stages) {
            throw config.unsupported("num_stages", "but hidden_sizes and depths need an entry per stage");
        }
        for (int i = 0; i < stages; i++) {
            if (sizes[i] < 1 || depths[i] < 0) {
                throw config.unsupported(sizes[i] < 1 ? "hidden_sizes" : "depths", "which must hold positive sizes and non-negative depths");
            }
        }
        int patch = config.pair("patch_size", 4)[0];
        if (config.pair("patch_size", 4)[1] != patch || patch < 1) {
            throw config.unsupported("patch_size", "but only square positive patches are supported");
        }
        return new ConvNextConfig(config.positiveInteger("num_channels", 3), patch, stages, sizes, depths,
                config.choice("hidden_act", "gelu", HfActivations.NAMES), config.number("layer_norm_eps", 1e-12),
                config.number("layer_scale_init_value", 1e-6), config.number("drop_path_rate", 0.0), config.numLabels());
    }

    @Override
    public int[] hiddenSizes() {
        return hiddenSizes.clone();
    }

    @Override
    public int[] depths() {
        return depths.clone();
    }
}
