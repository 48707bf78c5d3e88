package dev.ein4j.models;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParseException;
import com.google.gson.JsonParser;
import dev.ein4j.nn.io.SafeTensors;
import dev.ein4j.tensor.Tensor;
import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Objects;

/**
 * The weights of a model folder, as {@code save_pretrained} writes them: one
 * {@code model.safetensors}, or shards listed by {@code model.safetensors.index.json}, whose
 * {@code weight_map} names the shard of every tensor. Half-precision tensors (F16, BF16) arrive
 * widened to float32 and int64 ones narrowed to int32 (see {@link SafeTensors}).
 *
 * <pre>{@code
 * Checkpoint weights = Checkpoint.read(Path.of("models/llama"));
 * Tensor embedding = weights.tensors().get("model.embed_tokens.weight");
 * }</pre>
 */
public final class Checkpoint {

    /** The single-file weights. */
    public static final String WEIGHTS = "model.safetensors";
    /** The index of sharded weights. */
    public static final String INDEX = "model.safetensors.index.json";

    private final String source;
    private final Map<String, Tensor> tensors;

    private Checkpoint(String source, Map<String, Tensor> tensors) {
        this.source = source;
        this.tensors = tensors;
    }

    /**
     * @param directory a model folder
     * @return its weights
     * @throws ModelLoadException if the folder holds neither weights file, the index is malformed or
     *     names a shard that is missing or does not hold what the index says
     * @throws dev.ein4j.nn.io.TensorFormatException if a safetensors file is malformed
     */
    public static Checkpoint read(Path directory) {
        Objects.requireNonNull(directory, "directory");
        Path single = directory.resolve(WEIGHTS);
        if (Files.isRegularFile(single)) {
            return new Checkpoint(single.toString(), readShard(single));
        }
        Path index = directory.resolve(INDEX);
        if (Files.isRegularFile(index)) {
            return readSharded(directory, index);
        }
        String hint = Files.exists(directory.resolve("pytorch_model.bin"))
                ? " (pytorch_model.bin is a pickle, which is not read: save with safe_serialization=True)" : "";
        throw new ModelLoadException(directory + ": holds neither " + WEIGHTS + " nor " + INDEX + hint);
    }

    /** @return the file (or the index of shards) the weights came from, for messages */
    public String source() {
        return source;
    }

    /** @return the tensors by name, in file order (read-only) */
    public Map<String, Tensor> tensors() {
        return Collections.unmodifiableMap(tensors);
    }

    private static Checkpoint readSharded(Path directory, Path index) {
        Map<String, String> shardOf = weightMap(index);
        Map<String, Tensor> tensors = new LinkedHashMap<>();
        for (String shard : new LinkedHashSet<>(shardOf.values())) {
            Path file = directory.resolve(shard);
            if (!Files.isRegularFile(file)) {
                throw new ModelLoadException(index + ": shard \"" + shard + "\" is not in " + directory);
            }
            for (Map.Entry<String, Tensor> entry : readShard(file).entrySet()) {
                String name = entry.getKey();
                if (!shard.equals(shardOf.get(name))) {
                    throw new ModelLoadException(file + ": holds tensor '" + name + "', which " + index.getFileName()
                            + (shardOf.containsKey(name) ? " places in " + shardOf.get(name) : " does not list"));
                }
                tensors.put(name, entry.getValue());
            }
        }
        for (Map.Entry<String, String> entry : shardOf.entrySet()) {
            if (!tensors.containsKey(entry.getKey())) {
                throw new ModelLoadException(index + ": lists tensor '" + entry.getKey() + "' in " + entry.getValue()
                        + ", which does not hold it");
            }
        }
        return new Checkpoint(index.toString(), tensors);
    }

    /** The index's tensor-to-shard map; shard names must be plain file names in the folder. */
    private static Map<String, String> weightMap(Path index) {
        JsonElement root;
        try (Reader reader = Files.newBufferedReader(index, StandardCharsets.UTF_8)) {
            root = JsonParser.parseReader(reader);
        } catch (IOException e) {
            throw new ModelLoadException(index + ": cannot be read: " + e.getMessage(), e);
        } catch (JsonParseException e) {
            throw new ModelLoadException(index + ": not valid JSON", e);
        }
        JsonElement map = root.isJsonObject() ? root.getAsJsonObject().get("weight_map") : null;
        if (map == null || !map.isJsonObject()) {
            throw new ModelLoadException(index + ": needs a \"weight_map\" object from tensor name to shard file");
        }
        Map<String, String> shardOf = new LinkedHashMap<>();
        for (Map.Entry<String, JsonElement> entry : ((JsonObject) map).entrySet()) {
            JsonElement value = entry.getValue();
            if (!value.isJsonPrimitive() || !value.getAsJsonPrimitive().isString()) {
                throw new ModelLoadException(index + ": weight_map[\"" + entry.getKey() + "\"] must be a file name, found " + value);
            }
            String shard = value.getAsString();
            if (shard.isEmpty() || shard.contains("/") || shard.contains("\\") || shard.equals("..") || shard.equals(".")) {
                throw new ModelLoadException(index + ": weight_map[\"" + entry.getKey() + "\"] is \"" + shard
                        + "\", which is not a file name in the model folder");
            }
            shardOf.put(entry.getKey(), shard);
        }
        return shardOf;
    }

    private static Map<String, Tensor> readShard(Path file) {
        try {
            return SafeTensors.read(file);
        } catch (UncheckedIOException e) {
            throw new ModelLoadException(file + ": cannot be read: " + e.getCause().getMessage(), e);
        }
    }
}
