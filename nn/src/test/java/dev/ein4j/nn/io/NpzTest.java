package dev.ein4j.nn.io;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ein4j.ir.DType;
import dev.ein4j.tensor.Tensor;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** .npz archives of numpy read back exactly, in archive order; archives written here read in numpy's way. */
class NpzTest {

    private static final List<String> NAMES = List.of("weight", "bias", "labels", "mask", "scalar", "empty", "nested/name");

    @TempDir
    Path dir;

    @ParameterizedTest
    @ValueSource(strings = {"stored", "compressed"})
    void readsWhatNumpyWrote(String kind) {
        Map<String, Tensor> arrays = Npz.read(Fixtures.path("npz/" + kind + ".npz"));
        assertThat(arrays.keySet()).containsExactlyElementsOf(NAMES);
        for (String name : NAMES) {
            Fixtures.assertMatches(arrays.get(name), "npz/" + kind + ".npz#" + name);
        }
    }

    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void writesArchivesOfNumpysNpyBytes(boolean compressed) throws IOException {
        Map<String, Tensor> tensors = new LinkedHashMap<>();
        for (String name : List.of("f4_r3", "i4_r0", "b1_zero", "f8_r4")) {
            tensors.put(name, Fixtures.tensor("npy/" + name + ".npy"));
        }
        Path file = dir.resolve("out.npz");
        Npz.write(file, tensors, compressed);
        try (ZipFile zip = new ZipFile(file.toFile())) {
            List<? extends ZipEntry> entries = zip.stream().toList();
            assertThat(entries).extracting(ZipEntry::getName)
                    .containsExactly("f4_r3.npy", "i4_r0.npy", "b1_zero.npy", "f8_r4.npy");
            for (ZipEntry entry : entries) {
                assertThat(entry.getMethod()).isEqualTo(compressed ? ZipEntry.DEFLATED : ZipEntry.STORED);
                try (InputStream in = zip.getInputStream(entry)) {
                    assertThat(in.readAllBytes()).as(entry.getName())
                            .isEqualTo(Files.readAllBytes(Fixtures.path("npy/" + entry.getName())));
                }
            }
        }
        Map<String, Tensor> back = Npz.read(file);
        assertThat(back.keySet()).containsExactlyElementsOf(tensors.keySet());
        for (String name : tensors.keySet()) {
            Fixtures.assertMatches(back.get(name), "npy/" + name + ".npy");
        }
    }

    @Test
    void anEmptyMapIsAnEmptyArchive() {
        Path file = dir.resolve("empty.npz");
        Npz.write(file, Map.of());
        assertThat(Npz.read(file)).isEmpty();
    }

    @Test
    void theDefaultWriteStores() throws IOException {
        Path file = dir.resolve("default.npz");
        Npz.write(file, Map.of("x", Tensor.arange(DType.FLOAT32, 10)));
        try (ZipFile zip = new ZipFile(file.toFile())) {
            assertThat(zip.getEntry("x.npy").getMethod()).isEqualTo(ZipEntry.STORED);
        }
        assertThat(Npz.read(file).get("x").toFloatArray()).containsExactly(0, 1, 2, 3, 4, 5, 6, 7, 8, 9);
    }
}
