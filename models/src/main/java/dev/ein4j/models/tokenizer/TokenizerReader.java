package dev.ein4j.models.tokenizer;

import com.google.gson.Gson;
import com.google.gson.JsonElement;
import com.google.gson.JsonParseException;
import com.google.gson.stream.JsonReader;
import com.google.gson.stream.JsonToken;
import java.io.IOException;
import java.io.StringReader;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads tokenizer.json: strict JSON (UTF-8, no comments or trailing garbage), then each component
 * with its reader. Top-level fields other than these are ignored, as Hugging Face ignores them:
 * model (required), normalizer, pre_tokenizer, post_processor, decoder, added_tokens, truncation,
 * padding.
 */
final class TokenizerReader {

    private static final Gson GSON = new Gson();

    private TokenizerReader() {
    }

    /**
     * @param file a tokenizer.json
     * @return its components
     */
    static TokenizerParts read(Path file) {
        byte[] bytes;
        try {
            bytes = Files.readAllBytes(file);
        } catch (IOException e) {
            throw new UncheckedIOException(file.toString(), e);
        }
        String text;
        try {
            text = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(bytes)).toString();
        } catch (CharacterCodingException e) {
            throw new TokenizerException(file + ": the file is not UTF-8 text", e);
        }
        return parse(text, file.toString());
    }

    /**
     * @param json the document
     * @param source the file, for messages
     * @return its components
     */
    static TokenizerParts parse(String json, String source) {
        JsonNode root = JsonNode.root(source, parseStrictly(json, source));
        if (!root.isObject()) {
            throw root.error("is not a JSON object");
        }
        if (!root.has("model")) {
            throw new TokenizerException(source + ": the document has no \"model\"");
        }
        Model model = ModelReader.read(root.field("model"));
        Normalizer normalizer = root.has("normalizer") ? NormalizerReader.read(root.field("normalizer")) : null;
        PreTokenizer preTokenizer = root.has("pre_tokenizer") ? PreTokenizerReader.read(root.field("pre_tokenizer")) : null;
        PostProcessor postProcessor = root.has("post_processor") ? PostProcessorReader.read(root.field("post_processor")) : null;
        Decoder decoder = root.has("decoder") ? DecoderReader.read(root.field("decoder")) : null;
        List<AddedToken> addedTokens = root.has("added_tokens") ? addedTokens(root.field("added_tokens")) : List.of();
        AddedVocabulary addedVocabulary = new AddedVocabulary(addedTokens, model.vocabulary(), normalizer);
        Truncation truncation = root.has("truncation") ? truncation(root.field("truncation")) : null;
        Padding padding = root.has("padding") ? padding(root.field("padding")) : null;
        return new TokenizerParts(normalizer, preTokenizer, model, postProcessor, decoder, addedVocabulary, truncation, padding);
    }

    private static JsonElement parseStrictly(String json, String source) {
        try (JsonReader reader = new JsonReader(new StringReader(json))) {
            reader.setLenient(false);
            JsonElement element = GSON.getAdapter(JsonElement.class).read(reader);
            if (reader.peek() != JsonToken.END_DOCUMENT) {
                throw new TokenizerException(source + ": not valid JSON: text after the document");
            }
            return element;
        } catch (IOException | JsonParseException | IllegalStateException malformed) {
            throw new TokenizerException(source + ": not valid JSON: " + malformed.getMessage(), malformed);
        }
    }

    private static List<AddedToken> addedTokens(JsonNode array) {
        List<AddedToken> tokens = new ArrayList<>();
        for (JsonNode token : array.elements()) {
            token.require("id").asIndex(); // checked as the library does, then reassigned as it does
            tokens.add(new AddedToken(token.require("content").asString(), token.require("single_word").asBoolean(),
                    token.require("lstrip").asBoolean(), token.require("rstrip").asBoolean(),
                    token.require("normalized").asBoolean(), token.require("special").asBoolean()));
        }
        return tokens;
    }

    private static Truncation truncation(JsonNode node) {
        String strategy = node.require("strategy").asString();
        if (!List.of("LongestFirst", "OnlyFirst", "OnlySecond").contains(strategy)) {
            throw node.field("strategy").error("is " + JsonNode.quote(strategy) + ", not LongestFirst, OnlyFirst or OnlySecond");
        }
        return new Truncation(node.require("max_length").asIndex(), node.has("stride") ? node.field("stride").asIndex() : 0,
                direction(node), strategy.equals("OnlySecond"));
    }

    private static Padding padding(JsonNode node) {
        JsonNode strategy = node.require("strategy");
        int fixed;
        if (strategy.isString()) {
            if (!strategy.asString().equals("BatchLongest")) {
                throw strategy.error("is " + JsonNode.quote(strategy.asString()) + ", not \"BatchLongest\" or {\"Fixed\": n}");
            }
            fixed = -1;
        } else {
            fixed = strategy.require("Fixed").asIndex();
        }
        int multiple = node.has("pad_to_multiple_of") ? node.field("pad_to_multiple_of").asIndex() : 0;
        int padId = node.has("pad_id") ? node.field("pad_id").asIndex() : 0;
        return new Padding(fixed, multiple, padId, direction(node));
    }

    /** @return whether the "direction" is Left (Right when absent) */
    private static boolean direction(JsonNode node) {
        if (!node.has("direction")) {
            return false;
        }
        String direction = node.field("direction").asString();
        if (!direction.equals("Left") && !direction.equals("Right")) {
            throw node.field("direction").error("is " + JsonNode.quote(direction) + ", not \"Left\" or \"Right\"");
        }
        return direction.equals("Left");
    }
}
