package dev.ein4j.models.generation;

import dev.ein4j.models.AutoModel;
import dev.ein4j.models.ModelConfig;
import dev.ein4j.nn.io.SafeTensors;
import dev.ein4j.tensor.Generator;
import dev.ein4j.tensor.Tensor;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/** A small GPT-2 folder beside a tokenizer fixture, for the text forms of generation (random weights, no transformers reference). */
final class TinyGpt2 {

    private TinyGpt2() {
    }

    /**
     * @param directory an empty folder
     * @param tokenizer a folder name under the tokenizer fixtures, whose tokenizer.json is copied
     * @param vocabulary the model's vocabulary, at least the tokenizer's
     * @param extraConfig more config.json entries ("" or starting with a comma)
     * @return the folder: config.json, model.safetensors (matrices N(0, 0.5²), norm scales 1, the rest N(0, 0.02²)), tokenizer.json
     */
    static Path write(Path directory, String tokenizer, int vocabulary, String extraConfig) {
        String config = "{\"architectures\": [\"GPT2LMHeadModel\"], \"vocab_size\": " + vocabulary
                + ", \"n_positions\": 64, \"n_embd\": 16, \"n_layer\": 1, \"n_head\": 2" + extraConfig + "}";
        try (InputStream in = TinyGpt2.class.getResourceAsStream("/tokenizers/" + tokenizer + "/tokenizer.json")) {
            Files.write(directory.resolve("tokenizer.json"), in.readAllBytes());
            Files.writeString(directory.resolve(AutoModel.CONFIG), config);
            Generator generator = new Generator(21);
            Map<String, Tensor> weights = new LinkedHashMap<>();
            AutoModel.fromConfig(ModelConfig.parse("config", config)).stateDict().forEach((name, tensor) -> weights.put(name,
                    tensor.rank() >= 2 ? Tensor.randn(generator, tensor.shape()).mul(0.5)
                            : name.contains("ln_") && name.endsWith("weight") ? Tensor.ones(tensor.shape())
                            : Tensor.randn(generator, tensor.shape()).mul(0.02)));
            SafeTensors.write(directory.resolve("model.safetensors"), weights);
            return directory;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
