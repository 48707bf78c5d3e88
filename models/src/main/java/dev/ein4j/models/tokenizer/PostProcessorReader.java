package dev.ein4j.models.tokenizer;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** Reads the "post_processor" of tokenizer.json. */
final class PostProcessorReader {

    static final List<String> SUPPORTED = List.of("BertProcessing", "ByteLevel", "RobertaProcessing", "Sequence",
            "TemplateProcessing");

    private PostProcessorReader() {
    }

    /**
     * @param node a post-processor object
     * @return the post-processor
     * @throws TokenizerException if the object is malformed or its type unsupported
     */
    static PostProcessor read(JsonNode node) {
        String type = node.type();
        return switch (type) {
            case "BertProcessing", "RobertaProcessing" -> PostProcessors.classifier(tokenId(node.require("cls")),
                    tokenId(node.require("sep")));
            case "ByteLevel" -> {
                PreTokenizerReader.byteLevel(node);
                yield PostProcessors.byteLevel();
            }
            case "Sequence" -> PostProcessors.sequence(readAll(node.require("processors")));
            case "TemplateProcessing" -> template(node);
            default -> throw node.unsupported(type, SUPPORTED);
        };
    }

    /** BertProcessing's {@code ["[CLS]", 101]}: the token and its id. */
    private static int tokenId(JsonNode pair) {
        List<JsonNode> elements = pair.elements();
        if (elements.size() != 2) {
            throw pair.error("is not a [token, id] pair");
        }
        elements.get(0).asString();
        return elements.get(1).asIndex();
    }

    private static TemplateProcessing template(JsonNode node) {
        Map<String, int[]> specialTokens = new HashMap<>();
        for (Map.Entry<String, JsonNode> entry : node.require("special_tokens").fields().entrySet()) {
            JsonNode special = entry.getValue();
            List<JsonNode> ids = special.require("ids").elements();
            int[] values = new int[ids.size()];
            for (int i = 0; i < values.length; i++) {
                values[i] = ids.get(i).asIndex();
            }
            if (special.require("tokens").elements().size() != values.length) {
                throw special.error("has " + values.length + " ids but " + special.require("tokens").elements().size() + " tokens");
            }
            specialTokens.put(special.require("id").asString(), values);
        }
        List<TemplateProcessing.Piece> single = pieces(node.require("single"), specialTokens, false);
        pieces(node.require("pair"), specialTokens, true);
        return new TemplateProcessing(single);
    }

    private static List<TemplateProcessing.Piece> pieces(JsonNode template, Map<String, int[]> specialTokens, boolean pair) {
        List<TemplateProcessing.Piece> out = new ArrayList<>();
        for (JsonNode piece : template.elements()) {
            if (piece.isObject() && piece.has("Sequence")) {
                String sequence = piece.require("Sequence").require("id").asString();
                if (!sequence.equals("A") && !(pair && sequence.equals("B"))) {
                    throw piece.error("names the sequence " + JsonNode.quote(sequence) + (pair ? ", not A or B" : ", not A"));
                }
                out.add(TemplateProcessing.Piece.input());
            } else if (piece.isObject() && piece.has("SpecialToken")) {
                String id = piece.require("SpecialToken").require("id").asString();
                int[] ids = specialTokens.get(id);
                if (ids == null) {
                    throw piece.error("names the special token " + JsonNode.quote(id) + ", which special_tokens lacks");
                }
                out.add(new TemplateProcessing.Piece(ids));
            } else {
                throw piece.error("is not {\"Sequence\": ...} or {\"SpecialToken\": ...}");
            }
        }
        return out;
    }

    private static List<PostProcessor> readAll(JsonNode array) {
        List<PostProcessor> out = new ArrayList<>();
        for (JsonNode element : array.elements()) {
            out.add(read(element));
        }
        return out;
    }
}
