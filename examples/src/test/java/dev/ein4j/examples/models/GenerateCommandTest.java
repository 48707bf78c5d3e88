package dev.ein4j.examples.models;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import dev.ein4j.models.AutoModel;
import dev.ein4j.models.ModelConfig;
import dev.ein4j.models.generation.GenerationOptions;
import dev.ein4j.models.generation.TextGenerator;
import dev.ein4j.models.tokenizer.Tokenizer;
import dev.ein4j.nn.io.Npy;
import dev.ein4j.nn.io.SafeTensors;
import dev.ein4j.tensor.Generator;
import dev.ein4j.tensor.Tensor;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code models generate}: greedy ids equal to transformers' generate on the models module's
 * fixture folders (generation.json, written by generate_hf_fixtures.py), int64 in and out (int32 for
 * int32), sampling by seed, the streamed text form, and one line on stderr with status 2 for bad input.
 */
class GenerateCommandTest {

    private static final Path HF = Path.of("..", "models", "src", "test", "resources", "hf");
    private static final Path TOKENIZERS = Path.of("..", "models", "src", "test", "resources", "tokenizers");

    @TempDir
    Path directory;

    private final ModelsCli command = new ModelsCli();

    private static JsonObject fixtureCase(String folder, String name) throws IOException {
        for (JsonElement element : JsonParser.parseString(Files.readString(HF.resolve(folder).resolve("generation.json")))
                .getAsJsonObject().getAsJsonArray("cases")) {
            if (element.getAsJsonObject().get("name").getAsString().equals(name)) {
                return element.getAsJsonObject();
            }
        }
        throw new IllegalArgumentException(name);
    }

    private static int[] flat(JsonArray rows) {
        return rows.asList().stream().flatMapToInt(row -> row.getAsJsonArray().asList().stream().mapToInt(JsonElement::getAsInt))
                .toArray();
    }

    @Test
    void greedyIdsEqualTransformersGenerateInInt64AndInt32() throws IOException {
        for (String folder : new String[] {"gpt2-tied-gelu-new", "llama-gqa-biases"}) {
            JsonObject expected = fixtureCase(folder, "config-eos"); // the folder's own stop token, from config.json
            JsonArray prompt = expected.getAsJsonArray("prompt");
            Path input = directory.resolve(folder + "-ids.npy");
            TokenIdFiles.writeInt64(input, flat(prompt), prompt.size(), flat(prompt).length / prompt.size());
            Path output = directory.resolve(folder + "-out.npy");
            String newTokens = expected.get("max_new_tokens").getAsString();
            assertThat(command.run("generate", HF.resolve(folder).toString(), "--input", input.toString(), "--max-new-tokens", newTokens,
                    "--output", output.toString())).as(command.err()).isZero();
            int[] sequences = flat(expected.getAsJsonArray("sequences"));
            int length = sequences.length / prompt.size();
            assertThat(command.out()).contains("int64[" + prompt.size() + ", " + length + "] ids");
            assertThat(TokenIdFiles.holdsInt32(output)).isFalse();
            assertThat(Npy.read(output).shape()).containsExactly(prompt.size(), length);
            assertThat(Npy.read(output).toIntArray()).as(folder).containsExactly(sequences);

            Npy.write(input, Npy.read(input)); // the same prompts as int32
            assertThat(command.run("generate", HF.resolve(folder).toString(), "--max-new-tokens", newTokens, "--input", input.toString(),
                    "--output", output.toString())).isZero();
            assertThat(TokenIdFiles.holdsInt32(output)).isTrue();
            assertThat(Npy.read(output).toIntArray()).containsExactly(sequences);
        }
    }

    @Test
    void int64FilesHaveNumpysBytes() throws IOException {
        Path file = directory.resolve("ids.npy");
        TokenIdFiles.writeInt64(file, new int[] {1, -2, 3, 2_000_000_000, 0, 7}, 2, 3);
        byte[] bytes = Files.readAllBytes(file);
        String header = new String(bytes, 10, 118, StandardCharsets.US_ASCII);
        assertThat(bytes).hasSize(128 + 6 * 8);
        assertThat(header).isEqualTo("{'descr': '<i8', 'fortran_order': False, 'shape': (2, 3), }" + " ".repeat(58) + "\n");
        java.nio.ByteBuffer data = java.nio.ByteBuffer.wrap(bytes, 128, 48).order(java.nio.ByteOrder.LITTLE_ENDIAN);
        for (long value : new long[] {1, -2, 3, 2_000_000_000, 0, 7}) {
            assertThat(data.getLong()).isEqualTo(value);
        }
        assertThat(Npy.read(file).toIntArray()).containsExactly(1, -2, 3, 2_000_000_000, 0, 7);
    }

