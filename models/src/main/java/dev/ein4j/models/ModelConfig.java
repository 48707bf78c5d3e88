package dev.ein4j.models;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParseException;
import com.google.gson.JsonParser;
import com.google.gson.JsonPrimitive;
import java.io.IOException;
import java.io.Reader;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;

/**
 * The {@code config.json} of a model folder, read key by key with typed getters that apply
 * transformers' default when a key is absent or {@code null}, and fail with a
 * {@link ModelLoadException} naming the file, the key and the value when a value has the wrong
 * type or is not supported.
 *
 * <pre>{@code
 * ModelConfig config = ModelConfig.read(Path.of("gpt2/config.json"));
 * int width = config.integer("n_embd", 768);
 * String activation = config.choice("activation_function", "gelu_new", HfActivations.NAMES);
 * ModelConfig rope = config.object("rope_parameters");       // null when absent
 * }</pre>
 *
 * <p>Nested objects are read the same way; their keys are named by their path, e.g.
 * {@code "rope_parameters.factor"}.
 */
public final class ModelConfig {

    private final String source;
    private final String prefix;
    private final JsonObject json;

    private ModelConfig(String source, String prefix, JsonObject json) {
        this.source = source;
        this.prefix = prefix;
        this.json = json;
    }

    /**
     * @param file a {@code config.json}
     * @return its configuration
     * @throws ModelLoadException if the file is missing, unreadable or not a JSON object
     */
    public static ModelConfig read(Path file) {
        Objects.requireNonNull(file, "file");
        try (Reader reader = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            JsonElement root = JsonParser.parseReader(reader);
            if (!root.isJsonObject()) {
                throw new ModelLoadException(file + ": a configuration must be a JSON object, found " + abbreviate(root));
            }
            return new ModelConfig(file.toString(), "", root.getAsJsonObject());
        } catch (NoSuchFileException e) {
            throw new ModelLoadException(file + ": no such file (a model folder needs its config.json)", e);
        } catch (IOException e) {
            throw new ModelLoadException(file + ": cannot be read: " + e.getMessage(), e);
        } catch (JsonParseException e) {
            throw new ModelLoadException(file + ": not valid JSON: " + rootMessage(e), e);
        }
    }

    /**
     * @param source where the text came from, for messages
     * @param text a JSON object
     * @return its configuration
     * @throws ModelLoadException if the text is not a JSON object
     */
    public static ModelConfig parse(String source, String text) {
        Objects.requireNonNull(source, "source");
        Objects.requireNonNull(text, "text");
        try {
            JsonElement root = JsonParser.parseString(text);
            if (!root.isJsonObject()) {
                throw new ModelLoadException(source + ": a configuration must be a JSON object, found " + abbreviate(root));
            }
            return new ModelConfig(source, "", root.getAsJsonObject());
        } catch (JsonParseException e) {
            throw new ModelLoadException(source + ": not valid JSON: " + rootMessage(e), e);
        }
    }

    /** @return the file this configuration was read from */
    public String source() {
        return source;
    }

    /**
     * @param key a key
     * @return whether the key is present with a value other than {@code null}
     */
    public boolean has(String key) {
        JsonElement value = json.get(Objects.requireNonNull(key, "key"));
        return value != null && !value.isJsonNull();
    }

    /**
     * @param key a key holding an integer
     * @param fallback the value when the key is absent or null
     * @return the integer
     */
    public int integer(String key, int fallback) {
        Objects.requireNonNull(key, "key");
        return has(key) ? integerValue(key, json.get(key)) : fallback;
    }

    /**
     * @param key a key holding an integer
     * @return the integer, or null when the key is absent or null
     */
    public Integer optionalInteger(String key) {
        Objects.requireNonNull(key, "key");
        return has(key) ? integerValue(key, json.get(key)) : null;
    }

