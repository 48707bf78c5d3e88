package dev.ein4j.models.tokenizer;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** Reads the "model" of tokenizer.json. */
final class ModelReader {

    static final List<String> SUPPORTED = List.of("BPE", "WordLevel", "WordPiece");

    private ModelReader() {
    }

    /**
     * @param node the model object
     * @return the model
     * @throws TokenizerException if the object is malformed or its type unsupported
     */
    static Model read(JsonNode node) {
        String type = node.has("type") ? node.type() : inferType(node);
        return switch (type) {
            case "BPE" -> bytePairEncoding(node);
            case "WordPiece" -> new WordPiece(vocabulary(node.require("vocab")), node.require("unk_token").asString(),
                    node.require("continuing_subword_prefix").asString(), node.require("max_input_chars_per_word").asIndex());
            case "WordLevel" -> new WordLevel(vocabulary(node.require("vocab")), node.require("unk_token").asString());
            default -> throw node.unsupported(type, SUPPORTED);
        };
    }

    /** Hugging Face also reads a model without "type", by the fields it has. */
    private static String inferType(JsonNode node) {
        if (node.has("merges")) {
            return "BPE";
        }
        if (node.has("max_input_chars_per_word") || node.has("continuing_subword_prefix")) {
            return "WordPiece";
        }
        if (node.has("vocab") && node.field("vocab").isArray()) {
            return "Unigram";
        }
        return "WordLevel";
    }

    private static BytePairEncoding bytePairEncoding(JsonNode node) {
        if (node.has("dropout")) {
            double dropout = node.field("dropout").asDouble();
            if (!(dropout >= 0 && dropout <= 1)) {
                throw node.field("dropout").error("is " + dropout + ", not between 0 and 1");
            }
        }
        BytePairEncoding.Options options = new BytePairEncoding.Options(optionalString(node, "unk_token"),
                optionalString(node, "continuing_subword_prefix"), optionalString(node, "end_of_word_suffix"),
                node.booleanOr("fuse_unk", false), node.booleanOr("byte_fallback", false), node.booleanOr("ignore_merges", false));
        Vocabulary vocabulary = vocabulary(node.require("vocab"));
        MergeTable merges = merges(node.require("merges"), vocabulary, options.continuingSubwordPrefix());
        return new BytePairEncoding(vocabulary, merges, options);
    }

    /**
     * Both forms of merges: {@code "a b"} strings (lines starting with "#version" skipped, as in a
     * merges.txt) and {@code ["a", "b"]} pairs, which allow spaces in tokens. The merged token is
     * the left one followed by the right one without its continuation prefix.
     */
    private static MergeTable merges(JsonNode node, Vocabulary vocabulary, String continuationPrefix) {
        List<JsonNode> lines = node.elements();
        MergeTable table = new MergeTable(lines.size());
        boolean pairs = !lines.isEmpty() && lines.get(0).isArray();
        int rank = 0;
        for (JsonNode line : lines) {
            String left;
            String right;
            if (pairs != line.isArray()) {
                throw line.error("mixes the two forms of merges (\"a b\" strings and [\"a\", \"b\"] pairs)");
            }
            if (pairs) {
                List<JsonNode> pair = line.elements();
                if (pair.size() != 2) {
                    throw line.error("has " + pair.size() + " tokens, not a pair");
                }
                left = pair.get(0).asString();
                right = pair.get(1).asString();
            } else {
                String text = line.asString();
                if (text.startsWith("#version")) {
                    continue;
                }
                int space = text.indexOf(' ');
                if (space < 0 || text.indexOf(' ', space + 1) >= 0) {
                    throw line.error(JsonNode.quote(text) + " is not two tokens separated by one space");
                }
                left = text.substring(0, space);
                right = text.substring(space + 1);
            }
            int prefix = continuationPrefix != null && right.startsWith(continuationPrefix) ? continuationPrefix.length() : 0;
            table.put(id(vocabulary, left, line), id(vocabulary, right, line), rank++,
                    id(vocabulary, left + right.substring(prefix), line));
        }
        return table;
    }

    private static int id(Vocabulary vocabulary, String token, JsonNode line) {
        int id = vocabulary.id(token);
        if (id < 0) {
            throw line.error("needs the token " + JsonNode.quote(token) + ", which is not in the vocabulary");
        }
        return id;
    }

    /**
     * @param node an object of tokens and ids
     * @return the vocabulary
     */
    static Vocabulary vocabulary(JsonNode node) {
        Map<String, JsonNode> fields = node.fields();
        Map<String, Integer> ids = new HashMap<>(fields.size() * 2);
        for (Map.Entry<String, JsonNode> entry : fields.entrySet()) {
            ids.put(entry.getKey(), entry.getValue().asIndex());
        }
        return new Vocabulary(ids);
    }

    private static String optionalString(JsonNode node, String name) {
        return node.has(name) ? node.field(name).asString() : null;
    }
}
