package dev.ein4j.models.tokenizer;

import com.google.gson.Gson;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParseException;
import com.google.gson.TypeAdapter;
import com.google.gson.stream.JsonReader;
import com.google.gson.stream.JsonToken;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.Reader;
import java.io.StringReader;
import java.io.UncheckedIOException;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads tokenizer.json: strict JSON (UTF-8, no comments or trailing garbage), the model's vocabulary
 * and merges straight from the stream ({@link ModelSource}), then each component with its reader. Top-level fields other than these are ignored, as Hugging Face ignores them:
 * model (required), normalizer, pre_tokenizer, post_processor, decoder, added_tokens, truncation,
 * padding.
 */
final class TokenizerReader {

    private static final TypeAdapter<JsonElement> ELEMENT = new Gson().getAdapter(JsonElement.class);

    private TokenizerReader() {
    }

    /**
     * @param file a tokenizer.json
     * @return its components
     */
    static TokenizerParts read(Path file) {
        try (Reader reader = new InputStreamReader(Files.newInputStream(file), StandardCharsets.UTF_8.newDecoder()
                .onMalformedInput(CodingErrorAction.REPORT).onUnmappableCharacter(CodingErrorAction.REPORT))) {
            return parse(reader, file.toString());
        } catch (NotUtf8 notUtf8) {
            throw new TokenizerException(file + ": the file is not UTF-8 text", notUtf8.getCause());
        } catch (IOException e) {
            throw new UncheckedIOException(file.toString(), e);
        }
    }

    /**
     * @param json the document
     * @param source the file, for messages
     * @return its components
     */
    static TokenizerParts parse(String json, String source) {
        try {
            return parse(new StringReader(json), source);
        } catch (NotUtf8 impossible) {
            throw new IllegalStateException(impossible);
        }
    }

    /** A decoding failure of the file, told apart from malformed JSON. */
    private static final class NotUtf8 extends Exception {
        NotUtf8(CharacterCodingException cause) {
            super(cause);
        }
    }

    private static TokenizerParts parse(Reader text, String source) throws NotUtf8 {
        JsonObject rest = new JsonObject();
        ModelSource modelSource = null;
        try (JsonReader reader = new JsonReader(text)) {
            reader.setLenient(false);
            if (reader.peek() != JsonToken.BEGIN_OBJECT) {
                throw JsonNode.root(source, ELEMENT.read(reader)).error("is not a JSON object");
            }
            reader.beginObject();
            while (reader.hasNext()) {
                String name = reader.nextName();
                if (name.equals("model") && reader.peek() != JsonToken.NULL) {
                    modelSource = ModelSource.read(reader, source);
                } else {
                    rest.add(name, ELEMENT.read(reader));
                }
            }
            reader.endObject();
            if (reader.peek() != JsonToken.END_DOCUMENT) {
                throw new TokenizerException(source + ": not valid JSON: text after the document");
            }
        } catch (CharacterCodingException notUtf8) {
            throw new NotUtf8(notUtf8);
        } catch (IOException | JsonParseException | IllegalStateException | NumberFormatException malformed) {
            throw new TokenizerException(source + ": not valid JSON: " + malformed.getMessage(), malformed);
        }
        if (modelSource == null) {
            throw new TokenizerException(source + ": the document has no \"model\"");
        }
        return parts(JsonNode.root(source, rest), modelSource);
    }

    private static TokenizerParts parts(JsonNode root, ModelSource modelSource) {
        Model model = ModelReader.read(modelSource);
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