    /**
     * For keys whose default is a number but that may be set to {@code null} on purpose
     * ({@code pad_token_id}).
     *
     * @param key a key holding an integer or null
     * @param fallback the value when the key is absent
     * @return the integer; null when the key holds null
     */
    public Integer nullableInteger(String key, Integer fallback) {
        JsonElement value = json.get(Objects.requireNonNull(key, "key"));
        if (value == null) {
            return fallback;
        }
        return value.isJsonNull() ? null : integerValue(key, value);
    }

    /**
     * @param key a key holding a positive integer
     * @param fallback the value when the key is absent or null
     * @return the integer, at least 1
     */
    public int positiveInteger(String key, int fallback) {
        Objects.requireNonNull(key, "key");
        int value = integer(key, fallback);
        if (value < 1) {
            throw unsupported(key, "must be a positive integer");
        }
        return value;
    }

    /**
     * @param key a key holding a count (layers, blocks)
     * @param fallback the value when the key is absent or null
     * @return the integer, at least 0
     */
    public int nonNegativeInteger(String key, int fallback) {
        int value = integer(key, fallback);
        if (value < 0) {
            throw unsupported(key, "must not be negative");
        }
        return value;
    }

    /**
     * @param key a key holding a number
     * @param fallback the value when the key is absent or null
     * @return the number
     */
    public double number(String key, double fallback) {
        Objects.requireNonNull(key, "key");
        if (!has(key)) {
            return fallback;
        }
        JsonElement value = json.get(key);
        if (!(value instanceof JsonPrimitive primitive) || !primitive.isNumber()) {
            throw invalid(key, "must be a number");
        }
        return primitive.getAsDouble();
    }

    /**
     * @param key a key holding true or false
     * @param fallback the value when the key is absent or null
     * @return the flag
     */
    public boolean bool(String key, boolean fallback) {
        Objects.requireNonNull(key, "key");
        if (!has(key)) {
            return fallback;
        }
        JsonElement value = json.get(key);
        if (!(value instanceof JsonPrimitive primitive) || !primitive.isBoolean()) {
            throw invalid(key, "must be true or false");
        }
        return primitive.getAsBoolean();
    }

    /**
     * @param key a key holding a string
     * @param fallback the value when the key is absent or null (may be null)
     * @return the string
     */
    public String string(String key, String fallback) {
        Objects.requireNonNull(key, "key");
        if (!has(key)) {
            return fallback;
        }
        JsonElement value = json.get(key);
        if (!(value instanceof JsonPrimitive primitive) || !primitive.isString()) {
            throw invalid(key, "must be a string");
        }
        return primitive.getAsString();
    }

    /**
     * @param key a key holding one of a few strings
     * @param fallback the value when the key is absent or null
     * @param supported the strings this library implements
     * @return the string, one of {@code supported}
     */
    public String choice(String key, String fallback, List<String> supported) {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(supported, "supported");
        String value = string(key, fallback);
        if (!supported.contains(value)) {
            throw unsupported(key, "which is not supported (supported: " + String.join(", ", supported) + ")");
        }
        return value;
    }

    /**
     * @param key a key holding an array of integers
     * @param fallback the value when the key is absent or null
     * @return the integers (a copy)
     */
    public int[] integers(String key, int[] fallback) {
        Objects.requireNonNull(key, "key");
        if (!has(key)) {
            return fallback.clone();
        }
        JsonElement value = json.get(key);
        if (!value.isJsonArray()) {
            throw invalid(key, "must be an array of integers");
        }
        JsonArray array = value.getAsJsonArray();
        int[] numbers = new int[array.size()];
        for (int i = 0; i < numbers.length; i++) {
            numbers[i] = integerValue(key, array.get(i));
        }
        return numbers;
    }

    /**
     * For keys that hold one integer or a list of them ({@code eos_token_id}).
     *
     * @param key a key holding an integer or an array of integers
     * @return the integers (one for a single integer), empty when the key is absent or null
     */
    public int[] integerOrIntegers(String key) {
        Objects.requireNonNull(key, "key");
        if (has(key) && json.get(key).isJsonArray()) {
            return integers(key, new int[0]);
        }
        return has(key) ? new int[] {integerValue(key, json.get(key))} : new int[0];
    }

