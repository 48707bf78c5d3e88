package dev.ein4j.conformance;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;

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

    double number(String name, double fallback) {
        return has(name) ? json.get(name).getAsDouble() : fallback;
    }

    Double optionalNumber(String name) {
        return has(name) ? json.get(name).getAsDouble() : null;
    }

    boolean flag(String name, boolean fallback) {
        return has(name) ? json.get(name).getAsBoolean() : fallback;
    }

    String text(String name, String fallback) {
        return has(name) ? json.get(name).getAsString() : fallback;
    }

    /** @return an int or a list of ints as an array, or null when absent */
    int[] ints(String name) {
        if (!has(name)) {
            return null;
        }
        JsonElement value = json.get(name);
        if (value.isJsonArray()) {
            JsonArray array = value.getAsJsonArray();
            int[] ints = new int[array.size()];
            for (int i = 0; i < ints.length; i++) {
                ints[i] = array.get(i).getAsInt();
            }
            return ints;
        }
        return new int[] {value.getAsInt()};
    }

    /** @return a number or a list of numbers as an array, or null when absent */
    double[] numbers(String name) {
        if (!has(name)) {
            return null;
        }
        JsonElement value = json.get(name);
        if (value.isJsonArray()) {
            JsonArray array = value.getAsJsonArray();
            double[] numbers = new double[array.size()];
            for (int i = 0; i < numbers.length; i++) {
                numbers[i] = array.get(i).getAsDouble();
            }
            return numbers;
        }
        return new double[] {value.getAsDouble()};
    }

    /** @return an int or a list of ints and nulls (PyTorch's None) as an array, or null when absent */
    Integer[] nullableInts(String name) {
        if (!has(name)) {
            return null;
        }
        JsonElement value = json.get(name);
        if (!value.isJsonArray()) {
            return new Integer[] {value.getAsInt()};
        }
        JsonArray array = value.getAsJsonArray();
        Integer[] ints = new Integer[array.size()];
        for (int i = 0; i < ints.length; i++) {
            ints[i] = array.get(i).isJsonNull() ? null : array.get(i).getAsInt();
        }
        return ints;
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
