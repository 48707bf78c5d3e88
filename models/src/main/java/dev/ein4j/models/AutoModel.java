package dev.ein4j.models;

import dev.ein4j.models.bert.BertForMaskedLm;
import dev.ein4j.models.convnext.ConvNextForImageClassification;
import dev.ein4j.models.gpt2.Gpt2LmHeadModel;
import dev.ein4j.models.llama.LlamaForCausalLm;
import dev.ein4j.models.mobilenetv2.MobileNetV2ForImageClassification;
import dev.ein4j.models.resnet.ResNetForImageClassification;
import dev.ein4j.models.vit.VitForImageClassification;
import dev.ein4j.nn.Init;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;

/**
 * Loads a Hugging Face model folder, what {@code save_pretrained} writes: {@code config.json}
 * names the class in {@code architectures[0]}, which is built with transformers' parameter names
 * and the config's options, and its weights come from {@code model.safetensors} or the shards of
 * {@code model.safetensors.index.json} (float16 and bfloat16 widened to float32). The model is
 * returned in evaluation mode.
 *
 * <pre>{@code
 * PretrainedModel model = AutoModel.load(Path.of("models/tiny-llama"));
 * if (model instanceof LanguageModel lm) {
 *     Tensor logits = lm.logits(Tensor.of(new int[] {1, 15043, 3186}, 1, 3));   // [1, 3, vocab]
 * }
 * }</pre>
 *
 * <p>Parameters are built as zeros, without drawing random values, then every checkpoint tensor
 * is checked against the model before any is assigned (see {@link PretrainedModel#loadCheckpoint}).
 */
public final class AutoModel {

    /** The configuration file of a model folder. */
    public static final String CONFIG = "config.json";

    private static final Map<String, Function<ModelConfig, PretrainedModel>> ARCHITECTURES = architectures();

    private AutoModel() {
    }

    /**
     * @param directory a model folder
     * @return the model with the folder's weights, in evaluation mode
     * @throws ModelLoadException if the folder, its configuration or its weights do not make a
     *     supported model ({@link WeightMismatchException} for weights that do not fit)
     */
    public static PretrainedModel load(Path directory) {
        Objects.requireNonNull(directory, "directory");
        if (!Files.isDirectory(directory)) {
            throw new ModelLoadException(directory + ": not a directory (a model folder holds " + CONFIG + " and weights)");
        }
        PretrainedModel model = fromConfig(ModelConfig.read(directory.resolve(CONFIG)));
        model.loadCheckpoint(Checkpoint.read(directory));
        return model;
    }

    /**
     * Builds the model a configuration describes, with zeros for its parameters (load a checkpoint
     * or initialize them next).
     *
     * @param config a config.json
     * @return the model, in evaluation mode
     * @throws ModelLoadException if the architecture or an option is not supported
     */
    public static PretrainedModel fromConfig(ModelConfig config) {
        Objects.requireNonNull(config, "config");
        String architecture = architecture(config);
        Function<ModelConfig, PretrainedModel> factory = ARCHITECTURES.get(architecture);
        if (factory == null) {
            throw config.unsupported("architectures", "and " + architecture + " is not supported (supported: "
                    + String.join(", ", ARCHITECTURES.keySet()) + ")");
        }
        PretrainedModel model = Init.withoutInitialization(() -> factory.apply(config));
        model.eval();
        return model;
    }

    /** @return the transformers classes this library builds, as {@code architectures} names them */
    public static List<String> supportedArchitectures() {
        return List.copyOf(ARCHITECTURES.keySet());
    }

    private static String architecture(ModelConfig config) {
        if (!config.has("architectures")) {
            throw config.unsupported("architectures", "but a model folder's config names its class there");
        }
        String[] names = config.strings("architectures");
        if (names.length == 0) {
            throw config.unsupported("architectures", "but it must name at least one class");
        }
        return names[0];
    }

    private static Map<String, Function<ModelConfig, PretrainedModel>> architectures() {
        Map<String, Function<ModelConfig, PretrainedModel>> factories = new LinkedHashMap<>();
        factories.put(Gpt2LmHeadModel.ARCHITECTURE, Gpt2LmHeadModel::fromConfig);
        factories.put(LlamaForCausalLm.ARCHITECTURE, LlamaForCausalLm::fromConfig);
        factories.put(BertForMaskedLm.ARCHITECTURE, BertForMaskedLm::fromConfig);
        factories.put(VitForImageClassification.ARCHITECTURE, VitForImageClassification::fromConfig);
        factories.put(ResNetForImageClassification.ARCHITECTURE, ResNetForImageClassification::fromConfig);
        factories.put(MobileNetV2ForImageClassification.ARCHITECTURE, MobileNetV2ForImageClassification::fromConfig);
        factories.put(ConvNextForImageClassification.ARCHITECTURE, ConvNextForImageClassification::fromConfig);
        return factories;
    }
}