    /**
     * @param key a key holding an array of strings
     * @return the strings, empty when the key is absent or null
     */
    public String[] strings(String key) {
        Objects.requireNonNull(key, "key");
        if (!has(key)) {
            return new String[0];
        }
        JsonElement value = json.get(key);
        if (!value.isJsonArray()) {
            throw invalid(key, "must be an array of strings");
        }
        JsonArray array = value.getAsJsonArray();
        String[] strings = new String[array.size()];
        for (int i = 0; i < strings.length; i++) {
            JsonElement item = array.get(i);
            if (!(item instanceof JsonPrimitive primitive) || !primitive.isString()) {
                throw invalid(key, "must be an array of strings");
            }
            strings[i] = primitive.getAsString();
        }
        return strings;
    }

    /**
     * A size given as one integer for both sides or as [height, width], as {@code image_size}.
     *
     * @param key the key
     * @param fallback the length of both sides when the key is absent or null
     * @return {height, width}
     */
    public int[] pair(String key, int fallback) {
        Objects.requireNonNull(key, "key");
        if (!has(key)) {
            return new int[] {fallback, fallback};
        }
        JsonElement value = json.get(key);
        if (value.isJsonArray()) {
            int[] pair = integers(key, new int[0]);
            if (pair.length != 2) {
                throw invalid(key, "must be an integer or [height, width]");
            }
            return pair;
        }
        int side = integerValue(key, value);
        return new int[] {side, side};
    }

    /**
     * @param key a key holding an object
     * @return the nested configuration, or null when the key is absent or null
     */
    public ModelConfig object(String key) {
        Objects.requireNonNull(key, "key");
        if (!has(key)) {
            return null;
        }
        JsonElement value = json.get(key);
        if (!value.isJsonObject()) {
            throw invalid(key, "must be an object");
        }
        return new ModelConfig(source, prefix + key + ".", value.getAsJsonObject());
    }

    /**
     * The number of classes of a classification head, as transformers counts them: the entries of
     * {@code id2label} when it is present, else {@code num_labels}, else 2.
     *
     * @return the number of labels, 0 for a head without a classifier
     */
    public int numLabels() {
        if (has("id2label")) {
            JsonElement labels = json.get("id2label");
            if (!labels.isJsonObject()) {
                throw invalid("id2label", "must be an object from class index to label");
            }
            return labels.getAsJsonObject().size();
        }
        int labels = integer("num_labels", 2);
        if (labels < 0) {
            throw unsupported("num_labels", "must not be negative");
        }
        return labels;
    }

    /**
     * An error about one key's value: the value is well-formed but this library does not
     * implement it, or it is out of range.
     *
     * @param key the key
     * @param reason why, completing "KEY is VALUE, ..."
     * @return the exception, to throw
     */
    public ModelLoadException unsupported(String key, String reason) {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(reason, "reason");
        return new ModelLoadException(source + ": \"" + prefix + key + "\" is " + describe(key) + ", " + reason);
    }

    private ModelLoadException invalid(String key, String expectation) {
        return unsupported(key, "but " + expectation);
    }

    private String describe(String key) {
        JsonElement value = json.get(key);
        return value == null ? "absent" : abbreviate(value);
    }

    private int integerValue(String key, JsonElement value) {
        if (!(value instanceof JsonPrimitive primitive) || !primitive.isNumber()) {
            throw invalid(key, "must be an integer");
        }
        try {
            return new BigDecimal(primitive.getAsString()).intValueExact();
        } catch (ArithmeticException | NumberFormatException e) {
            throw invalid(key, "must be an integer in the int range");
        }
    }

    private static String abbreviate(JsonElement value) {
        String text = value.toString();
        return text.length() > 80 ? text.substring(0, 77) + "..." : text;
    }

    private static String rootMessage(Throwable e) {
        Throwable root = e;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        return root.getMessage();
    }
}
