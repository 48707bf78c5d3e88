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
     * @param source the model object, its vocabulary and merges read from the stream
     * @return the model
     * @throws TokenizerException if the object is malformed or its type unsupported
     */
    static Model read(ModelSource source) {
        JsonNode node = source.node();
        String type = node.has("type") ? node.type() : inferType(source);
        return switch (type) {
            case "BPE" -> bytePairEncoding(source);
            case "WordPiece" -> new WordPiece(vocabulary(source), node.require("unk_token").asString(),
                    node.require("continuing_subword_prefix").asString(), node.require("max_input_chars_per_word").asIndex());
            case "WordLevel" -> new WordLevel(vocabulary(source), node.require("unk_token").asString());
            default -> throw node.unsupported(type, SUPPORTED);
        };
    }

    /** Hugging Face also reads a model without "type", by the fields it has. */
    private static String inferType(ModelSource source) {
        JsonNode node = source.node();
        if (source.merges() != null || node.has("merges")) {
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

    private static BytePairEncoding bytePairEncoding(ModelSource source) {
        JsonNode node = source.node();
        if (node.has("dropout")) {
            double dropout = node.field("dropout").asDouble();
            if (!(dropout >= 0 && dropout <= 1)) {
                throw node.field("dropout").error("is " + dropout + ", not between 0 and 1");
            }
        }
        BytePairEncoding.Options options = new BytePairEncoding.Options(optionalString(node, "unk_token"),
                optionalString(node, "continuing_subword_prefix"), optionalString(node, "end_of_word_suffix"),
                node.booleanOr("fuse_unk", false), node.booleanOr("byte_fallback", false), node.booleanOr("ignore_merges", false));
        Vocabulary vocabulary = vocabulary(source);
        if (source.merges() == null) {
            node.require("merges").elements(); // throws: missing, or not an array
        }
        MergeTable merges = merges(source, vocabulary, options.continuingSubwordPrefix());
        return new BytePairEncoding(vocabulary, merges, options);
    }

    /**
     * Both forms of merges: {@code "a b"} strings (lines starting with "#version" skipped, as in a
     * merges.txt) and {@code ["a", "b"]} pairs, which allow spaces in tokens. The merged token is
     * the left one followed by the right one without its continuation prefix.
     */
    private static MergeTable merges(ModelSource source, Vocabulary vocabulary, String continuationPrefix) {
        List<String[]> lines = source.merges();
        JsonNode mergesNode = source.node().field("merges");
        MergeTable table = new MergeTable(lines.size());
        int rank = 0;
        for (int index = 0; index < lines.size(); index++) {
            String[] line = lines.get(index);
            String left;
            String right;
            if (source.mergesArePairs()) {
                left = line[0];
                right = line[1];
            } else {
                String text = line[0];
                if (text.startsWith("#version")) {
                    continue;
                }
                int space = text.indexOf(' ');
                if (space < 0 || text.indexOf(' ', space + 1) >= 0) {
                    throw mergesNode.element(index, null).error(JsonNode.quote(text) + " is not two tokens separated by one space");
                }
                left = text.substring(0, space);
                right = text.substring(space + 1);
            }
            int prefix = continuationPrefix != null && right.startsWith(continuationPrefix) ? continuationPrefix.length() : 0;
            table.put(id(vocabulary, left, mergesNode, index), id(vocabulary, right, mergesNode, index), rank++,
                    id(vocabulary, left + right.substring(prefix), mergesNode, index));
        }
        return table;
    }

    private static int id(Vocabulary vocabulary, String token, JsonNode merges, int index) {
        int id = vocabulary.id(token);
        if (id < 0) {
            throw merges.element(index, null).error("needs the token " + JsonNode.quote(token) + ", which is not in the vocabulary");
        }
        return id;
    }

    private static Vocabulary vocabulary(ModelSource source) {
        if (source.vocabulary() != null) {
            return source.vocabulary();
        }
        JsonNode node = source.node().require("vocab");
        Map<String, Integer> ids = new HashMap<>();
        for (Map.Entry<String, JsonNode> entry : node.fields().entrySet()) { // throws: not an object
            ids.put(entry.getKey(), entry.getValue().asIndex());
        }
        return Vocabulary.of(ids);
    }

    private static String optionalString(JsonNode node, String name) {
        return node.has(name) ? node.field(name).asString() : null;
    }
}
