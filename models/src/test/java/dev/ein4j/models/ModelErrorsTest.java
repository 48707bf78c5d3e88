package dev.ein4j.models;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.gson.GsonBuilder;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import dev.ein4j.error.EinopsException;
import dev.ein4j.error.ShapeException;
import dev.ein4j.nn.io.Npy;
import dev.ein4j.nn.io.SafeTensors;
import dev.ein4j.nn.io.TensorFormatException;
import dev.ein4j.tensor.Tensor;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Folders that do not make a model, and inputs that do not fit one, fail at the call with the
 * library's exceptions, naming the file, the key and value, or each tensor at fault.
 */
class ModelErrorsTest {

    @TempDir
    Path directory;

    private Path broken(String fixture) {
        return HfFolders.copy(fixture, directory);
    }

    private Map<String, Tensor> weights(Path folder) {
        return new LinkedHashMap<>(SafeTensors.read(folder.resolve(Checkpoint.WEIGHTS)));
    }

    /** Sets one key of a JSON file (config.json, the index) to a JSON value, or removes it for null. */
    private static void setJson(Path file, String json, String... path) throws IOException {
        JsonObject root = JsonParser.parseString(Files.readString(file)).getAsJsonObject();
        JsonObject target = root;
        for (int i = 0; i < path.length - 1; i++) {
            target = target.getAsJsonObject(path[i]);
        }
        if (json == null) {
            assertThat(target.remove(path[path.length - 1])).as("%s has %s", file, String.join(".", path)).isNotNull();
        } else {
            target.add(path[path.length - 1], JsonParser.parseString(json));
        }
        Files.writeString(file, new GsonBuilder().setPrettyPrinting().create().toJson(root));
    }

    private static void setConfig(Path folder, String key, String json) throws IOException {
        setJson(folder.resolve(AutoModel.CONFIG), json, key.split("\\."));
    }

    // ------------------------------------------------------------------ weights

    @Test
    void missingUnexpectedAndMisShapedWeightsAreListedTogetherByName() {
        Path folder = broken("gpt2-untied-relu");
        Map<String, Tensor> weights = weights(folder);
        weights.remove("lm_head.weight");
        weights.put("transformer.extra", Tensor.zeros(3));
        weights.put("transformer.ln_f.weight", Tensor.zeros(33));
        SafeTensors.write(folder.resolve(Checkpoint.WEIGHTS), weights);

        assertThatThrownBy(() -> AutoModel.load(folder))
                .isInstanceOf(WeightMismatchException.class)
                .hasMessageContaining(folder.resolve("model.safetensors") + " does not fit GPT2LMHeadModel (3 problems, nothing was loaded)")
                .hasMessageContaining("missing: lm_head.weight [100, 32]")
                .hasMessageContaining("unexpected: transformer.extra [3]")
                .hasMessageContaining("shape: transformer.ln_f.weight is [32] in the model but [33] in the checkpoint")
                .satisfies(e -> assertThat(((WeightMismatchException) e).problems()).hasSize(3));
    }

    @Test
    void aCheckpointThatDoesNotFitLeavesTheModelAsItWas() {
        Path folder = HfFolders.folder("bert-untied-relu");
        PretrainedModel model = AutoModel.load(folder);
        Tensor input = Npy.read(folder.resolve("input.npy"));
        float[] before = model.forward(input).toFloatArray();
        Map<String, Tensor> weights = weights(folder);
        weights.replaceAll((name, tensor) -> tensor.dtype().isFloating() ? tensor.add(1.0) : tensor);
        weights.put("bert.embeddings.LayerNorm.bias", Tensor.zeros(31)); // one bad tensor among good ones
        Path bad = directory.resolve(Checkpoint.WEIGHTS);
        SafeTensors.write(bad, weights);

        assertThatThrownBy(() -> model.loadCheckpoint(Checkpoint.read(directory)))
                .isInstanceOf(WeightMismatchException.class)
                .hasMessageContaining("shape: bert.embeddings.LayerNorm.bias is [32] in the model but [31] in the checkpoint");
        assertThat(model.forward(input).toFloatArray()).as("no tensor was assigned").isEqualTo(before);
    }

