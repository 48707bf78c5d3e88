package dev.ein4j.conformance;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import dev.ein4j.ir.DType;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * Reads fixture files of format {@code ein4j-conformance/1}. A file or case that cannot be read is
 * reported as an {@link UnreadableCase}, which the runner counts as a failure, never a skip.
 */
final class FixtureReader {

    static final String FORMAT = "ein4j-conformance/1";

    private FixtureReader() {
    }

    /** A case that could not be read, with the reason. */
    record UnreadableCase(String name, String reason) {
    }

    /** What reading some paths produced. */
    record Fixtures(List<ConformanceCase> cases, List<UnreadableCase> unreadable) {
    }

    /**
     * @param paths files or folders (folders are searched for *.json)
     * @return the cases, and what could not be read
     */
    static Fixtures read(List<Path> paths) {
        List<ConformanceCase> cases = new ArrayList<>();
        List<UnreadableCase> unreadable = new ArrayList<>();
        for (Path path : expand(paths, unreadable)) {
            readFile(path, cases, unreadable);
        }
        return new Fixtures(cases, unreadable);
    }

    private static List<Path> expand(List<Path> paths, List<UnreadableCase> unreadable) {
        List<Path> files = new ArrayList<>();
        for (Path path : paths) {
            if (Files.isDirectory(path)) {
                try (Stream<Path> walk = Files.walk(path)) {
                    walk.filter(p -> p.toString().endsWith(".json")).sorted().forEach(files::add);
                } catch (IOException e) {
                    unreadable.add(new UnreadableCase(path.toString(), "cannot list folder: " + e.getMessage()));
                }
            } else if (Files.isRegularFile(path)) {
                files.add(path);
            } else {
                unreadable.add(new UnreadableCase(path.toString(), "no such file or folder"));
            }
        }
        return files;
    }

    private static void readFile(Path path, List<ConformanceCase> cases, List<UnreadableCase> unreadable) {
        String file = path.getFileName().toString();
        JsonObject root;
        try {
            root = JsonParser.parseString(Files.readString(path, StandardCharsets.UTF_8)).getAsJsonObject();
        } catch (IOException | RuntimeException e) {
            unreadable.add(new UnreadableCase(file, "cannot read fixture file: " + e.getMessage()));
            return;
        }
        if (!root.has("format") || !FORMAT.equals(root.get("format").getAsString())) {
            unreadable.add(new UnreadableCase(file, "not a " + FORMAT + " file"));
            return;
        }
        int index = 0;
        for (JsonElement element : root.getAsJsonArray("cases")) {
            String name = "case #" + index++;
            try {
                JsonObject json = element.getAsJsonObject();
                name = json.get("id").getAsString();
                cases.add(readCase(file, json));
            } catch (RuntimeException e) {
                unreadable.add(new UnreadableCase(file + ":" + name, "cannot read case: " + e));
            }
        }
    }

