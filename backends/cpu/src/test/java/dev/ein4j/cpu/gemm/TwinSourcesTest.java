package dev.ein4j.cpu.gemm;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The float sources of the thin products are their double twins with the type's name replaced
 * (Double → Float, double → float): a fix made to one and not the other fails here.
 */
class TwinSourcesTest {

    /** The package's sources, from the module's directory (as Maven runs tests) or the repository's. */
    private static final Path SOURCES = Files.isDirectory(Path.of("src/main/java/dev/ein4j/cpu/gemm"))
            ? Path.of("src/main/java/dev/ein4j/cpu/gemm") : Path.of("backends/cpu/src/main/java/dev/ein4j/cpu/gemm");

    @ParameterizedTest
    @ValueSource(strings = {"DoubleThinKernel", "ScalarDoubleThinKernel", "VectorDoubleThinKernel", "DoubleThinJob"})
    void theFloatTwinIsTheDoubleSourceWithTheTypeReplaced(String doubleName) throws IOException {
        String twin = Files.readString(SOURCES.resolve(doubleName + ".java"));
        String floatName = doubleName.replace("Double", "Float");
        String expected = twin.replace("Double", "Float").replace("double", "float");
        assertThat(Files.readString(SOURCES.resolve(floatName + ".java"))).as(floatName).isEqualTo(expected);
    }
}
