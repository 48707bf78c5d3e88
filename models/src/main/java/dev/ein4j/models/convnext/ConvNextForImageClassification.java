package dev.ein4j.models.convnext;

import dev.ein4j.models.ImageClassifier;
import dev.ein4j.models.ModelConfig;
import dev.ein4j.models.Wrapper;
import dev.ein4j.nn.Conv2d;
import dev.ein4j.nn.ConvolutionOptions;
import dev.ein4j.nn.LayerNorm;
import dev.ein4j.nn.Linear;
import dev.ein4j.nn.Module;
import dev.ein4j.nn.Sequential;
import dev.ein4j.tensor.Generator;
import dev.ein4j.tensor.Tensor;
import java.util.Objects;

/**
 * transformers' {@code ConvNextForImageClassification}: {@code convnext} (the patch stem
 * {@code embeddings} with a channels-first layer norm, {@code encoder.stages.S} each a
 * {@code downsampling_layer} (channels-first layer norm and a 2x2 stride-2 convolution, from the
 * second stage on) and its {@link ConvNextLayer}s, the mean over h and w, the final
 * {@code layernorm}) and a linear {@code classifier}.
 *
 * <pre>{@code
 * ImageClassifier model = (ImageClassifier) AutoModel.load(Path.of("convnext-tiny-224"));
 * Tensor logits = model.logits(pixels);           // [b, 3, 224, 224] -> [b, 1000]
 * }</pre>
 */
public final class ConvNextForImageClassification extends ImageClassifier {

    /** The name in {@code architectures}. */
    public static final String ARCHITECTURE = "ConvNextForImageClassification";

    private final ConvNextConfig config;
    private final Module convnext;
    private final Linear classifier;

    /** @param config the options (parameters are zeros until a checkpoint is loaded) */
    public ConvNextForImageClassification(ConvNextConfig config) {
        super(ARCHITECTURE, Objects.requireNonNull(config, "config").numChannels(), config.numLabels(),
                config.hiddenSizes()[config.numStages() - 1]);
        this.config = config;
        this.convnext = registerModule("convnext", new Body(config));
        this.classifier = config.numLabels() == 0 ? null
                : registerModule("classifier", new Linear(featureSize(), config.numLabels(), true, Generator.global()));
    }

    /**
     * @param config a config.json of this architecture
     * @return the model, with zeros for parameters
     */
    public static ConvNextForImageClassification fromConfig(ModelConfig config) {
        Objects.requireNonNull(config, "config");
        return new ConvNextForImageClassification(ConvNextConfig.from(config));
    }

    /** @return the options */
    public ConvNextConfig config() {
        return config;
    }

    @Override
    protected Tensor computeFeatures(Tensor pixelValues) {
        return convnext.forward(pixelValues);
    }

    @Override
    protected Tensor classify(Tensor features) {
        return classifier == null ? features : classifier.forward(features);
    }

    /** {@code convnext}: stem, stages, pooling and the final layer norm. */
    static final class Body extends Module {

        Body(ConvNextConfig config) {
            int[] sizes = config.hiddenSizes();
            int[] depths = config.depths();
            int patch = config.patchSize();
            Sequential stem = new Sequential(new Conv2d(config.numChannels(), sizes[0], new int[] {patch},
                    ConvolutionOptions.defaults().stride(patch), true, Generator.global()), LayerNorm.channelsFirst(sizes[0], 1e-6));
            registerModule("embeddings", new Stem(stem));
            Sequential stages = new Sequential();
            int in = sizes[0];
            for (int s = 0; s < config.numStages(); s++) {
                stages.add(new Stage(config, in, sizes[s], s == 0 ? 1 : 2, depths[s]));
                in = sizes[s];
            }
            registerModule("encoder", new Wrapper("stages", stages));
            registerModule("layernorm", new LayerNorm(new int[] {in}, config.layerNormEps(), true));
        }

        /** @return the pooled, normalized features [b, C] */
        @Override
        public Tensor forward(Tensor pixelValues) {
            Tensor hidden = children().get("encoder").forward(children().get("embeddings").forward(pixelValues));
            return children().get("layernorm").forward(hidden.reduce("b c h w -> b c", "mean"));
        }
    }

    /** {@code embeddings}: {@code patch_embeddings} and {@code layernorm}. */
    static final class Stem extends Module {

        Stem(Sequential parts) {
            registerModule("patch_embeddings", parts.get(0));
            registerModule("layernorm", parts.get(1));
        }

        @Override
        public Tensor forward(Tensor pixelValues) {
            return children().get("layernorm").forward(children().get("patch_embeddings").forward(pixelValues));
        }
    }

    /** {@code encoder.stages.S}: {@code downsampling_layer} (none in the first stage) and {@code layers}. */
    static final class Stage extends Module {

        Stage(ConvNextConfig config, int in, int out, int stride, int depth) {
            Sequential downsampling = new Sequential();
            if (in != out || stride > 1) {
                downsampling.add(LayerNorm.channelsFirst(in, 1e-6));
                downsampling.add(new Conv2d(in, out, new int[] {2}, ConvolutionOptions.defaults().stride(stride), true,
                        Generator.global()));
            }
            registerModule("downsampling_layer", downsampling);
            Sequential layers = new Sequential();
            for (int i = 0; i < depth; i++) {
                layers.add(new ConvNextLayer(config, out));
            }
            registerModule("layers", layers);
        }

        @Override
        public Tensor forward(Tensor x) {
            return children().get("layers").forward(children().get("downsampling_layer").forward(x));
        }
    }
}
