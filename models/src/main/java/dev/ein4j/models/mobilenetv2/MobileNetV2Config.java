package dev.ein4j.models.mobilenetv2;

import dev.ein4j.models.HfActivations;
import dev.ein4j.models.ModelConfig;
import java.util.Objects;

/**
 * The options of transformers' {@code MobileNetV2Config} that a
 * {@code MobileNetV2ForImageClassification} reads, each named as its {@code config.json} key in
 * camel case, with transformers' defaults.
 *
 * @param numChannels the channels of an image
 * @param depthMultiplier scales every layer's channels (then rounded by {@link #divisible})
 * @param depthDivisibleBy channels are multiples of this
 * @param minDepth channels are at least this
 * @param expandRatio the expansion of each inverted residual block
 * @param outputStride the largest downsampling; past it the depthwise convolutions dilate instead of striding
 * @param firstLayerIsExpansion whether the stem's first convolution is also its expansion (no {@code expand_1x1})
 * @param finegrainedOutput whether the last 1x1 convolution keeps 1280 channels when depth_multiplier &lt; 1
 * @param hiddenAct the activation (ReLU6 in the original), a name of {@link HfActivations}
 * @param tfPadding whether convolutions pad as TensorFlow's "SAME" (computed from the input size,
 *     the extra row and column after) instead of kernel/2 on each side
 * @param classifierDropoutProb dropout before the classifier (training only)
 * @param layerNormEps the batch norms' ε
 * @param numLabels the classes (0: the logits are the pooled features)
 */
public record MobileNetV2Config(int numChannels, double depthMultiplier, int depthDivisibleBy, int minDepth,
        double expandRatio, int outputStride, boolean firstLayerIsExpansion, boolean finegrainedOutput, String hiddenAct,
        boolean tfPadding, double classifierDropoutProb, double layerNormEps, int numLabels) {

    /**
     * @param config a MobileNetV2 config.json
     * @return its options
     * @throws dev.ein4j.models.ModelLoadException if a value is malformed or not supported
     */
    public static MobileNetV2Config from(ModelConfig config) {
        Objects.requireNonNull(config, "config");
        double multiplier = config.number("depth_multiplier", 1.0);
        if (!(multiplier > 0)) {
            throw config.unsupported("depth_multiplier", "but it must be greater than zero");
        }
        double expand = config.number("expand_ratio", 6.0);
        if (!(expand > 0)) {
            throw config.unsupported("expand_ratio", "but it must be greater than zero");
        }
        int outputStride = config.positiveInteger("output_stride", 32);
        if (Integer.bitCount(outputStride) != 1 || outputStride < 2) {
            throw config.unsupported("output_stride", "but it must be a power of two, at least 2");
        }
        return new MobileNetV2Config(config.positiveInteger("num_channels", 3), multiplier,
                config.positiveInteger("depth_divisible_by", 8), config.positiveInteger("min_depth", 8), expand, outputStride,
                config.bool("first_layer_is_expansion", true), config.bool("finegrained_output", true),
                config.choice("hidden_act", "relu6", HfActivations.NAMES), config.bool("tf_padding", true),
                config.number("classifier_dropout_prob", 0.8), config.number("layer_norm_eps", 0.001), config.numLabels());
    }

    /**
     * transformers' {@code make_divisible}: the nearest multiple of depth_divisible_by, at least
     * min_value, and not below 90% of the value.
     *
     * @param value a channel count
     * @param minValue the least result
     * @return the rounded count
     */
    public int divisible(int value, int minValue) {
        int divisor = depthDivisibleBy;
        int rounded = Math.max(minValue, (int) (value + divisor / 2.0) / divisor * divisor);
        return rounded < 0.9 * value ? rounded + divisor : rounded;
    }

    /**
     * @param channels the channels of the reference network
     * @return the channels at this depth multiplier (Python's round, half to even, then {@link #divisible})
     */
    public int scaled(int channels) {
        return divisible((int) Math.rint(channels * depthMultiplier), minDepth);
    }

    /**
     * @param channels a block's input channels
     * @return its expanded channels
     */
    public int expanded(int channels) {
        return divisible((int) Math.rint(channels * expandRatio), minDepth);
    }
}