    @Test
    void samplingOptionsDrawBySeed() throws IOException {
        Path model = HF.resolve("llama-gqa-biases");
        Path input = directory.resolve("ids.npy");
        Npy.write(input, Tensor.of(new int[] {5, 17, 3, 44}, 1, 4));
        Path first = directory.resolve("first.npy");
        Path again = directory.resolve("again.npy");
        Path other = directory.resolve("other.npy");
        String[] common = {"generate", model.toString(), "--input", input.toString(), "--max-new-tokens", "12", "--temperature",
            "1.5", "--top-k", "50", "--top-p", "0.95"};
        assertThat(command.run(concat(common, "--seed", "7", "--output", first.toString()))).isZero();
        assertThat(command.out()).contains("(sampled)");
        assertThat(command.run(concat(common, "--seed", "7", "--output", again.toString()))).isZero();
        assertThat(command.run(concat(common, "--seed", "8", "--output", other.toString()))).isZero();
        assertThat(Npy.read(again).toIntArray()).containsExactly(Npy.read(first).toIntArray());
        assertThat(Npy.read(other).toIntArray()).isNotEqualTo(Npy.read(first).toIntArray());
    }

    private static String[] concat(String[] head, String... tail) {
        String[] all = Arrays.copyOf(head, head.length + tail.length);
        System.arraycopy(tail, 0, all, head.length, tail.length);
        return all;
    }

    /** A GPT-2 folder with the byte-level BPE fixture's tokenizer.json and random weights over its 701 ids. */
    private Path textFolder() throws IOException {
        Path folder = Files.createDirectories(directory.resolve("text-model"));
        Files.copy(TOKENIZERS.resolve("gpt2-byte-level").resolve("tokenizer.json"), folder.resolve("tokenizer.json"));
        String config = """
                {"architectures": ["GPT2LMHeadModel"], "vocab_size": 701, "n_positions": 64, "n_embd": 16, "n_layer": 1,
                 "n_head": 2, "eos_token_id": 0}""";
        Files.writeString(folder.resolve("config.json"), config);
        Generator generator = new Generator(13);
        Map<String, Tensor> weights = new LinkedHashMap<>();
        AutoModel.fromConfig(ModelConfig.parse("config", config)).stateDict().forEach((name, tensor) -> weights.put(name,
                tensor.rank() >= 2 ? Tensor.randn(generator, tensor.shape()).mul(0.5) : Tensor.ones(tensor.shape())));
        SafeTensors.write(folder.resolve("model.safetensors"), weights);
        return folder;
    }

    @Test
    void aPromptStreamsItsContinuation() throws IOException {
        Path folder = textFolder();
        String prompt = "Hello 🌍 world";
        assertThat(command.run("generate", folder.toString(), "--prompt", prompt, "--max-new-tokens", "10")).isZero();
        String printed = command.out();
        Tokenizer tokenizer = Tokenizer.load(folder);
        int[] promptIds = tokenizer.encode(prompt);
        int[] all = TextGenerator.load(folder).generate(Tensor.of(promptIds, 1, promptIds.length), GenerationOptions.greedy(10))
                .toIntArray();
        String continuation = tokenizer.decode(Arrays.copyOfRange(all, promptIds.length, all.length), true);
        assertThat(continuation).isNotEmpty();
        assertThat(printed).isEqualTo(prompt + continuation + System.lineSeparator());
    }

    @Test
    void generationSettingsThatAreNotAppliedAreWarnedAbout() throws IOException {
        Path folder = Files.createDirectories(directory.resolve("copy"));
        try (var files = Files.list(HF.resolve("gpt2-tied-gelu-new"))) {
            for (Path file : files.toList()) {
                Files.copy(file, folder.resolve(file.getFileName().toString()));
            }
        }
        Files.writeString(folder.resolve("generation_config.json"), "{\"eos_token_id\": 0, \"repetition_penalty\": 1.2}");
        Path input = directory.resolve("ids.npy");
        Npy.write(input, Tensor.of(new int[] {1, 2, 3}, 1, 3));
        assertThat(command.run("generate", folder.toString(), "--input", input.toString(), "--max-new-tokens", "2", "--output",
                directory.resolve("out.npy").toString())).isZero();
        assertThat(command.errorLine()).isEqualTo("models generate: warning: generation_config.json sets repetition_penalty=1.2, "
                + "which transformers' generate applies and this command does not");
    }

