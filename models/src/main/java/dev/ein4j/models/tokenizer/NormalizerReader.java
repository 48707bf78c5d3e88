package dev.ein4j.models.tokenizer;

import java.text.Normalizer.Form;
import java.util.ArrayList;
import java.util.List;

/** Reads the "normalizer" of tokenizer.json. */
final class NormalizerReader {

    static final List<String> SUPPORTED = List.of("BertNormalizer", "ByteLevel", "Lowercase", "NFC", "NFD", "NFKC", "NFKD",
            "Nmt", "Prepend", "Replace", "Sequence", "Strip", "StripAccents");

    private NormalizerReader() {
    }

    /**
     * @param node a normalizer object
     * @return the normalizer
     * @throws TokenizerException if the object is malformed or its type unsupported
     */
    static Normalizer read(JsonNode node) {
        String type = node.type();
        return switch (type) {
            case "BertNormalizer" -> new BertNormalizer(node.require("clean_text").asBoolean(),
                    node.require("handle_chinese_chars").asBoolean(),
                    node.has("strip_accents") ? node.field("strip_accents").asBoolean() : null,
                    node.require("lowercase").asBoolean());
            case "ByteLevel" -> Normalizers.byteLevel();
            case "Lowercase" -> Normalizers.lowercase();
            case "NFC" -> new UnicodeNormalizer(Form.NFC);
            case "NFD" -> new UnicodeNormalizer(Form.NFD);
            case "NFKC" -> new UnicodeNormalizer(Form.NFKC);
            case "NFKD" -> new UnicodeNormalizer(Form.NFKD);
            case "Nmt" -> Normalizers.nmt();
            case "Prepend" -> Normalizers.prepend(node.require("prepend").asString());
            case "Replace" -> Normalizers.replace(PatternReader.read(node.require("pattern")), node.require("content").asString());
            case "Sequence" -> Normalizers.sequence(readAll(node.require("normalizers")));
            case "Strip" -> Normalizers.strip(node.require("strip_left").asBoolean(), node.require("strip_right").asBoolean());
            case "StripAccents" -> Normalizers.stripAccents();
            default -> throw node.unsupported(type, SUPPORTED);
        };
    }

    private static List<Normalizer> readAll(JsonNode array) {
        List<Normalizer> out = new ArrayList<>();
        for (JsonNode element : array.elements()) {
            out.add(read(element));
        }
        return out;
    }
}
