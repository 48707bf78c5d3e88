package dev.ein4j.models.mobilenetv2;

import dev.ein4j.models.HfActivations;
import dev.ein4j.models.ImageClassifier;
import dev.ein4j.models.ModelConfig;
import dev.ein4j.nn.Functional;
import dev.ein4j.nn.Linear;
import dev.ein4j.nn.Module;
import dev.ein4j.nn.Sequential;
import dev.ein4j.tensor.Generator;
import dev.ein4j.tensor.Tensor;
import java.util.Objects;

/**
 * transformers' {@code MobileNetV2ForImageClassification}: {@code mobilenet_v2} (the stem
 * {@code conv_stem}, sixteen inverted residual blocks {@code layer.N}, the last 1x1 convolution
 * {@code conv_1x1}, global average pooling {@code reduce("b c h w -> b c", mean)}) and a linear
 * {@code classifier} (after dropout, when training).
 *
 * <pre>{@code
 * ImageClassifier model = (ImageClassifier) AutoModel.load(Path.of("mobilenet_v2_1.0_224"));
 * Tensor logits = model.logits(pixels);           // [b, 3, 224, 224] -> [b, 1001]
 * }</pre>
 */
public final class MobileNetV2ForImageClassification extends ImageClassifier {

    /** The name in {@code architectures}. */
    public static final String ARCHITECTURE = "MobileNetV2ForImageClassification";

    /** The output channels of the stem and the sixteen blocks of the reference network. */
    private static final int[] CHANNELS = {16, 24, 24, 32, 32, 32, 64, 64, 64, 64, 96, 96, 96, 160, 160, 160, 320};
    /** The strides of the sixteen blocks. */
    private static final int[] STRIDES = {2, 1, 2, 1, 1, 2, 1, 1, 1, 1, 1, 1, 2, 1, 1, 1};

    private final MobileNetV2Config config;
    private final Module body;
    private final Linear classifier;

    /** @param config the options (parameters are zeros until a checkpoint is loaded) */
    public MobileNetV2ForImageClassification(MobileNetV2Config config) {
        super(ARCHITECTURE, Objects.requireNonNull(config, "config").numChannels(), config.numLabels(), outputChannels(config));
        this.config = config;
        this.body = registerModule("mobilenet_v2", new Body(config, featureSize()));
        this.classifier = config.numLabels() == 0 ? null
                : registerModule("classifier", new Linear(featureSize(), config.numLabels(), true, Generator.global()));
    }

    /** The channels of the last 1x1 convolution: 1280, scaled unless finegrained_output keeps them below multiplier 1. */
    private static int outputChannels(MobileNetV2Config config) {
        return config.finegrainedOutput() && config.depthMultiplier() < 1.0 ? 1280 : config.scaled(1280);
    }

    /**
     * @param config a config.json of this architecture
     * @return the model, with zeros for parameters
     */
    public static MobileNetV2ForImageClassification fromConfig(ModelConfig config) {
        Objects.requireNonNull(config, "config");
        return new MobileNetV2ForImageClassification(MobileNetV2Config.from(config));
    }

    /** @return the options */
    public MobileNetV2Config config() {
        return config;
    }

    @Override
    protected Tensor computeFeatures(Tensor pixelValues) {
        return body.forward(pixelValues);
    }

    @Override
    protected Tensor classify(Tensor pooled) {
        if (classifier == null) {
            return pooled;
        }
        return classifier.forward(Functional.dropout(pooled, config.classifierDropoutProb(), isTraining()));
    }

    /** {@code mobilenet_v2}: stem, blocks, last 1x1 convolution, pooling. */
    static final class Body extends Module {

        Body(MobileNetV2Config config, int features) {
            int[] channels = new int[CHANNELS.length];
            for (int i = 0; i < channels.length; i++) {
                channels[i] = config.scaled(CHANNELS[i]);
            }
            registerModule("conv_stem", new Stem(config, config.scaled(32), channels[0]));
            Sequential blocks = new Sequential();
            int currentStride = 2;
            int dilation = 1;
            for (int i = 0; i < STRIDES.length; i++) {
                int stride = STRIDES[i];
                int blockDilation = 1;
                if (currentStride == config.outputStride()) {
                    // past the output stride, blocks dilate instead of striding, from the next block on
                    blockDilation = dilation;
                    dilation *= stride;
                    stride = 1;
                } else {
                    currentStride *= stride;
                }
                blocks.add(new MobileNetV2InvertedResidual(config, channels[i], channels[i + 1], stride, blockDilation));
            }
            registerModule("layer", blocks);
            registerModule("conv_1x1", new MobileNetV2ConvLayer(config, channels[channels.length - 1], features, 1, 1, 1, 1,
                    HfActivations.named(config.hiddenAct())));
        }

        /** @return the pooled features [b, C] */
        @Override
        public Tensor forward(Tensor pixelValues) {
            Tensor hidden = pixelValues;
            for (Module part : children().values()) {
                hidden = part.forward(hidden);
            }
            return hidden.reduce("b c h w -> b c", "mean");
        }
    }

    /** {@code conv_stem}: a 3x3 stride-2 convolution, an optional expansion, a depthwise 3x3, a 1x1 reduction. */
    static final class Stem extends Module {

        Stem(MobileNetV2Config config, int expanded, int out) {
            registerModule("first_conv", new MobileNetV2ConvLayer(config, config.numChannels(), expanded, 3, 2, 1, 1,
                    HfActivations.named(config.hiddenAct())));
            if (!config.firstLayerIsExpansion()) {
                registerModule("expand_1x1", new MobileNetV2ConvLayer(config, expanded, expanded, 1, 1, 1, 1,
                        HfActivations.named(config.hiddenAct())));
            }
            registerModule("conv_3x3", new MobileNetV2ConvLayer(config, expanded, expanded, 3, 1, expanded, 1,
                    HfActivations.named(config.hiddenAct())));
            registerModule("reduce_1x1", new MobileNetV2ConvLayer(config, expanded, out, 1, 1, 1, 1, null));
        }

        @Override
        public Tensor forward(Tensor x) {
            Tensor y = x;
            for (Module layer : children().values()) {
                y = layer.forward(y);
            }
            return y;
        }
    }
}