    @Test
    void badFoldersShapesTypesAndOptionsAreOneLineAndStatusTwo() throws IOException {
        Path gpt2 = HF.resolve("gpt2-tied-gelu-new"); // 128 ids, 16 positions
        Path ids = directory.resolve("ids.npy");
        Npy.write(ids, Tensor.of(new int[] {1, 2, 3, 4}, 1, 4));
        Path floats = directory.resolve("floats.npy");
        Npy.write(floats, Tensor.zeros(1, 4));
        Path cube = directory.resolve("cube.npy");
        Npy.write(cube, Tensor.zeros(dev.ein4j.ir.DType.INT32, 1, 2, 2));
        String output = directory.resolve("out.npy").toString();
        String model = gpt2.toString();

        assertThat(command.run("generate", model, "--input", ids.toString(), "--output", output)).isEqualTo(2);
        assertThat(command.errorLine()).contains("missing --max-new-tokens").contains("usage: models generate DIR --input IDS.npy");
        assertThat(command.run("generate", model, "--input", ids.toString(), "--max-new-tokens", "many", "--output", output)).isEqualTo(2);
        assertThat(command.errorLine()).contains("--max-new-tokens takes an integer, got 'many'");
        assertThat(command.run("generate", model, "--input", ids.toString(), "--max-new-tokens", "3")).isEqualTo(2);
        assertThat(command.errorLine()).contains("missing --output");
        assertThat(command.run("generate", model, "--prompt", "hi", "--input", ids.toString(), "--max-new-tokens", "3")).isEqualTo(2);
        assertThat(command.errorLine()).contains("--prompt takes no --input or --output");
        assertThat(command.run("generate", model, "--input", ids.toString(), "--max-new-tokens", "3", "--output", output, "--beam", "4"))
                .isEqualTo(2);
        assertThat(command.errorLine()).contains("unexpected argument '--beam'");
        assertThat(command.run("generate", model, "--input", ids.toString(), "--max-new-tokens", "3", "--output")).isEqualTo(2);
        assertThat(command.errorLine()).contains("missing value after --output");

        assertThat(command.run("generate", directory.resolve("absent").toString(), "--input", ids.toString(), "--max-new-tokens", "3",
                "--output", output)).isEqualTo(2);
        assertThat(command.errorLine()).contains("absent: not a directory");
        assertThat(command.run("generate", HF.resolve("bert-untied-relu").toString(), "--input", ids.toString(), "--max-new-tokens", "3",
                "--output", output)).isEqualTo(2);
        assertThat(command.errorLine()).contains("BertForMaskedLM is not a causal language model");
        assertThat(command.run("generate", model, "--prompt", "hi", "--max-new-tokens", "3")).isEqualTo(2);
        assertThat(command.errorLine()).contains("has no tokenizer.json: --prompt needs one");
        assertThat(command.run("generate", model, "--input", floats.toString(), "--max-new-tokens", "3", "--output", output)).isEqualTo(2);
        assertThat(command.errorLine()).contains("prompts are input_ids, int32 or int64 [batch, tokens], got float32[1, 4]");
        assertThat(command.run("generate", model, "--input", cube.toString(), "--max-new-tokens", "3", "--output", output)).isEqualTo(2);
        assertThat(command.errorLine()).contains("got int32[1, 2, 2]");
        assertThat(command.run("generate", model, "--input", ids.toString(), "--max-new-tokens", "20", "--output", output)).isEqualTo(2);
        assertThat(command.errorLine()).contains("4 prompt tokens and 20 new ones need 23 positions, but the model has learned 16");
        assertThat(command.run("generate", model, "--input", ids.toString(), "--max-new-tokens", "3", "--top-p", "2", "--output", output))
                .isEqualTo(2);
        assertThat(command.errorLine()).contains("top-p must be in (0, 1], got 2.0");
        Npy.write(ids, Tensor.of(new int[] {1, 128}, 1, 2));
        assertThat(command.run("generate", model, "--input", ids.toString(), "--max-new-tokens", "3", "--output", output)).isEqualTo(2);
        assertThat(command.errorLine()).contains("prompt id [0, 1] is 128, outside the vocabulary [0, 128)");
        Files.writeString(ids, "not numpy");
        assertThat(command.run("generate", model, "--input", ids.toString(), "--max-new-tokens", "3", "--output", output)).isEqualTo(2);
        assertThat(command.errorLine()).startsWith("models: " + ids);
        assertThat(Files.exists(Path.of(output))).isFalse();
    }
}
