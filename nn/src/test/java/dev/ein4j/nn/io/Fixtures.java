package dev.ein4j.nn.io;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ein4j.ir.DType;
import dev.ein4j.tensor.Tensor;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * The fixtures of make_fixtures.py: resource files, and expected.json with each array's dtype,
 * shape and values (floats as IEEE bit patterns, so NaNs, infinities and -0.0 compare exactly).
 */
final class Fixtures {

    private static final String ROOT = "/dev/ein4j/nn/io/";
    private static Map<String, Object> expected;

    private Fixtures() {
    }

    /** @return the resource as a file */
    static Path path(String name) {
        URL url = Fixtures.class.getResource(ROOT + name);
        assertThat(url).as("fixture " + name + " (run make_fixtures.py)").isNotNull();
        try {
            return Path.of(url.toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    static synchronized Map<String, Object> expected() {
        if (expected == null) {
            try {
                expected = Json.parseObject("expected.json", Files.readString(path("expected.json"), StandardCharsets.UTF_8));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return expected;
    }

    /** @return the keys of expected.json that start with the prefix, sorted */
    static List<String> keys(String prefix) {
        return List.copyOf(new TreeSet<>(expected().keySet().stream().filter(k -> k.startsWith(prefix)).toList()));
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> entry(String key) {
        Object entry = expected().get(key);
        assertThat(entry).as("expected.json entry " + key).isNotNull();
        return (Map<String, Object>) entry;
    }

    static DType dtype(String key) {
        return DType.fromNumpyName((String) entry(key).get("dtype"));
    }

    static int[] shape(String key) {
        return ((List<?>) entry(key).get("shape")).stream().mapToInt(v -> ((Long) v).intValue()).toArray();
    }

    static long[] values(String key) {
        return ((List<?>) entry(key).get("values")).stream().mapToLong(v -> (Long) v).toArray();
    }

    /** @return the expected array, built without any reader */
    static Tensor tensor(String key) {
        long[] values = values(key);
        int[] shape = shape(key);
        return switch (dtype(key)) {
            case FLOAT32 -> {
                float[] data = new float[values.length];
                for (int i = 0; i < data.length; i++) {
                    data[i] = Float.intBitsToFloat((int) values[i]);
                }
                yield Tensor.of(data, shape);
            }
            case FLOAT64 -> {
                double[] data = new double[values.length];
                for (int i = 0; i < data.length; i++) {
                    data[i] = Double.longBitsToDouble(values[i]);
                }
                yield Tensor.of(data, shape);
            }
            case INT32 -> {
                int[] data = new int[values.length];
                for (int i = 0; i < data.length; i++) {
                    data[i] = Math.toIntExact(values[i]);
                }
                yield Tensor.of(data, shape);
            }
            case BOOL -> {
                boolean[] data = new boolean[values.length];
                for (int i = 0; i < data.length; i++) {
                    data[i] = values[i] != 0;
                }
                yield Tensor.of(data, shape);
            }
        };
    }

    /** Asserts the tensor is exactly the expected array: type, shape and every bit of every value. */
    static void assertMatches(Tensor actual, String key) {
        assertThat(actual.dtype()).as(key + " dtype").isEqualTo(dtype(key));
        assertThat(actual.shape()).as(key + " shape").containsExactly(shape(key));
        assertThat(bits(actual)).as(key + " values").containsExactly(values(key));
    }

    /** @return the values as expected.json writes them: floats as bit patterns, bools as 0/1 */
    static long[] bits(Tensor tensor) {
        return switch (tensor.dtype()) {
            case FLOAT32 -> {
                float[] data = tensor.toFloatArray();
                long[] bits = new long[data.length];
                for (int i = 0; i < data.length; i++) {
                    bits[i] = Float.floatToRawIntBits(data[i]);
                }
                yield bits;
            }
            case FLOAT64 -> java.util.Arrays.stream(tensor.toDoubleArray()).mapToLong(Double::doubleToRawLongBits).toArray();
            case INT32 -> java.util.Arrays.stream(tensor.toIntArray()).asLongStream().toArray();
            case BOOL -> {
                boolean[] data = tensor.toBooleanArray();
                long[] bits = new long[data.length];
                for (int i = 0; i < data.length; i++) {
                    bits[i] = data[i] ? 1 : 0;
                }
                yield bits;
            }
        };
    }
}
