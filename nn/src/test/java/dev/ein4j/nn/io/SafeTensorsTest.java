package dev.ein4j.nn.io;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ein4j.error.EinopsException;
import dev.ein4j.ir.DType;
import dev.ein4j.tensor.Tensor;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** safetensors files written the reference way read back exactly; files written here read back the same. */
class SafeTensorsTest {

    @TempDir
    Path dir;

    @Test
    void readsEveryTypeInHeaderOrder() {
        Map<String, Tensor> tensors = SafeTensors.read(Fixtures.path("st/all.safetensors"));
        List<String> keys = Fixtures.keys("st/all.safetensors#").stream()
                .map(k -> k.substring(k.indexOf('#') + 1)).filter(k -> !k.equals("__metadata__")).toList();
        assertThat(tensors.keySet()).containsExactlyInAnyOrderElementsOf(keys);
        assertThat(tensors.keySet()).startsWith("f64_2d", "i64_1d", "u64_1d", "f32_2d");
        for (String name : keys) {
            Fixtures.assertMatches(tensors.get(name), "st/all.safetensors#" + name);
        }
    }

    @Test
    void readsMetadata() {
        assertThat(SafeTensors.readMetadata(Fixtures.path("st/all.safetensors")))
                .isEqualTo(Fixtures.expected().get("st/all.safetensors#__metadata__"))
                .containsEntry("note", "ünïcode ✓");
        assertThat(SafeTensors.readMetadata(Fixtures.path("st/plain.safetensors"))).isEmpty();
    }

    @Test
    void readsUnpaddedHeadersEscapedNamesAndEmptyFiles() {
        String name = "a \"quoted\"\\name";
        Map<String, Tensor> plain = SafeTensors.read(Fixtures.path("st/plain.safetensors"));
        assertThat(plain.keySet()).containsExactly(name);
        Fixtures.assertMatches(plain.get(name), "st/plain.safetensors#" + name);
        assertThat(SafeTensors.read(Fixtures.path("st/empty.safetensors"))).isEmpty();
    }

    @Test
    void writesInNameOrderWithMetadataFirstAndAPaddedHeader() throws IOException {
        Map<String, Tensor> tensors = new LinkedHashMap<>();
        tensors.put("z.bias", Tensor.of(new float[] {1, 2}));
        tensors.put("a.weight", Tensor.of(new double[] {0.5, -0.0, Double.NaN, 3}, 2, 2));
        tensors.put("m.mask", Tensor.of(new boolean[] {true, false, true}));
        tensors.put("m.count", Tensor.scalar(-3, DType.INT32));
        tensors.put("e.empty", Tensor.zeros(DType.FLOAT32, 0, 4));
        Path file = dir.resolve("out.safetensors");
        SafeTensors.write(file, tensors, Map.of("format", "pt"));

        byte[] bytes = Files.readAllBytes(file);
        long length = ByteBuffer.wrap(bytes, 0, 8).order(ByteOrder.LITTLE_ENDIAN).getLong();
        String header = new String(bytes, 8, (int) length, StandardCharsets.UTF_8);
        assertThat(length % 8).isZero();
        assertThat(header.stripTrailing()).isEqualTo("{\"__metadata__\":{\"format\":\"pt\"},"
                + "\"a.weight\":{\"dtype\":\"F64\",\"shape\":[2,2],\"data_offsets\":[0,32]},"
                + "\"e.empty\":{\"dtype\":\"F32\",\"shape\":[0,4],\"data_offsets\":[32,32]},"
                + "\"m.count\":{\"dtype\":\"I32\",\"shape\":[],\"data_offsets\":[32,36]},"
                + "\"m.mask\":{\"dtype\":\"BOOL\",\"shape\":[3],\"data_offsets\":[36,39]},"
                + "\"z.bias\":{\"dtype\":\"F32\",\"shape\":[2],\"data_offsets\":[39,47]}}");
        assertThat(bytes).hasSize(8 + (int) length + 47);

        Map<String, Tensor> back = SafeTensors.read(file);
        assertThat(back.keySet()).containsExactly("a.weight", "e.empty", "m.count", "m.mask", "z.bias");
        for (Map.Entry<String, Tensor> entry : tensors.entrySet()) {
            Tensor actual = back.get(entry.getKey());
            assertThat(actual.dtype()).isEqualTo(entry.getValue().dtype());
            assertThat(actual.shape()).isEqualTo(entry.getValue().shape());
            assertThat(Fixtures.bits(actual)).isEqualTo(Fixtures.bits(entry.getValue()));
        }
        assertThat(SafeTensors.readMetadata(file)).containsExactly(Map.entry("format", "pt"));
    }

    @Test
    void everyFixtureRoundTripsThroughTheWriter() {
        Map<String, Tensor> original = SafeTensors.read(Fixtures.path("st/all.safetensors"));
        Path file = dir.resolve("again.safetensors");
        SafeTensors.write(file, original, SafeTensors.readMetadata(Fixtures.path("st/all.safetensors")));
        Map<String, Tensor> back = SafeTensors.read(file);
        for (String name : original.keySet()) {
            Fixtures.assertMatches(back.get(name), "st/all.safetensors#" + name);
        }
        assertThat(SafeTensors.readMetadata(file)).containsEntry("note", "ünïcode ✓");
    }

    @Test
    void namesAndMetadataNeedingEscapesRoundTrip() {
        Map<String, Tensor> tensors = Map.of("tab\there \"q\" \\ \u0001 ∑ 𝄞", Tensor.of(new int[] {1}));
        Path file = dir.resolve("escapes.safetensors");
        SafeTensors.write(file, tensors, Map.of("line\nbreak", "\u0000 \u001f \u2028"));
        assertThat(SafeTensors.read(file).keySet()).containsExactly("tab\there \"q\" \\ \u0001 ∑ 𝄞");
        assertThat(SafeTensors.readMetadata(file)).containsExactly(Map.entry("line\nbreak", "\u0000 \u001f \u2028"));
    }

    @Test
    void rejectsNamesItCannotWrite() {
        Path file = dir.resolve("bad.safetensors");
        assertThatThrownBy(() -> SafeTensors.write(file, Map.of("__metadata__", Tensor.of(new int[] {1}))))
                .isInstanceOf(EinopsException.class).hasMessageContaining("reserved");
        assertThatThrownBy(() -> SafeTensors.write(file, Map.of("bad\ud800", Tensor.of(new int[] {1}))))
                .isInstanceOf(EinopsException.class).hasMessageContaining("unpaired surrogate");
        Map<String, Tensor> withNull = new LinkedHashMap<>();
        withNull.put("x", null);
        assertThatThrownBy(() -> SafeTensors.write(file, withNull))
                .isInstanceOf(NullPointerException.class).hasMessageStartingWith("tensors");
    }
}
