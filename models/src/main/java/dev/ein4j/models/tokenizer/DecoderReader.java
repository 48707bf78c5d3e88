package dev.ein4j.models.tokenizer;

import java.util.ArrayList;
import java.util.List;

/** Reads the "decoder" of tokenizer.json. */
final class DecoderReader {

    static final List<String> SUPPORTED = List.of("BPEDecoder", "ByteFallback", "ByteLevel", "CTC", "Fuse", "Metaspace", "Replace",
            "Sequence", "Strip", "WordPiece");

    private DecoderReader() {
    }

    /**
     * @param node a decoder object
     * @return the decoder
     * @throws TokenizerException if the object is malformed or its type unsupported
     */
    static Decoder read(JsonNode node) {
        String type = node.type();
        return switch (type) {
            case "BPEDecoder" -> Decoders.bpe(node.require("suffix").asString());
            case "ByteFallback" -> Decoders.byteFallback();
            case "ByteLevel" -> PreTokenizerReader.byteLevel(node);
            case "CTC" -> Decoders.connectionistTemporalClassification(node.require("pad_token").asString(),
                    node.require("word_delimiter_token").asString(), node.require("cleanup").asBoolean());
            case "Fuse" -> Decoders.fuse();
            case "Metaspace" -> PreTokenizerReader.metaspace(node);
            case "Replace" -> Decoders.replace(PatternReader.read(node.require("pattern")), node.require("content").asString());
            case "Sequence" -> Decoders.sequence(readAll(node.require("decoders")));
            case "Strip" -> Decoders.strip(node.require("content").asCodePoint(), node.require("start").asIndex(),
                    node.require("stop").asIndex());
            case "WordPiece" -> Decoders.wordPiece(node.require("prefix").asString(), node.require("cleanup").asBoolean());
            default -> throw node.unsupported(type, SUPPORTED);
        };
    }

    private static List<Decoder> readAll(JsonNode array) {
        List<Decoder> out = new ArrayList<>();
        for (JsonNode element : array.elements()) {
            out.add(read(element));
        }
        return out;
    }
}
