package dev.ein4j;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The packages of the core form layers with no cycle: the IR knows nothing of kernels or buffers,
 * kernels nothing of backends, backends nothing of graphs or the runtime. Every reference to another
 * ein4j package (imports and fully qualified names) is checked.
 */
class PackageLayeringTest {

    private static final Map<String, Set<String>> ALLOWED = Map.of(
            "ir", Set.of("error"),
            "kernel", Set.of("ir", "error"),
            "backend", Set.of("ir", "kernel", "error"),
            "reference", Set.of("ir", "kernel", "backend", "error"),
            "runtime", Set.of("ir", "kernel", "backend", "error"),
            "lowering", Set.of("ir", "pattern", "cache", "error"),
            "tensor", Set.of("ir", "kernel", "backend", "runtime", "lowering", "pattern", "cache", "error"));

    private static final Pattern REFERENCE = Pattern.compile("\\bdev\\.ein4j\\.([a-z]+)\\.");

    @Test
    void corePackagesDependOnlyOnTheLayersBelowThem() throws IOException {
        Path root = Path.of("src/main/java/dev/ein4j");
        List<String> violations = new ArrayList<>();
        for (Map.Entry<String, Set<String>> layer : ALLOWED.entrySet()) {
            Path folder = root.resolve(layer.getKey());
            assertThat(folder).as("package %s exists", layer.getKey()).isDirectory();
            try (Stream<Path> files = Files.walk(folder)) {
                for (Path file : files.filter(f -> f.toString().endsWith(".java")).toList()) {
                    Matcher matcher = REFERENCE.matcher(Files.readString(file));
                    while (matcher.find()) {
                        String used = matcher.group(1);
                        if (!used.equals(layer.getKey()) && !layer.getValue().contains(used)) {
                            violations.add(root.relativize(file) + " uses dev.ein4j." + used);
                        }
                    }
                }
            }
        }
        assertThat(violations).isEmpty();
    }
}
