package dev.ein4j.models.tokenizer;

import com.google.gson.Gson;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonPrimitive;
import com.google.gson.TypeAdapter;
import com.google.gson.stream.JsonReader;
import com.google.gson.stream.JsonToken;
import java.io.IOException;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;

/**
 * The "model" object of tokenizer.json, read from the stream: the vocabulary and the merges, which
 * are nearly all of a large file (Llama 3: 128,000 tokens and 280,000 merges), straight into a map
 * and string arrays; the other fields as a small JSON tree. Reading them as a tree first would take
 * several times longer and ten times the memory.
 */
final class ModelSource {

    private static final TypeAdapter<JsonElement> ELEMENT = new Gson().getAdapter(JsonElement.class);

    private final JsonNode node;
    private final Vocabulary vocabulary;
    private final List<String[]> merges;
    private final boolean mergesArePairs;

    private ModelSource(JsonNode node, Vocabulary vocabulary, List<String[]> merges, boolean mergesArePairs) {
        this.node = node;
        this.vocabulary = vocabulary;
        this.merges = merges;
        this.mergesArePairs = mergesArePairs;
    }

    /**
     * @param reader a reader positioned at the model's value (an object, or anything else to report)
     * @param file the file, for messages
     * @return the model's fields
     * @throws IOException if the JSON is malformed
     */
    static ModelSource read(JsonReader reader, String file) throws IOException {
        if (reader.peek() != JsonToken.BEGIN_OBJECT) {
            return new ModelSource(JsonNode.named(file, "model", ELEMENT.read(reader)), null, null, false);
        }
        JsonObject fields = new JsonObject();
        JsonNode node = JsonNode.named(file, "model", fields);
        Vocabulary vocabulary = null;
        List<String[]> merges = null;
        boolean pairs = false;
        reader.beginObject();
        while (reader.hasNext()) {
            String name = reader.nextName();
            if (name.equals("vocab") && reader.peek() == JsonToken.BEGIN_OBJECT) {
                vocabulary = readVocabulary(reader, node.field("vocab"));
            } else if (name.equals("merges") && reader.peek() == JsonToken.BEGIN_ARRAY) {
                reader.beginArray();
                pairs = reader.hasNext() && reader.peek() == JsonToken.BEGIN_ARRAY;
                merges = readMerges(reader, node.field("merges"), pairs);
            } else {
                fields.add(name, ELEMENT.read(reader));
            }
        }
        reader.endObject();
        return new ModelSource(node, vocabulary, merges, pairs);
    }

    /** @return the model's other fields, at path "model" */
    JsonNode node() {
        return node;
    }

    /** @return the vocabulary, or null when "vocab" was not an object (then {@code node().field("vocab")} holds it) */
    Vocabulary vocabulary() {
        return vocabulary;
    }

    /** @return the merges as read ({left, right} pairs, or {line} strings), or null when "merges" was not an array */
    List<String[]> merges() {
        return merges;
    }

    boolean mergesArePairs() {
        return mergesArePairs;
    }

    private static Vocabulary readVocabulary(JsonReader reader, JsonNode vocab) throws IOException {
        Vocabulary.Builder ids = new Vocabulary.Builder();
        reader.beginObject();
        while (reader.hasNext()) {
            String token = reader.nextName();
            if (!JsonNode.isUnicode(token)) {
                throw vocab.entry(token, null).error("holds an unpaired surrogate, which is not Unicode text");
            }
            int id = -1;
            if (reader.peek() == JsonToken.NUMBER) {
                String number = reader.nextString();
                id = isSmallInteger(number) ? Integer.parseInt(number) : vocab.entry(token, new JsonPrimitive(new BigDecimal(number))).asIndex();
            } else {
                vocab.entry(token, ELEMENT.read(reader)).asIndex(); // throws: not a number
            }
            ids.put(token, id);
        }
        reader.endObject();
        return ids.build();
    }

    private static boolean isSmallInteger(String number) {
        if (number.isEmpty() || number.length() > 9) {
            return false;
        }
        for (int i = 0; i < number.length(); i++) {
            if (number.charAt(i) < '0' || number.charAt(i) > '9') {
                return false;
            }
        }
        return true;
    }

    /** Reads the merges after the array's opening bracket, checking each has the form of the first. */
    private static List<String[]> readMerges(JsonReader reader, JsonNode mergesNode, boolean pairs) throws IOException {
        List<String[]> merges = new ArrayList<>();
        for (int index = 0; reader.hasNext(); index++) {
            boolean pair = reader.peek() == JsonToken.BEGIN_ARRAY;
            if (pair != pairs) {
                throw mergesNode.element(index, ELEMENT.read(reader))
                        .error("mixes the two forms of merges (\"a b\" strings and [\"a\", \"b\"] pairs)");
            }
            if (!pair) {
                merges.add(new String[] {string(reader, mergesNode, index, -1)});
                continue;
            }
            String[] tokens = new String[2];
            int count = 0;
            reader.beginArray();
            while (reader.hasNext()) {
                String token = string(reader, mergesNode, index, count);
                if (count < 2) {
                    tokens[count] = token;
                }
                count++;
            }
            reader.endArray();
            if (count != 2) {
                throw mergesNode.element(index, null).error("has " + count + " tokens, not a pair");
            }
            merges.add(tokens);
        }
        reader.endArray();
        return merges;
    }

    /**
     * Reads a string value; anything else, or a string with an unpaired surrogate, is reported at
     * {@code merges[index]} or {@code merges[index][inner]} (the node is made only then).
     */
    private static String string(JsonReader reader, JsonNode merges, int index, int inner) throws IOException {
        if (reader.peek() != JsonToken.STRING) {
            return where(merges, index, inner).withValue(ELEMENT.read(reader)).asString(); // throws: not a string
        }
        String text = reader.nextString();
        if (!JsonNode.isUnicode(text)) {
            throw where(merges, index, inner).error("holds an unpaired surrogate, which is not Unicode text");
        }
        return text;
    }

    private static JsonNode where(JsonNode merges, int index, int inner) {
        JsonNode line = merges.element(index, null);
        return inner < 0 ? line : line.element(inner, null);
    }
}
