package dev.ein4j.examples.models;

import dev.ein4j.models.AutoModel;
import dev.ein4j.models.ModelConfig;
import dev.ein4j.nn.io.SafeTensors;
import dev.ein4j.tensor.Generator;
import dev.ein4j.tensor.Tensor;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Small model folders written by the tests (config.json and random safetensors weights with the
 * model's own names); the comparison with transformers lives in the models module's fixtures.
 */
final class TinyFolders {

    static final String VIT = """
            {"architectures": ["ViTForImageClassification"], "hidden_size": 16, "num_hidden_layers": 1,
             "num_attention_heads": 2, "intermediate_size": 32, "image_size": 16, "patch_size": 4,
             "id2label": {"0": "a", "1": "b"}}""";

    static final String GPT2 = """
            {"architectures": ["GPT2LMHeadModel"], "vocab_size": 50, "n_positions": 8, "n_embd": 16, "n_layer": 1,
             "n_head": 2}""";

    private TinyFolders() {
    }

    /**
     * @param directory an empty folder
     * @param config the config.json text
     * @param seed the weights' seed
     * @return the folder, with random weights: matrices N(0, 0.3²), norm scales 1, the rest N(0, 0.02²)
     */
    static Path write(Path directory, String config, long seed) {
        try {
            Files.writeString(directory.resolve("config.json"), config);
            Generator generator = new Generator(seed);
            Map<String, Tensor> weights = new LinkedHashMap<>();
            AutoModel.fromConfig(ModelConfig.parse("config", config)).stateDict().forEach((name, tensor) -> {
                boolean norm = name.contains("ln_") || name.contains("layernorm") || name.contains("LayerNorm");
                Tensor value = tensor.rank() >= 2 ? Tensor.randn(generator, tensor.shape()).mul(0.3)
                        : norm && name.endsWith("weight") ? Tensor.ones(tensor.shape())
                        : Tensor.randn(generator, tensor.shape()).mul(0.02);
                weights.put(name, value);
            });
            SafeTensors.write(directory.resolve("model.safetensors"), weights);
            return directory;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