    private static ConformanceCase readCase(String file, JsonObject json) {
        List<TensorData> inputs = tensors(json.getAsJsonArray("inputs"));
        JsonObject expected = json.getAsJsonObject("expected");
        List<TensorData> outputs = expected.has("outputs") ? tensors(expected.getAsJsonArray("outputs")) : null;
        String error = expected.has("error") ? expected.get("error").getAsString() : null;
        if (outputs == null && error == null) {
            throw new IllegalArgumentException("expected has neither outputs nor error");
        }
        DType dtype = defaultToleranceType(outputs, inputs);
        double defaultRtol = dtype == DType.FLOAT32 ? 1e-5 : 1e-12;
        double defaultAtol = dtype == DType.FLOAT32 ? 1e-6 : 1e-12;
        double rtol = number(json, "rtol", defaultRtol);
        double atol = number(json, "atol", defaultAtol);
        List<TensorData> upstream = null;
        List<TensorData> gradients = null;
        if (json.has("grad")) {
            JsonObject grad = json.getAsJsonObject("grad");
            upstream = tensors(grad.getAsJsonArray("upstream"));
            gradients = tensors(grad.getAsJsonArray("inputs"));
        }
        Map<String, Integer> axes = new LinkedHashMap<>();
        if (json.has("axes")) {
            json.getAsJsonObject("axes").entrySet().forEach(e -> axes.put(e.getKey(), e.getValue().getAsInt()));
        }
        String op = json.get("op").getAsString();
        boolean function = "function".equals(op);
        if (function ? !json.has("name") : !json.has("pattern")) {
            throw new IllegalArgumentException(function ? "a function case needs a name" : "a " + op + " case needs a pattern");
        }
        return new ConformanceCase(file, json.get("id").getAsString(), op,
                json.has("syntax") && "numpy".equals(json.get("syntax").getAsString()),
                function ? null : json.get("pattern").getAsString(), function ? json.get("name").getAsString() : null,
                new Params(json.has("params") ? json.getAsJsonObject("params") : new JsonObject()), axes,
                json.has("reduction") ? json.get("reduction").getAsString() : null, inputs,
                json.has("packed_shapes") ? shapes(json.getAsJsonArray("packed_shapes")) : null,
                outputs, expected.has("packed_shapes") ? shapes(expected.getAsJsonArray("packed_shapes")) : null, error,
                upstream, gradients, rtol, atol, number(json, "grad_rtol", rtol), number(json, "grad_atol", atol));
    }

    /** The type whose default tolerances apply: the first floating output (else input); exact for integers. */
    private static DType defaultToleranceType(List<TensorData> outputs, List<TensorData> inputs) {
        for (List<TensorData> tensors : java.util.Arrays.asList(outputs, inputs)) {
            if (tensors != null) {
                for (TensorData tensor : tensors) {
                    if (tensor != null && tensor.dtype().isFloating()) {
                        return tensor.dtype();
                    }
                }
            }
        }
        return DType.FLOAT32;
    }

    private static double number(JsonObject json, String field, double fallback) {
        return json.has(field) ? json.get(field).getAsDouble() : fallback;
    }

    private static List<TensorData> tensors(JsonArray array) {
        List<TensorData> tensors = new ArrayList<>();
        for (JsonElement element : array) {
            tensors.add(element.isJsonNull() ? null : tensor(element.getAsJsonObject()));
        }
        return tensors;
    }

    private static TensorData tensor(JsonObject json) {
        int[] shape = shape(json.getAsJsonArray("shape"));
        DType dtype = DType.fromNumpyName(json.get("dtype").getAsString());
        JsonArray values = json.getAsJsonArray("data");
        double[] data = new double[values.size()];
        for (int i = 0; i < data.length; i++) {
            JsonElement value = values.get(i);
            double x = value.getAsJsonPrimitive().isString() ? special(value.getAsString()) : value.getAsDouble();
            data[i] = dtype.round(x);
        }
        long size = 1;
        for (int length : shape) {
            size *= length;
        }
        if (size != data.length) {
            throw new IllegalArgumentException("tensor of shape " + java.util.Arrays.toString(shape) + " has "
                    + data.length + " data values");
        }
        return new TensorData(shape, dtype, data);
    }

    private static double special(String text) {
        return switch (text) {
            case "nan" -> Double.NaN;
            case "inf" -> Double.POSITIVE_INFINITY;
            case "-inf" -> Double.NEGATIVE_INFINITY;
            default -> throw new IllegalArgumentException("unknown number string '" + text + "'");
        };
    }

    private static List<int[]> shapes(JsonArray array) {
        List<int[]> shapes = new ArrayList<>();
        for (JsonElement element : array) {
            shapes.add(shape(element.getAsJsonArray()));
        }
        return shapes;
    }

    private static int[] shape(JsonArray array) {
        int[] shape = new int[array.size()];
        for (int i = 0; i < shape.length; i++) {
            shape[i] = array.get(i).getAsInt();
        }
        return shape;
    }
}
