package dev.ein4j.models.tokenizer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.DynamicTest.dynamicTest;

import com.google.gson.JsonObject;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicContainer;
import org.junit.jupiter.api.DynamicNode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * Every fixture tokenizer on every fixture text, against what Hugging Face tokenizers 0.23.2 gave:
 * ids with and without special tokens, decoding with and without special tokens, and streaming
 * decoding chunk by chunk (Python's DecodeStream); then random id sequences through decode and the
 * stream.
 */
class TokenizerFixturesTest {

    @Test
    void everyFamilyHasFixtures() {
        List<String> names = Fixtures.tokenizerFolders().stream().map(p -> p.getFileName().toString()).toList();
        assertThat(names).contains("gpt2-byte-level", "llama3-split-byte-level", "llama2-metaspace-byte-fallback",
                "mistral-metaspace-first", "bert-wordpiece-uncased", "bert-wordpiece-cased");
        for (Path folder : Fixtures.tokenizerFolders()) {
            assertThat(Fixtures.readLines(folder.resolve("cases.jsonl"))).as(folder.toString()).hasSizeGreaterThan(80);
        }
    }

    @TestFactory
    Stream<DynamicNode> encodesAndDecodesAsTheLibrary() {
        return Fixtures.tokenizerFolders().stream().map(folder -> {
            Tokenizer tokenizer = Tokenizer.load(folder);
            List<DynamicNode> tests = new ArrayList<>();
            tests.add(dynamicTest("vocabulary size and special tokens", () -> checkMeta(tokenizer, folder)));
            for (JsonObject row : Fixtures.readLines(folder.resolve("cases.jsonl"))) {
                String text = row.get("text").getAsString();
                tests.add(dynamicTest(Fixtures.label(text), () -> checkCase(tokenizer, row)));
            }
            for (JsonObject row : Fixtures.readLines(folder.resolve("decode.jsonl"))) {
                tests.add(dynamicTest("decode " + row.get("ids"), () -> checkDecoding(tokenizer, row)));
            }
            return DynamicContainer.dynamicContainer(folder.getFileName().toString(), tests);
        });
    }

    private static void checkMeta(Tokenizer tokenizer, Path folder) {
        JsonObject meta = Fixtures.readObject(folder.resolve("meta.json"));
        assertThat(tokenizer.vocabularySize()).isEqualTo(meta.get("vocabulary_size").getAsInt());
        assertThat(tokenizer.specialTokenIds()).containsExactly(Fixtures.ints(meta.get("special_token_ids")));
    }

    private static void checkCase(Tokenizer tokenizer, JsonObject row) {
        String text = row.get("text").getAsString();
        int[] ids = Fixtures.ints(row.get("ids"));
        assertThat(tokenizer.encode(text)).as("ids of tokens %s", row.get("tokens")).containsExactly(ids);
        assertThat(tokenizer.encode(text, false)).as("ids without special tokens").containsExactly(
                Fixtures.ints(row.get("ids_without_special")));
        checkDecoding(tokenizer, row);
    }

    private static void checkDecoding(Tokenizer tokenizer, JsonObject row) {
        int[] ids = Fixtures.ints(row.get("ids"));
        String decoded = row.get("decoded").getAsString();
        assertThat(tokenizer.decode(ids, false)).isEqualTo(decoded);
        assertThat(tokenizer.decode(ids, true)).isEqualTo(row.get("decoded_skipping_special").getAsString());
        StreamingDecoder stream = tokenizer.streamingDecoder(false);
        if (row.has("stream_error")) {
            assertThatThrownBy(() -> {
                for (int id : ids) {
                    stream.next(id);
                }
            }).isInstanceOf(TokenizerException.class).hasMessageContaining("no longer starts with");
            return;
        }
        List<String> chunks = new ArrayList<>();
        for (int id : ids) {
            chunks.add(stream.next(id));
        }
        assertThat(chunks).as("stream chunks").isEqualTo(Fixtures.chunks(row.get("stream")));
        assertThat(String.join("", chunks) + stream.finish()).as("stream, then finish").isEqualTo(decoded);
    }
}
