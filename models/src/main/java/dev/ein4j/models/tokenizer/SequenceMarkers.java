package dev.ein4j.models.tokenizer;

import com.google.gson.JsonElement;
import com.google.gson.JsonParseException;
import com.google.gson.JsonParser;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.OptionalInt;

/**
 * The beginning- and end-of-sequence ids a generation loop needs, from (in this order)
 * tokenizer_config.json's bos_token and eos_token, the special tokens the post-processor puts around
 * the text, and special added tokens with conventional names.
 *
 * @param beginning the beginning-of-sequence id, if any
 * @param end the end-of-sequence id, if any
 */
record SequenceMarkers(OptionalInt beginning, OptionalInt end) {

    private static final List<String> BEGINNING_NAMES = List.of("<s>", "<bos>", "<|begin_of_text|>", "<|startoftext|>", "[CLS]",
            "<|endoftext|>");
    private static final List<String> END_NAMES = List.of("</s>", "<eos>", "<|end_of_text|>", "<|endoftext|>", "<|eot_id|>",
            "[SEP]", "<|im_end|>");

    /**
     * @param parts the tokenizer's components
     * @param config a tokenizer_config.json, or null
     * @return the markers found
     * @throws TokenizerException if the config file is not valid JSON
     */
    static SequenceMarkers infer(TokenizerParts parts, Path config) {
        OptionalInt beginning = OptionalInt.empty();
        OptionalInt end = OptionalInt.empty();
        if (config != null) {
            JsonNode root = readConfig(config);
            beginning = configured(root, "bos_token", parts);
            end = configured(root, "eos_token", parts);
        }
        if (parts.postProcessor() != null) {
            int[] marked = parts.postProcessor().process(new int[] {-1}, true);
            int first = indexOf(marked, -1, true);
            int last = indexOf(marked, -1, false);
            if (beginning.isEmpty() && first > 0) {
                beginning = OptionalInt.of(marked[0]);
            }
            if (end.isEmpty() && last >= 0 && last < marked.length - 1) {
                end = OptionalInt.of(marked[marked.length - 1]);
            }
        }
        if (beginning.isEmpty()) {
            beginning = named(BEGINNING_NAMES, parts.addedVocabulary());
        }
        if (end.isEmpty()) {
            end = named(END_NAMES, parts.addedVocabulary());
        }
        return new SequenceMarkers(beginning, end);
    }

    private static JsonNode readConfig(Path config) {
        try {
            JsonElement root = JsonParser.parseString(Files.readString(config));
            JsonNode node = JsonNode.root(config.toString(), root);
            if (!node.isObject()) {
                throw node.error("is not a JSON object");
            }
            return node;
        } catch (IOException e) {
            throw new UncheckedIOException(config.toString(), e);
        } catch (JsonParseException malformed) {
            throw new TokenizerException(config + ": not valid JSON: " + malformed.getMessage(), malformed);
        }
    }

    /** A token named in the config as a string or as {"content": ...}; one the tokenizer lacks is ignored. */
    private static OptionalInt configured(JsonNode root, String name, TokenizerParts parts) {
        if (!root.has(name)) {
            return OptionalInt.empty();
        }
        JsonNode value = root.field(name);
        String content = value.isObject() ? value.require("content").asString() : value.asString();
        int id = parts.addedVocabulary().id(content);
        if (id < 0) {
            id = parts.model().vocabulary().id(content);
        }
        return id < 0 ? OptionalInt.empty() : OptionalInt.of(id);
    }

    private static OptionalInt named(List<String> names, AddedVocabulary added) {
        for (String name : names) {
            if (added.isSpecial(name)) {
                return OptionalInt.of(added.id(name));
            }
        }
        return OptionalInt.empty();
    }

    private static int indexOf(int[] values, int value, boolean first) {
        int found = -1;
        for (int i = 0; i < values.length; i++) {
            if (values[i] == value) {
                found = i;
                if (first) {
                    break;
                }
            }
        }
        return found;
    }
}
