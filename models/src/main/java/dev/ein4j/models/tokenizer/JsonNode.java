package dev.ein4j.models.tokenizer;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonPrimitive;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A value of tokenizer.json with its place in the file, so that every complaint names the file and
 * the JSON path: {@code dir/tokenizer.json: model.vocab["a"] is -1, not an id}.
 */
final class JsonNode {

    /** The index of a node that is a field of an object (its key is the field name). */
    private static final int FIELD = -1;
    /** The index of a node that is an entry of a map-like object (vocabulary, special tokens). */
    private static final int ENTRY = -2;

    private final String file;
    private final JsonNode parent;
    private final String key;
    private final int index;
    private final JsonElement value;

    /** The path is built only for a message: a vocabulary of 128,000 tokens makes as many nodes. */
    private JsonNode(String file, JsonNode parent, String key, int index, JsonElement value) {
        this.file = file;
        this.parent = parent;
        this.key = key;
        this.index = index;
        this.value = value;
    }

    /**
     * @param file the file, for messages
     * @param root the document
     * @return the root node (path "")
     */
    static JsonNode root(String file, JsonElement root) {
        return new JsonNode(file, null, null, -1, root);
    }

    /**
     * @param file the file, for messages
     * @param name the top-level field this value is
     * @param value the value
     * @return a node at path {@code name}
     */
    static JsonNode named(String file, String name, JsonElement value) {
        return new JsonNode(file, root(file, null), name, FIELD, value);
    }

    /**
     * @param key a key of this object
     * @param entryValue its value (null when not kept)
     * @return the node of the entry, at path {@code this["key"]}
     */
    JsonNode entry(String key, JsonElement entryValue) {
        return new JsonNode(file, this, key, ENTRY, entryValue);
    }

    /**
     * @param index an index of this array
     * @param elementValue its value (null when not kept)
     * @return the node of the element, at path {@code this[index]}
     */
    JsonNode element(int index, JsonElement elementValue) {
        return new JsonNode(file, this, null, index, elementValue);
    }

    /**
     * @param newValue a value
     * @return a node at this path holding it
     */
    JsonNode withValue(JsonElement newValue) {
        return new JsonNode(file, parent, key, index, newValue);
    }

    /** @return the JSON path, as {@code pre_tokenizer.pretokenizers[1]} or {@code model.vocab["a"]} */
    String path() {
        if (parent == null) {
            return "";
        }
        String above = parent.path();
        if (key == null) {
            return above + "[" + index + "]";
        }
        if (index == FIELD) {
            return above.isEmpty() ? key : above + "." + key;
        }
        return above + "[" + quote(key) + "]";
    }

    String file() {
        return file;
    }

    /** @return whether this value is JSON null */
    boolean isNull() {
        return value == null || value.isJsonNull();
    }

    boolean isObject() {
        return value != null && value.isJsonObject();
    }

    boolean isArray() {
        return value != null && value.isJsonArray();
    }

    boolean isString() {
        return value != null && value.isJsonPrimitive() && value.getAsJsonPrimitive().isString();
    }

    /**
     * @param name a field of this object
     * @return whether it is present and not null
     */
    boolean has(String name) {
        JsonElement field = object().get(name);
        return field != null && !field.isJsonNull();
    }

    /**
     * @param name a field of this object
     * @return the field
     * @throws TokenizerException if it is missing or null
     */
    JsonNode require(String name) {
        JsonNode field = field(name);
        if (field.isNull()) {
            throw error("has no \"" + name + "\"");
        }
        return field;
    }

    /**
     * @param name a field of this object
     * @return the field (a null node when missing)
     */
    JsonNode field(String name) {
        return new JsonNode(file, this, name, FIELD, object().get(name));
    }

    /** @return the "type" of a component, a string */
    String type() {
        return require("type").asString();
    }

    String asString() {
        if (!isString()) {
            throw error("is " + describe() + ", not a string");
        }
        return requireUnicode(value.getAsString());
    }

    /** Rust's JSON reader rejects unpaired surrogates (which Java strings can hold) anywhere. */
    private String requireUnicode(String text) {
        if (!isUnicode(text)) {
            throw error("holds an unpaired surrogate, which is not Unicode text");
        }
        return text;
    }