    @Test
    void anIntegerTensorWhereTheModelHasAFloatingOneIsReported() {
        Path folder = broken("resnet-basic");
        Map<String, Tensor> weights = weights(folder);
        weights.put("classifier.1.bias", Tensor.of(new int[] {1, 2, 3, 4, 5}));
        SafeTensors.write(folder.resolve(Checkpoint.WEIGHTS), weights);
        assertThatThrownBy(() -> AutoModel.load(folder)).isInstanceOf(WeightMismatchException.class)
                .hasMessageContaining("type: classifier.1.bias is float32 in the model but int32 in the checkpoint");
    }

    @Test
    void tiedCopiesAndBuffersOfOlderVersionsAreSkippedButNothingElse() {
        Path folder = broken("gpt2-tied-gelu-new");
        Map<String, Tensor> weights = weights(folder);
        weights.put("lm_head.weight", weights.get("transformer.wte.weight"));
        weights.put("transformer.h.0.attn.bias", Tensor.ones(1, 1, 16, 16));
        SafeTensors.write(folder.resolve(Checkpoint.WEIGHTS), weights);
        Tensor input = Npy.read(folder.resolve("input.npy"));
        HfFixturesTest.assertClose(AutoModel.load(folder).forward(input), Npy.read(folder.resolve("logits.npy")), null,
                "gpt2 with a saved tied head and mask buffer");
    }

    @Test
    void aFolderWithoutWeightsOrConfigSaysWhatIsMissing() throws IOException {
        Path folder = broken("vit-qkv-bias");
        Files.delete(folder.resolve(Checkpoint.WEIGHTS));
        Files.writeString(folder.resolve("pytorch_model.bin"), "pickle");
        assertThatThrownBy(() -> AutoModel.load(folder)).isInstanceOf(ModelLoadException.class)
                .hasMessageContaining("holds neither model.safetensors nor model.safetensors.index.json")
                .hasMessageContaining("pytorch_model.bin is a pickle");
        Files.delete(folder.resolve(AutoModel.CONFIG));
        assertThatThrownBy(() -> AutoModel.load(folder)).isInstanceOf(ModelLoadException.class)
                .hasMessageContaining(folder.resolve("config.json") + ": no such file");
        assertThatThrownBy(() -> AutoModel.load(folder.resolve("nowhere"))).isInstanceOf(ModelLoadException.class)
                .hasMessageContaining("not a directory");
    }

    @Test
    void aTruncatedWeightsFileIsAFormatErrorNamingTheFile() throws IOException {
        Path folder = broken("convnext-layer-scale");
        Path file = folder.resolve(Checkpoint.WEIGHTS);
        byte[] bytes = Files.readAllBytes(file);
        Files.write(file, java.util.Arrays.copyOf(bytes, bytes.length - 10));
        assertThatThrownBy(() -> AutoModel.load(folder)).isInstanceOf(TensorFormatException.class)
                .hasMessageStartingWith(file.toString());
    }

    // ------------------------------------------------------------------ shards

