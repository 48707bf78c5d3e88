package dev.ein4j.models.resnet;

import dev.ein4j.models.HfActivations;
import dev.ein4j.models.ImageClassifier;
import dev.ein4j.models.ModelConfig;
import dev.ein4j.models.Wrapper;
import dev.ein4j.nn.Linear;
import dev.ein4j.nn.MaxPool2d;
import dev.ein4j.nn.Module;
import dev.ein4j.nn.PoolingOptions;
import dev.ein4j.nn.Rearrange;
import dev.ein4j.nn.Sequential;
import dev.ein4j.tensor.Generator;
import dev.ein4j.tensor.Tensor;
import java.util.Objects;

/**
 * transformers' {@code ResNetForImageClassification}: {@code resnet} (the stem
 * {@code embedder.embedder} and a 3x3 stride-2 max pool, {@code encoder.stages.S.layers.L}, global
 * average pooling {@code reduce("b c h w -> b c", mean)}) and {@code classifier}, a flatten and a
 * linear layer ({@code classifier.1}).
 *
 * <pre>{@code
 * ImageClassifier model = (ImageClassifier) AutoModel.load(Path.of("resnet-18"));
 * Tensor logits = model.logits(pixels);           // [b, 3, 224, 224] -> [b, 1000]
 * }</pre>
 */
public final class ResNetForImageClassification extends ImageClassifier {

    /** The name in {@code architectures}. */
    public static final String ARCHITECTURE = "ResNetForImageClassification";

    private final ResNetConfig config;
    private final Module resnet;
    private final Module classifier;

    /** @param config the options (parameters are zeros until a checkpoint is loaded) */
    public ResNetForImageClassification(ResNetConfig config) {
        super(ARCHITECTURE, Objects.requireNonNull(config, "config").numChannels(), config.numLabels(),
                config.hiddenSizes()[config.hiddenSizes().length - 1]);
        this.config = config;
        this.resnet = registerModule("resnet", new Body(config));
        this.classifier = config.numLabels() == 0 ? null : registerModule("classifier", new Sequential(
                new Rearrange("b ... -> b (...)"), new Linear(featureSize(), config.numLabels(), true, Generator.global())));
    }

    /**
     * @param config a config.json of this architecture
     * @return the model, with zeros for parameters
     */
    public static ResNetForImageClassification fromConfig(ModelConfig config) {
        Objects.requireNonNull(config, "config");
        return new ResNetForImageClassification(ResNetConfig.from(config));
    }

    /** @return the options */
    public ResNetConfig config() {
        return config;
    }

    @Override
    protected Tensor computeFeatures(Tensor pixelValues) {
        return resnet.forward(pixelValues);
    }

    @Override
    protected Tensor classify(Tensor features) {
        return classifier == null ? features : classifier.forward(features);
    }

    /** {@code resnet}: stem, stages, global average pooling. */
    static final class Body extends Module {

        Body(ResNetConfig config) {
            registerModule("embedder", new Stem(config));
            int[] sizes = config.hiddenSizes();
            int[] depths = config.depths();
            Sequential stages = new Sequential();
            int in = config.embeddingSize();
            for (int s = 0; s < sizes.length; s++) {
                int stride = s == 0 && !config.downsampleInFirstStage() ? 1 : 2;
                Sequential layers = new Sequential(new ResNetResidualLayer(config, in, sizes[s], stride));
                for (int l = 1; l < depths[s]; l++) {
                    layers.add(new ResNetResidualLayer(config, sizes[s], sizes[s], 1));
                }
                stages.add(new Wrapper("layers", layers));
                in = sizes[s];
            }
            registerModule("encoder", new Wrapper("stages", stages));
        }

        /** @return the pooled features [b, C] of [b, c, h, w] pixels */
        @Override
        public Tensor forward(Tensor pixelValues) {
            Tensor hidden = children().get("encoder").forward(children().get("embedder").forward(pixelValues));
            return hidden.reduce("b c h w -> b c", "mean");
        }
    }

    /** {@code embedder}: the 7x7 stride-2 convolution {@code embedder} and a 3x3 stride-2 max pool. */
    static final class Stem extends Module {

        private final MaxPool2d pooler = new MaxPool2d(PoolingOptions.kernel(3).stride(2).padding(1));

        Stem(ResNetConfig config) {
            registerModule("embedder", new ResNetConvLayer(config.numChannels(), config.embeddingSize(), 7, 2,
                    HfActivations.named(config.hiddenAct())));
        }

        @Override
        public Tensor forward(Tensor pixelValues) {
            return pooler.forward(children().get("embedder").forward(pixelValues));
        }
    }
}
