package dev.ein4j.models.resnet;

import dev.ein4j.models.HfActivations;
import dev.ein4j.models.ModelConfig;
import java.util.List;
import java.util.Objects;

/**
 * The options of transformers' {@code ResNetConfig} that a {@code ResNetForImageClassification}
 * reads, each named as its {@code config.json} key in camel case, with transformers' defaults.
 *
 * @param numChannels the channels of an image
 * @param embeddingSize the channels of the stem (a 7x7 stride-2 convolution and a 3x3 max pool)
 * @param hiddenSizes the output channels of each stage
 * @param depths the residual layers of each stage
 * @param layerType "basic" (two 3x3 convolutions) or "bottleneck" (1x1, 3x3, 1x1 with a quarter
 *     of the channels inside)
 * @param hiddenAct the activation of the stem and of each layer's output (the convolutions inside
 *     a layer use ReLU, as transformers' do)
 * @param downsampleInFirstStage whether the first stage has stride 2
 * @param downsampleInBottleneck whether a bottleneck strides in its first 1x1 convolution rather
 *     than its 3x3 one
 * @param numLabels the classes (0: the logits are the pooled features)
 */
public record ResNetConfig(int numChannels, int embeddingSize, int[] hiddenSizes, int[] depths, String layerType,
        String hiddenAct, boolean downsampleInFirstStage, boolean downsampleInBottleneck, int numLabels) {

    /**
     * @param config a ResNet config.json
     * @return its options
     * @throws dev.ein4j.models.ModelLoadException if a value is malformed or not supported
     */
    public static ResNetConfig from(ModelConfig config) {
        Objects.requireNonNull(config, "config");
        int[] sizes = config.integers("hidden_sizes", new int[] {256, 512, 1024, 2048});
        int[] depths = config.integers("depths", new int[] {3, 4, 6, 3});
        if (sizes.length == 0 || sizes.length != depths.length) {
            throw config.unsupported("depths", "which must have one entry per hidden_sizes entry (" + sizes.length + ")");
        }
        for (int i = 0; i < sizes.length; i++) {
            if (sizes[i] < 1 || depths[i] < 1) {
                throw config.unsupported(sizes[i] < 1 ? "hidden_sizes" : "depths", "which must hold positive integers");
            }
        }
        String type = config.choice("layer_type", "bottleneck", List.of("basic", "bottleneck"));
        if (type.equals("bottleneck")) {
            for (int size : sizes) {
                if (size < 4) {
                    throw config.unsupported("hidden_sizes", "but a bottleneck needs at least 4 channels (it keeps a quarter)");
                }
            }
        }
        return new ResNetConfig(config.positiveInteger("num_channels", 3), config.positiveInteger("embedding_size", 64),
                sizes, depths, type, config.choice("hidden_act", "relu", HfActivations.NAMES),
                config.bool("downsample_in_first_stage", false), config.bool("downsample_in_bottleneck", false),
                config.numLabels());
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
