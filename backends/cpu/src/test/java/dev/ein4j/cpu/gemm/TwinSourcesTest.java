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

    private static final Path SOURCES = Path.of("src/main/java/dev/ein4j/cpu/gemm");

    @ParameterizedTest
    @ValueSource(strings = {"DoubleThinKernel", "ScalarDoubleThinKernel", "VectorDoubleThinKernel", "DoubleThinJob"})
    void theFloatTwinIsTheDoubleSourceWithTheTypeReplaced(String doubleName) throws IOException {
        String twin = Files.readString(SOURCES.resolve(doubleName + ".java"));
        String floatName = doubleName.replace("Double", "Float");
        String expected = twin.replace("Double", "Float").replace("double", "float");
        assertThat(Files.readString(SOURCES.resolve(floatName + ".java"))).as(floatName).isEqualTo(expected);
    }
}
