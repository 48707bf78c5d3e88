package dev.ein4j.models.tokenizer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.DynamicTest.dynamicTest;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * Single normalizers, pre-tokenizers and decoders, read from the JSON that Hugging Face writes for
 * them, on texts and token lists, against the library's {@code normalize_str}, {@code pre_tokenize_str}
 * and {@code decode} (components.jsonl).
 */
class TokenizerComponentsTest {

    private static final String SOURCE = "components.jsonl";

    @Test
    void everyKindOfComponentIsCovered() {
        List<JsonObject> rows = Fixtures.readLines(Fixtures.root().resolve(SOURCE));
        assertThat(rows.stream().filter(r -> r.has("normalizer"))).hasSizeGreaterThan(300);
        assertThat(rows.stream().filter(r -> r.has("pre_tokenizer"))).hasSizeGreaterThan(600);
        assertThat(rows.stream().filter(r -> r.has("decoder"))).hasSizeGreaterThan(100);
    }

    @TestFactory
    Stream<DynamicTest> componentsMatchTheLibrary() {
        List<DynamicTest> tests = new ArrayList<>();
        int line = 0;
        for (JsonObject row : Fixtures.readLines(Fixtures.root().resolve(SOURCE))) {
            line++;
            String kind = row.has("normalizer") ? "normalizer" : row.has("pre_tokenizer") ? "pre_tokenizer" : "decoder";
            JsonElement config = row.get(kind);
            String name = line + " " + config.getAsJsonObject().get("type").getAsString() + " "
                    + (kind.equals("decoder") ? row.get("input").toString() : Fixtures.label(row.get("input").getAsString()));
            tests.add(dynamicTest(name, () -> check(kind, JsonNode.root(SOURCE, config), row)));
        }
        return tests.stream();
    }

    private static void check(String kind, JsonNode config, JsonObject row) {
        switch (kind) {
            case "normalizer" -> assertThat(NormalizerReader.read(config).normalize(row.get("input").getAsString()))
                    .isEqualTo(row.get("output").getAsString());
            case "pre_tokenizer" -> {
                List<String> words = new ArrayList<>();
                for (NormalizedText word : PreTokenizers.sequence(List.of(PreTokenizerReader.read(config)))
                        .preTokenize(NormalizedText.of(row.get("input").getAsString()))) {
                    words.add(word.text());
                }
                assertThat(words).isEqualTo(strings(row.get("output")));
            }
            default -> assertThat(DecoderReader.read(config).decode(strings(row.get("input"))))
                    .isEqualTo(row.get("output").getAsString());
        }
    }

    private static List<String> strings(JsonElement array) {
        List<String> out = new ArrayList<>();
        array.getAsJsonArray().forEach(e -> out.add(e.getAsString()));
        return out;
    }
}
