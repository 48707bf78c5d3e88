package dev.ein4j.cpu.gemm;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The float code of the CPU backend is its double code with the type changed (EJML's rule): every
 * source file whose name contains {@code Double} and has a {@code Float} namesake beside it must
 * equal that namesake once {@code double → float}, {@code Double → Float}, {@code DOUBLE → FLOAT}
 * and double literals ({@code 0d}, {@code 1.5d}) → float literals are applied. A fix made to one
 * twin and not the other fails here. Comment lines that say which file is the twin (they contain
 * the word "twin") are the one allowed difference.
 */
class TwinSourcesTest {

    private static final Path SOURCES = Path.of("src/main/java/dev/ein4j/cpu");
    private static final Pattern DOUBLE_LITERAL = Pattern.compile("\\b(\\d+(?:\\.\\d*)?(?:[eE][+-]?\\d+)?)[dD]\\b");
    private static final Pattern TWIN_COMMENT = Pattern.compile("^\\s*(\\*|//).*\\btwin\\b.*$", Pattern.MULTILINE);

    @Test
    void everyFloatTwinIsItsDoubleSourceWithTheTypeChanged() throws IOException {
        assertThat(SOURCES).as("run from the backends/cpu module directory").isDirectory();
        List<Path> doubles = doubleSourcesWithFloatTwins();
        assertThat(doubles).as("the GEMM's job, packing and kernels have twins").hasSizeGreaterThanOrEqualTo(5);
        for (Path doubleSource : doubles) {
            Path floatSource = floatTwin(doubleSource);
            String expected = withoutTwinComments(toFloat(Files.readString(doubleSource)));
            String actual = withoutTwinComments(Files.readString(floatSource));
            assertThat(actual).as("%s is %s with the type changed", floatSource.getFileName(), doubleSource.getFileName())
                    .isEqualTo(expected);
        }
    }

    @Test
    void theTranslationChangesTypesAndLiteralsOnly() {
        assertThat(toFloat("double[] c = new double[n]; DoubleVector v; c[0] = 0d + 1.5d + 2e3d; VALUES_DOUBLE"))
                .isEqualTo("float[] c = new float[n]; FloatVector v; c[0] = 0f + 1.5f + 2e3f; VALUES_FLOAT");
        assertThat(toFloat("int nd = 3; long d = 2L; x.d(); 0x1d")).isEqualTo("int nd = 3; long d = 2L; x.d(); 0x1d");
    }

    @Test
    void aDriftedTwinIsCaught() {
        String doubleSource = "final class DoubleThing {\n    double sum(double a) { return a + 0d; }\n}\n";
        String drifted = "final class FloatThing {\n    float sum(float a) { return a + 1f; }\n}\n";
        assertThat(withoutTwinComments(drifted)).isNotEqualTo(withoutTwinComments(toFloat(doubleSource)));
    }

    private static List<Path> doubleSourcesWithFloatTwins() throws IOException {
        List<Path> found = new ArrayList<>();
        try (Stream<Path> files = Files.walk(SOURCES)) {
            files.filter(file -> file.getFileName().toString().contains("Double"))
                    .filter(file -> file.toString().endsWith(".java"))
                    .filter(file -> Files.exists(floatTwin(file)))
                    .sorted()
                    .forEach(found::add);
        }
        return found;
    }

    private static Path floatTwin(Path doubleSource) {
        return doubleSource.resolveSibling(doubleSource.getFileName().toString().replace("Double", "Float"));
    }

    static String toFloat(String doubleSource) {
        String typed = doubleSource.replace("double", "float").replace("Double", "Float").replace("DOUBLE", "FLOAT");
        // a word boundary before the digits keeps hexadecimal literals such as 0x1d and names as x1d
        return DOUBLE_LITERAL.matcher(typed).replaceAll("$1f");
    }

    private static String withoutTwinComments(String source) {
        return TWIN_COMMENT.matcher(source).replaceAll("");
    }
}
