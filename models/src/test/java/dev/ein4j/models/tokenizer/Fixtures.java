package dev.ein4j.models.tokenizer;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * The fixtures written by models/src/test/python/generate_tokenizer_fixtures.py, from the test
 * class path: one folder per tokenizer and components.jsonl.
 */
final class Fixtures {

    private Fixtures() {
    }

    /** @return models/src/test/resources/tokenizers as copied to the test class path */
    static Path root() {
        try {
            return Path.of(Fixtures.class.getResource("/tokenizers/components.jsonl").toURI()).getParent();
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    /** @return the fixture folders (each holds a tokenizer.json), by name */
    static List<Path> tokenizerFolders() {
        try (Stream<Path> entries = Files.list(root())) {
            return entries.filter(p -> Files.isRegularFile(p.resolve("tokenizer.json"))).sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * @param file a JSON Lines file
     * @return its objects in order
     */
    static List<JsonObject> readLines(Path file) {
        try {
            List<JsonObject> rows = new ArrayList<>();
            for (String line : Files.readAllLines(file)) {
                if (!line.isBlank()) {
                    rows.add(JsonParser.parseString(line).getAsJsonObject());
                }
            }
            return rows;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static JsonObject readObject(Path file) {
        try {
            return JsonParser.parseString(Files.readString(file)).getAsJsonObject();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static int[] ints(JsonElement array) {
        JsonArray values = array.getAsJsonArray();
        int[] out = new int[values.size()];
        for (int i = 0; i < out.length; i++) {
            out[i] = values.get(i).getAsInt();
        }
        return out;
    }

    /** @return the chunks of a stream, with "" where Python's step returned None */
    static List<String> chunks(JsonElement array) {
        List<String> out = new ArrayList<>();
        for (JsonElement chunk : array.getAsJsonArray()) {
            out.add(chunk.isJsonNull() ? "" : chunk.getAsString());
        }
        return out;
    }

    /** @return a short, printable name for a test text */
    static String label(String text) {
        String shown = text.length() > 40 ? text.substring(0, 37) + "..." : text;
        StringBuilder out = new StringBuilder("\"");
        shown.codePoints().forEach(c -> {
            if (c < 0x20 || c == 0x7F) {
                out.append(String.format("\\x%02x", c));
            } else {
                out.appendCodePoint(c);
            }
        });
        return out.append('"').toString();
    }
}