    /**
     * @param text a string
     * @return whether it has no unpaired surrogate
     */
    static boolean isUnicode(String text) {
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            boolean paired = Character.isHighSurrogate(c) ? i + 1 < text.length() && Character.isLowSurrogate(text.charAt(++i))
                    : !Character.isLowSurrogate(c);
            if (!paired) {
                return false;
            }
        }
        return true;
    }

    /** @return a string of exactly one code point (a Rust {@code char}) */
    int asCodePoint() {
        String text = asString();
        if (text.isEmpty() || text.codePointCount(0, text.length()) != 1) {
            throw error("is \"" + text + "\", not a single character");
        }
        return text.codePointAt(0);
    }

    boolean asBoolean() {
        if (value == null || !value.isJsonPrimitive() || !value.getAsJsonPrimitive().isBoolean()) {
            throw error("is " + describe() + ", not true or false");
        }
        return value.getAsBoolean();
    }

    /**
     * @param name a field
     * @param fallback its value when missing or null
     * @return the field's boolean
     */
    boolean booleanOr(String name, boolean fallback) {
        JsonNode field = field(name);
        return field.isNull() ? fallback : field.asBoolean();
    }

    /** @return a non-negative integer that fits an int (ids, lengths); 1.0 or 1e2 are not integers, as in Rust */
    int asIndex() {
        BigDecimal number = number();
        String literal = value.getAsString();
        if (literal.matches("-?[0-9]+")) {
            try {
                int index = number.intValueExact();
                if (index >= 0) {
                    return index;
                }
            } catch (ArithmeticException tooLarge) {
                // reported below
            }
        }
        throw error("is " + literal + ", not a non-negative integer below 2^31");
    }

    double asDouble() {
        return number().doubleValue();
    }

    private BigDecimal number() {
        if (value == null || !value.isJsonPrimitive() || !value.getAsJsonPrimitive().isNumber()) {
            throw error("is " + describe() + ", not a number");
        }
        try {
            return value.getAsBigDecimal();
        } catch (NumberFormatException malformed) {
            throw error("is not a number");
        }
    }

    /** @return the elements of this array */
    List<JsonNode> elements() {
        if (!isArray()) {
            throw error("is " + describe() + ", not an array");
        }
        JsonArray array = value.getAsJsonArray();
        List<JsonNode> out = new ArrayList<>(array.size());
        for (int i = 0; i < array.size(); i++) {
            out.add(new JsonNode(file, this, null, i, array.get(i)));
        }
        return out;
    }

    /** @return the fields of this object in document order */
    Map<String, JsonNode> fields() {
        Map<String, JsonNode> out = new LinkedHashMap<>();
        for (Map.Entry<String, JsonElement> entry : object().entrySet()) {
            JsonNode field = new JsonNode(file, this, entry.getKey(), ENTRY, entry.getValue());
            field.requireUnicode(entry.getKey());
            out.put(entry.getKey(), field);
        }
        return out;
    }

    /**
     * @param message what is wrong with this value
     * @return the exception naming the file and path
     */
    TokenizerException error(String message) {
        String path = path();
        return new TokenizerException(file + ": " + (path.isEmpty() ? "the document" : path) + " " + message);
    }

    /**
     * @param type the type found
     * @param supported the types this reader knows
     * @return the exception for an unknown component type
     */
    TokenizerException unsupported(String type, Collection<String> supported) {
        String path = path();
        return new TokenizerException(file + ": " + (path.isEmpty() ? "" : path + ".") + "type " + quote(type)
                + " is not supported (supported: " + String.join(", ", supported) + ")");
    }

    private JsonObject object() {
        if (!isObject()) {
            throw error("is " + describe() + ", not an object");
        }
        return value.getAsJsonObject();
    }

    private String describe() {
        if (isNull()) {
            return "missing";
        }
        if (value.isJsonObject()) {
            return "an object";
        }
        if (value.isJsonArray()) {
            return "an array";
        }
        JsonPrimitive primitive = value.getAsJsonPrimitive();
        String text = primitive.isString() ? quote(primitive.getAsString()) : primitive.toString();
        return text.length() > 60 ? text.substring(0, 57) + "..." : text;
    }

    static String quote(String text) {
        StringBuilder out = new StringBuilder(text.length() + 2).append('"');
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '"' || c == '\\') {
                out.append('\\').append(c);
            } else if (c < 0x20 || (Character.isSurrogate(c) && !isPairedAt(text, i))) {
                out.append(String.format("\\u%04x", (int) c));
            } else {
                out.append(c);
            }
        }
        return out.append('"').toString();
    }

    private static boolean isPairedAt(String text, int i) {
        char c = text.charAt(i);
        return Character.isHighSurrogate(c) ? i + 1 < text.length() && Character.isLowSurrogate(text.charAt(i + 1))
                : i > 0 && Character.isHighSurrogate(text.charAt(i - 1));
    }
}
