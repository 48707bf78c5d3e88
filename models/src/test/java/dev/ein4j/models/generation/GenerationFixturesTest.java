package dev.ein4j.models.generation;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import dev.ein4j.models.AutoModel;
import dev.ein4j.models.HfFolders;
import dev.ein4j.models.PretrainedModel;
import dev.ein4j.tensor.Tensor;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Greedy generation equals transformers' {@code generate(do_sample=False)} on every causal fixture
 * family (GPT-2 and Llama with MHA, GQA, MQA and each rope type): generation.json, written by
 * generate_hf_fixtures.py, holds per folder a batch stopping at the config's eos, one stopping at
 * nothing, one whose stop tokens end one sequence early (padded) or all of them, and a single prompt.
 */
class GenerationFixturesTest {

    static List<String> causalFixtures() {
        return HfFolders.names().stream().filter(name -> Files.exists(HfFolders.folder(name).resolve("generation.json"))).toList();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("causalFixtures")
    void greedyTokensEqualTransformers(String name) throws IOException {
        Path folder = HfFolders.folder(name);
        PretrainedModel model = AutoModel.load(folder);
        JsonArray cases = JsonParser.parseString(Files.readString(folder.resolve("generation.json"))).getAsJsonObject()
                .getAsJsonArray("cases");
        assertThat(cases).hasSize(4);
        for (JsonElement element : cases) {
            JsonObject fixture = element.getAsJsonObject();
            int[] eos = ints(fixture.getAsJsonArray("eos_token_id"));
            int pad = fixture.get("pad_token_id").isJsonNull() ? (eos.length > 0 ? eos[0] : -1) : fixture.get("pad_token_id").getAsInt();
            GenerationConfig stop = new GenerationConfig(eos, pad);
            Tensor prompt = matrix(fixture.getAsJsonArray("prompt"));
            GenerationOptions options = GenerationOptions.greedy(fixture.get("max_new_tokens").getAsInt()).stopTokens(stop);
            Tensor generated = TextGenerator.of(model).generate(prompt, options);
            Tensor expected = matrix(fixture.getAsJsonArray("sequences"));
            String what = name + " " + fixture.get("name").getAsString();
            assertThat(generated.shape()).as("shape of %s", what).containsExactly(expected.shape());
            assertThat(generated.toIntArray()).as(what).containsExactly(expected.toIntArray());
            if (fixture.get("name").getAsString().equals("config-eos")) {
                // the folder's own stop tokens (config.json's eos_token_id; no generation_config.json) give the same
                Tensor byDefault = TextGenerator.load(folder).generate(prompt, GenerationOptions.greedy(options.maxNewTokens()));
                assertThat(byDefault.toIntArray()).as(what + " with the folder's stop tokens").containsExactly(expected.toIntArray());
            }
        }
    }

    static int[] ints(JsonArray array) {
        int[] values = new int[array.size()];
        for (int i = 0; i < values.length; i++) {
            values[i] = array.get(i).getAsInt();
        }
        return values;
    }

    static Tensor matrix(JsonArray rows) {
        List<Integer> values = new ArrayList<>();
        for (JsonElement row : rows) {
            for (int value : ints(row.getAsJsonArray())) {
                values.add(value);
            }
        }
        int[] flat = values.stream().mapToInt(Integer::intValue).toArray();
        return Tensor.of(flat, rows.size(), flat.length / rows.size());
    }
}