    @Test
    void shardsMustBeWhereTheIndexSaysAndHoldWhatItLists() throws IOException {
        Path folder = broken("llama-mha-tied-sharded");
        Path index = folder.resolve(Checkpoint.INDEX);
        String original = Files.readString(index);

        Files.writeString(index, original.replace("model-00002-of-00003.safetensors", "../escape.safetensors"));
        assertThatThrownBy(() -> AutoModel.load(folder)).isInstanceOf(ModelLoadException.class)
                .hasMessageContaining("\"../escape.safetensors\", which is not a file name in the model folder");

        Files.writeString(index, original.replace("model-00002-of-00003.safetensors", "model-00009-of-00003.safetensors"));
        assertThatThrownBy(() -> AutoModel.load(folder)).isInstanceOf(ModelLoadException.class)
                .hasMessageContaining("shard \"model-00009-of-00003.safetensors\" is not in " + folder);

        Files.writeString(index, original);
        setJson(index, null, "weight_map", "model.norm.weight");
        assertThatThrownBy(() -> AutoModel.load(folder)).isInstanceOf(ModelLoadException.class)
                .hasMessageContaining("holds tensor 'model.norm.weight', which model.safetensors.index.json does not list");

        Files.writeString(index, "{\"metadata\": {}}");
        assertThatThrownBy(() -> AutoModel.load(folder)).isInstanceOf(ModelLoadException.class)
                .hasMessageContaining("needs a \"weight_map\" object");
    }

    // ------------------------------------------------------------------ config.json

    @Test
    void anUnknownArchitectureIsNamedWithTheFileAndTheSupportedOnes() throws IOException {
        Path folder = broken("bert-tied-gelu");
        setConfig(folder, "architectures", "[\"BertForNextSentencePrediction\"]");
        assertThatThrownBy(() -> AutoModel.load(folder)).isInstanceOf(ModelLoadException.class)
                .hasMessageContaining(folder.resolve("config.json") + ": \"architectures\" is [\"BertForNextSentencePrediction\"]")
                .hasMessageContaining("BertForNextSentencePrediction is not supported (supported: GPT2LMHeadModel, LlamaForCausalLM,");
    }

    @Test
    void unsupportedOrMalformedConfigValuesNameTheKeyTheValueAndTheFile() throws IOException {
        Path gpt2 = broken("gpt2-untied-relu");
        setConfig(gpt2, "activation_function", "\"gelu_fancy\"");
        assertThatThrownBy(() -> AutoModel.load(gpt2)).isInstanceOf(ModelLoadException.class)
                .hasMessageStartingWith(gpt2.resolve("config.json") + ": \"activation_function\" is \"gelu_fancy\", which is not supported (supported: gelu, gelu_10,");
        setConfig(gpt2, "activation_function", "\"relu\"");
        setConfig(gpt2, "n_embd", "32.5");
        assertThatThrownBy(() -> AutoModel.load(gpt2)).isInstanceOf(ModelLoadException.class)
                .hasMessageContaining("\"n_embd\" is 32.5, but must be an integer");
        setConfig(gpt2, "n_embd", "31");
        assertThatThrownBy(() -> AutoModel.load(gpt2)).isInstanceOf(ModelLoadException.class)
                .hasMessageContaining("\"n_head\" is 2, which does not divide n_embd 31");
    }

    @Test
    void unsupportedFamilyOptionsAreRejected() throws IOException {
        Path resnet = directory.resolve("resnet");
        Files.createDirectories(resnet);
        HfFolders.copy("resnet-basic", resnet);
        setConfig(resnet, "layer_type", "\"wide\"");
        assertThatThrownBy(() -> AutoModel.load(resnet)).isInstanceOf(ModelLoadException.class)
                .hasMessageContaining("\"layer_type\" is \"wide\", which is not supported (supported: basic, bottleneck)");

        Path llama = directory.resolve("llama");
        Files.createDirectories(llama);
        HfFolders.copy("llama-gqa-biases", llama);
        setConfig(llama, "num_key_value_heads", "3");
        assertThatThrownBy(() -> AutoModel.load(llama)).isInstanceOf(ModelLoadException.class)
                .hasMessageContaining("\"num_key_value_heads\" is 3, which does not divide num_attention_heads 4");
        setConfig(llama, "num_key_value_heads", "2");
        setConfig(llama, "rope_parameters.rope_type", "\"yarn\"");
        assertThatThrownBy(() -> AutoModel.load(llama)).isInstanceOf(ModelLoadException.class)
                .hasMessageContaining("\"rope_parameters.rope_type\" is \"yarn\", which is not supported (supported: default, linear, dynamic, llama3)");
    }

