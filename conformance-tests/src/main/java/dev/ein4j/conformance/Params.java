package dev.ein4j.conformance;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import java.util.List;

/** A function case's keyword arguments, read with PyTorch's defaults where a case leaves them out. */
final class Params {

    private final JsonObject json;

    Params(JsonObject json) {
        this.json = json;
    }

    boolean has(String name) {
        return json.has(name) && !json.get(name).isJsonNull();
    }

    boolean isText(String name) {
        return has(name) && json.get(name).isJsonPrimitive() && json.get(name).getAsJsonPrimitive().isString();
    }

    /** @return whether the parameter is given as a list (PyTorch tells an int from a list of one) */
    boolean isList(String name) {
        return has(name) && json.get(name).isJsonArray();
    }

    /** @return a number, or the format's strings "inf", "-inf" and "nan" for those values */
    double number(String name, double fallback) {
        return has(name) ? decode(name, json.get(name)) : fallback;
    }

    Double optionalNumber(String name) {
        return has(name) ? decode(name, json.get(name)) : null;
    }

    private static double decode(String name, JsonElement value) {
        if (!value.isJsonPrimitive() || !value.getAsJsonPrimitive().isString()) {
            return value.getAsDouble();
        }
        return switch (value.getAsString()) {
            case "inf" -> Double.POSITIVE_INFINITY;
            case "-inf" -> Double.NEGATIVE_INFINITY;
            case "nan" -> Double.NaN;
            default -> throw new IllegalArgumentException("parameter " + name + ": '" + value.getAsString()
                    + "' is not a number (nor inf, -inf or nan)");
        };
    }

    boolean flag(String name, boolean fallback) {
        return has(name) ? json.get(name).getAsBoolean() : fallback;
    }

    String text(String name, String fallback) {
        return has(name) ? json.get(name).getAsString() : fallback;
    }

    /** @return an int or a list of ints as an array, or null when absent */
    int[] ints(String name) {
        List<JsonElement> values = elements(name);
        return values == null ? null : values.stream().mapToInt(JsonElement::getAsInt).toArray();
    }

    /** @return a number or a list of numbers as an array, or null when absent */
    double[] numbers(String name) {
        List<JsonElement> values = elements(name);
        return values == null ? null : values.stream().mapToDouble(JsonElement::getAsDouble).toArray();
    }

    /** @return an int or a list of ints and nulls (PyTorch's None) as an array, or null when absent */
    Integer[] nullableInts(String name) {
        List<JsonElement> values = elements(name);
        return values == null ? null
                : values.stream().map(value -> value.isJsonNull() ? null : value.getAsInt()).toArray(Integer[]::new);
    }

    /** @return a list's entries, or a single value as a list of one, or null when absent */
    private List<JsonElement> elements(String name) {
        if (!has(name)) {
            return null;
        }
        JsonElement value = json.get(name);
        return value.isJsonArray() ? value.getAsJsonArray().asList() : List.of(value);
    }

    /** @return an int, or a list's entries repeated to {@code count} (PyTorch's int-or-tuple arguments) */
    int[] pair(String name, int count, int fallback) {
        int[] values = ints(name);
        int[] result = new int[count];
        for (int i = 0; i < count; i++) {
            result[i] = values == null ? fallback : values[values.length == 1 ? 0 : i];
        }
        return result;
    }

    int integer(String name, int fallback) {
        return has(name) ? json.get(name).getAsInt() : fallback;
    }

    @Override
    public String toString() {
        return json.toString();
    }
}
