package dev.ein4j.nn;

import com.google.gson.JsonArray;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import dev.ein4j.ir.DType;
import dev.ein4j.tensor.Tensor;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;

/** Reads the tensors of the PyTorch module fixtures ({"shape", "dtype", "data"}, as the conformance format). */
public final class FixtureTensors {

    private FixtureTensors() {
    }

    /** @return the parsed resource dev/ein4j/nn/modules.json */
    public static JsonObject modules() {
        return resource("modules.json");
    }

    /**
     * @param name a file in the resource folder dev/ein4j/nn
     * @return its parsed JSON object
     */
    public static JsonObject resource(String name) {
        try (Reader reader = new InputStreamReader(FixtureTensors.class.getResourceAsStream("/dev/ein4j/nn/" + name),
                StandardCharsets.UTF_8)) {
            return JsonParser.parseReader(reader).getAsJsonObject();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public static Tensor tensor(JsonObject json) {
        JsonArray shapeJson = json.getAsJsonArray("shape");
        int[] shape = new int[shapeJson.size()];
        for (int i = 0; i < shape.length; i++) {
            shape[i] = shapeJson.get(i).getAsInt();
        }
        JsonArray data = json.getAsJsonArray("data");
        DType dtype = DType.fromNumpyName(json.get("dtype").getAsString());
        if (dtype == DType.INT32) {
            int[] values = new int[data.size()];
            for (int i = 0; i < values.length; i++) {
                values[i] = data.get(i).getAsInt();
            }
            return Tensor.of(values, shape);
        }
        if (dtype == DType.BOOL) {
            boolean[] values = new boolean[data.size()];
            for (int i = 0; i < values.length; i++) {
                values[i] = data.get(i).getAsInt() != 0;
            }
            return Tensor.of(values, shape);
        }
        double[] values = new double[data.size()];
        for (int i = 0; i < values.length; i++) {
            values[i] = data.get(i).getAsDouble();
        }
        return Tensor.of(values, dtype, shape);
    }

    public static double[] values(JsonObject json) {
        return tensor(json).toDoubleArray();
    }

    public static Map<String, Tensor> state(JsonObject json) {
        Map<String, Tensor> state = new LinkedHashMap<>();
        for (String name : json.keySet()) {
            state.put(name, tensor(json.getAsJsonObject(name)));
        }
        return state;
    }
}