    @Test
    void malformedJsonIsAModelLoadErrorNamingTheFile() throws IOException {
        Path folder = broken("vit-qkv-bias");
        Files.writeString(folder.resolve(AutoModel.CONFIG), "{\"architectures\": [", StandardCharsets.UTF_8);
        assertThatThrownBy(() -> AutoModel.load(folder)).isInstanceOf(ModelLoadException.class)
                .hasMessageStartingWith(folder.resolve("config.json") + ": not valid JSON");
        Files.writeString(folder.resolve(AutoModel.CONFIG), "[1, 2]", StandardCharsets.UTF_8);
        assertThatThrownBy(() -> AutoModel.load(folder)).isInstanceOf(ModelLoadException.class)
                .hasMessageContaining("a configuration must be a JSON object, found [1,2]");
        Files.writeString(folder.resolve(AutoModel.CONFIG), "{\"model_type\": \"vit\"}", StandardCharsets.UTF_8);
        assertThatThrownBy(() -> AutoModel.load(folder)).isInstanceOf(ModelLoadException.class)
                .hasMessageContaining("\"architectures\" is absent, but a model folder's config names its class there");
    }

    // ------------------------------------------------------------------ inputs

    @Test
    void tokenIdsMustBeInt32BatchesOfKnownTokensWithinThePositions() {
        LanguageModel model = (LanguageModel) AutoModel.load(HfFolders.folder("gpt2-untied-relu"));
        assertThatThrownBy(() -> model.logits(Tensor.zeros(1, 3))).isInstanceOf(ShapeException.class)
                .hasMessageContaining("input_ids must be int32 [batch, tokens] with at least one token, got float32[1, 3]");
        assertThatThrownBy(() -> model.logits(Tensor.of(new int[] {1, 2, 3}))).isInstanceOf(ShapeException.class);
        assertThatThrownBy(() -> model.logits(Tensor.of(new int[] {1, 100, 3}, 1, 3))).isInstanceOf(EinopsException.class)
                .hasMessageContaining("GPT2LMHeadModel.logits: input_ids[0, 1] is 100, outside the vocabulary [0, 100)");
        assertThatThrownBy(() -> model.logits(Tensor.zeros(dev.ein4j.ir.DType.INT32, 1, 13))).isInstanceOf(ShapeException.class)
                .hasMessageContaining("13 tokens exceed the 12 positions the model has learned");
        assertThatThrownBy(() -> model.logits(Tensor.zeros(dev.ein4j.ir.DType.INT32, 2, 3), Tensor.ones(2, 3)))
                .isInstanceOf(ShapeException.class).hasMessageContaining("attention_mask must be int32 or bool of the ids' shape");
    }

    @Test
    void pixelsMustHaveTheModelsChannelsAndForViTItsImageSize() {
        ImageClassifier resnet = (ImageClassifier) AutoModel.load(HfFolders.folder("resnet-basic"));
        assertThatThrownBy(() -> resnet.logits(Tensor.zeros(1, 1, 32, 32))).isInstanceOf(ShapeException.class)
                .hasMessageContaining("pixel_values must be floating [batch, 3, height, width], got float32[1, 1, 32, 32]");
        assertThatThrownBy(() -> resnet.logits(Tensor.zeros(dev.ein4j.ir.DType.INT32, 1, 3, 32, 32))).isInstanceOf(ShapeException.class);
        ImageClassifier vit = (ImageClassifier) AutoModel.load(HfFolders.folder("vit-qkv-bias"));
        assertThatThrownBy(() -> vit.logits(Tensor.zeros(1, 3, 24, 32))).isInstanceOf(ShapeException.class)
                .hasMessageContaining("position embeddings are for 32x32 images, got 24x32");
    }
}
