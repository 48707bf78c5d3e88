package dev.ein4j.models.tokenizer;

import java.util.ArrayList;
import java.util.List;

/** Reads the "pre_tokenizer" of tokenizer.json. */
final class PreTokenizerReader {

    static final List<String> SUPPORTED = List.of("BertPreTokenizer", "ByteLevel", "CharDelimiterSplit", "Digits", "FixedLength",
            "Metaspace", "Punctuation", "Sequence", "Split", "Whitespace", "WhitespaceSplit");

    private PreTokenizerReader() {
    }

    /**
     * @param node a pre-tokenizer object
     * @return the pre-tokenizer
     * @throws TokenizerException if the object is malformed or its type unsupported
     */
    static PreTokenizer read(JsonNode node) {
        String type = node.type();
        return switch (type) {
            case "BertPreTokenizer" -> PreTokenizers.bert();
            case "ByteLevel" -> byteLevel(node);
            case "CharDelimiterSplit" -> PreTokenizers.characterDelimiter(node.require("delimiter").asCodePoint());
            case "Digits" -> PreTokenizers.digits(node.require("individual_digits").asBoolean());
            case "FixedLength" -> PreTokenizers.fixedLength(node.has("length") ? positive(node.field("length")) : 5);
            case "Metaspace" -> metaspace(node);
            case "Punctuation" -> PreTokenizers.punctuation(node.has("behavior") ? behavior(node.field("behavior")) : SplitBehavior.ISOLATED);
            case "Sequence" -> PreTokenizers.sequence(readAll(node.require("pretokenizers")));
            case "Split" -> PreTokenizers.split(PatternReader.read(node.require("pattern")), behavior(node.require("behavior")),
                    node.require("invert").asBoolean());
            case "Whitespace" -> PreTokenizers.whitespace();
            case "WhitespaceSplit" -> PreTokenizers.whitespaceSplit();
            default -> throw node.unsupported(type, SUPPORTED);
        };
    }

    /**
     * Metaspace as a pre-tokenizer or decoder: files before tokenizers 0.19 have
     * {@code add_prefix_space} instead of {@code prepend_scheme} (false meaning "never").
     *
     * @param node the Metaspace object
     * @return the Metaspace
     */
    static Metaspace metaspace(JsonNode node) {
        int replacement = node.require("replacement").asCodePoint();
        Metaspace.PrependScheme scheme = Metaspace.PrependScheme.ALWAYS;
        if (node.has("prepend_scheme")) {
            JsonNode field = node.field("prepend_scheme");
            scheme = switch (field.asString()) {
                case "always" -> Metaspace.PrependScheme.ALWAYS;
                case "first" -> Metaspace.PrependScheme.FIRST;
                case "never" -> Metaspace.PrependScheme.NEVER;
                default -> throw field.error("is " + JsonNode.quote(field.asString()) + ", not \"always\", \"first\" or \"never\"");
            };
        }
        if (node.has("add_prefix_space") && !node.field("add_prefix_space").asBoolean()) {
            if (node.has("prepend_scheme") && scheme != Metaspace.PrependScheme.NEVER) {
                throw node.error("has add_prefix_space false, which contradicts its prepend_scheme");
            }
            scheme = Metaspace.PrependScheme.NEVER;
        }
        return new Metaspace(replacement, scheme, node.booleanOr("split", true));
    }

    static SplitBehavior behavior(JsonNode node) {
        String name = node.asString();
        for (SplitBehavior behavior : SplitBehavior.values()) {
            if (behavior.jsonName().equals(name)) {
                return behavior;
            }
        }
        throw node.error("is " + JsonNode.quote(name) + ", not one of Removed, Isolated, MergedWithPrevious, MergedWithNext, Contiguous");
    }

    private static int positive(JsonNode node) {
        int value = node.asIndex();
        if (value == 0) {
            throw node.error("is 0, not a positive length");
        }
        return value;
    }

    /** ByteLevel's three flags (trim_offsets only moves offsets, which are not computed here). */
    static ByteLevel byteLevel(JsonNode node) {
        node.require("trim_offsets").asBoolean();
        return new ByteLevel(node.require("add_prefix_space").asBoolean(), node.booleanOr("use_regex", true));
    }

    private static List<PreTokenizer> readAll(JsonNode array) {
        List<PreTokenizer> out = new ArrayList<>();
        for (JsonNode element : array.elements()) {
            out.add(read(element));
        }
        return out;
    }
}
