package dev.ein4j.models.vit;

import dev.ein4j.error.ShapeException;
import dev.ein4j.models.ImageClassifier;
import dev.ein4j.models.ModelConfig;
import dev.ein4j.models.ModuleList;
import dev.ein4j.models.Wrapper;
import dev.ein4j.nn.LayerNorm;
import dev.ein4j.nn.Linear;
import dev.ein4j.nn.Module;
import dev.ein4j.tensor.Generator;
import dev.ein4j.tensor.Tensor;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * transformers' {@code ViTForImageClassification}: {@code vit} (embeddings, {@code encoder.layer.N},
 * the final {@code layernorm}) and a linear {@code classifier} on the class token.
 *
 * <pre>{@code
 * VitForImageClassification model = (VitForImageClassification) AutoModel.load(Path.of("vit"));
 * Tensor logits = model.logits(pixels);           // [b, 3, 224, 224] -> [b, num_labels]
 * }</pre>
 */
public final class VitForImageClassification extends ImageClassifier {

    /** The name in {@code architectures}. */
    public static final String ARCHITECTURE = "ViTForImageClassification";

    private final VitConfig config;
    private final Body vit;
    private final Linear classifier;

    /** @param config the options (parameters are zeros until a checkpoint is loaded) */
    public VitForImageClassification(VitConfig config) {
        super(ARCHITECTURE, Objects.requireNonNull(config, "config").numChannels(), config.numLabels(), config.hiddenSize());
        this.config = config;
        this.vit = registerModule("vit", new Body(config));
        this.classifier = config.numLabels() == 0 ? null
                : registerModule("classifier", new Linear(config.hiddenSize(), config.numLabels(), true, Generator.global()));
    }

    /**
     * @param config a config.json of this architecture
     * @return the model, with zeros for parameters
     */
    public static VitForImageClassification fromConfig(ModelConfig config) {
        Objects.requireNonNull(config, "config");
        return new VitForImageClassification(VitConfig.from(config));
    }

    /** @return the options */
    public VitConfig config() {
        return config;
    }

    /** @return the last hidden state of the class token, after {@code vit.layernorm} */
    @Override
    protected Tensor computeFeatures(Tensor pixelValues) {
        int[] size = config.imageSize();
        if (pixelValues.length(2) != size[0] || pixelValues.length(3) != size[1]) {
            throw new ShapeException(ARCHITECTURE + ".logits", List.of(Arrays.stream(pixelValues.shape()).asLongStream().toArray()),
                    "the model's position embeddings are for " + size[0] + "x" + size[1] + " images, got "
                            + pixelValues.length(2) + "x" + pixelValues.length(3));
        }
        return vit.forward(pixelValues).slice(1, 0, 1).squeeze(1);
    }

    @Override
    protected Tensor classify(Tensor features) {
        return classifier == null ? features : classifier.forward(features);
    }

    /** {@code vit}: embeddings, encoder layers, final layer norm (no pooler). */
    static final class Body extends Module {

        private final ModuleList<VitLayer> layers;

        Body(VitConfig config) {
            registerModule("embeddings", new VitEmbeddings(config));
            List<VitLayer> list = new ArrayList<>();
            for (int i = 0; i < config.numHiddenLayers(); i++) {
                list.add(new VitLayer(config));
            }
            this.layers = new ModuleList<>(list);
            registerModule("encoder", new Wrapper("layer", layers));
            registerModule("layernorm", new LayerNorm(new int[] {config.hiddenSize()}, config.layerNormEps(), true));
        }

        /** @return the last hidden states [b, 1 + patches, H] */
        @Override
        public Tensor forward(Tensor pixelValues) {
            Tensor hidden = children().get("embeddings").forward(pixelValues);
            for (VitLayer layer : layers.modules()) {
                hidden = layer.forward(hidden);
            }
            return children().get("layernorm").forward(hidden);
        }
    }
}
