package dev.ein4j.examples.models;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code models tokenize} on the models module's fixture folders (written by
 * models/src/test/python/generate_tokenizer_fixtures.py with Hugging Face tokenizers), against the
 * ids and decoded text the library gave.
 */
class TokenizeCommandTest {

    private static final Path FIXTURES = Path.of("..", "models", "src", "test", "resources", "tokenizers");

    @TempDir
    Path work;

    private final ByteArrayOutputStream errBytes = new ByteArrayOutputStream();
    private final PrintStream err = new PrintStream(errBytes, true, StandardCharsets.UTF_8);

    @Test
    void writesTheLibrarysIdsAndTextForEveryLine() throws IOException {
        for (String name : List.of("llama3-split-byte-level", "llama2-metaspace-byte-fallback", "bert-wordpiece-uncased")) {
            Path folder = FIXTURES.resolve(name);
            List<JsonObject> cases = new ArrayList<>();
            for (String line : Files.readAllLines(folder.resolve("cases.jsonl"))) {
                cases.add(JsonParser.parseString(line).getAsJsonObject());
            }
            assertThat(cases).as(folder + "/cases.jsonl").hasSizeGreaterThan(80);
            Path input = work.resolve(name + "-texts.jsonl");
            Path output = work.resolve(name + "-out.jsonl");
            StringBuilder texts = new StringBuilder();
            for (JsonObject row : cases) {
                texts.append(row.get("text").toString()).append('\n');
            }
            Files.writeString(input, texts);

            int status = ModelsCommand.run(new String[] {"tokenize", folder.toString(), "--input", input.toString(), "--output",
                    output.toString()}, System.out, err);

            assertThat(status).as(errBytes.toString(StandardCharsets.UTF_8)).isZero();
            List<String> lines = Files.readAllLines(output, StandardCharsets.UTF_8);
            assertThat(lines).hasSameSizeAs(cases);
            for (int i = 0; i < cases.size(); i++) {
                JsonObject written = JsonParser.parseString(lines.get(i)).getAsJsonObject();
                assertThat(written.keySet()).containsExactly("ids", "decoded");
                assertThat(written.get("ids")).as("ids of %s", cases.get(i).get("text")).isEqualTo(cases.get(i).get("ids"));
                assertThat(written.get("decoded")).isEqualTo(cases.get(i).get("decoded"));
            }
        }
    }

    @Test
    void aFolderWithoutTokenizerJsonIsOneLineAndStatusTwo() throws IOException {
        Path input = Files.writeString(work.resolve("texts.jsonl"), "\"hello\"\n");
        int status = ModelsCommand.run(new String[] {"tokenize", work.toString(), "--input", input.toString(), "--output",
                work.resolve("out.jsonl").toString()}, System.out, err);
        assertThat(status).isEqualTo(2);
        String message = errBytes.toString(StandardCharsets.UTF_8);
        assertThat(message.lines()).hasSize(1);
        assertThat(message).contains("has no tokenizer.json").contains(work.toString());
    }

    @Test
    void aMalformedTokenizerJsonIsOneLineNamingThePath() throws IOException {
        Path folder = Files.createDirectory(work.resolve("broken"));
        Files.writeString(folder.resolve("tokenizer.json"), "{\"model\": {\"type\": \"BPE\", \"vocab\": {\"a\": 0}, \"merges\": []},"
                + " \"pre_tokenizer\": {\"type\": \"Foo\"}}");
        Path input = Files.writeString(work.resolve("texts.jsonl"), "\"hello\"\n");
        int status = ModelsCommand.run(new String[] {"tokenize", folder.toString(), "--input", input.toString(), "--output",
                work.resolve("out.jsonl").toString()}, System.out, err);
        assertThat(status).isEqualTo(2);
        String message = errBytes.toString(StandardCharsets.UTF_8);
        assertThat(message.lines()).hasSize(1);
        assertThat(message).contains("tokenizer.json: pre_tokenizer.type \"Foo\" is not supported (supported: ");
    }

    @Test
    void aLineThatIsNotAJsonStringIsNamedWithItsNumber() throws IOException {
        Path input = Files.writeString(work.resolve("texts.jsonl"), "\"fine\"\n{\"text\": 1}\n");
        int status = ModelsCommand.run(new String[] {"tokenize", FIXTURES.resolve("gpt2-byte-level").toString(), "--input",
                input.toString(), "--output", work.resolve("out.jsonl").toString()}, System.out, err);
        assertThat(status).isEqualTo(2);
        assertThat(errBytes.toString(StandardCharsets.UTF_8)).contains("texts.jsonl:2: the line is not a JSON string");
    }

    @Test
    void missingArgumentsOrAnUnknownSubcommandAreStatusTwo() {
        assertThat(ModelsCommand.run(new String[] {"tokenize", "dir"}, System.out, err)).isEqualTo(2);
        assertThat(ModelsCommand.run(new String[] {"detokenize"}, System.out, err)).isEqualTo(2);
        assertThat(ModelsCommand.run(new String[0], System.out, err)).isEqualTo(2);
        assertThat(errBytes.toString(StandardCharsets.UTF_8)).contains("usage: models tokenize DIR").contains("unknown subcommand 'detokenize'");
    }
}
