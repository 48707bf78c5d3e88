package dev.ein4j.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ein4j.backend.Backends;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicContainer;
import org.junit.jupiter.api.DynamicNode;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/** Every fixture case, with gradients, as its own test on every backend on the class path. */
class ConformanceTest {

    static final Path FIXTURES = Path.of("fixtures");

    @Test
    void fixturesAreReadableAndPlentiful() {
        FixtureReader.Fixtures fixtures = FixtureReader.read(List.of(FIXTURES));
        assertThat(fixtures.unreadable()).isEmpty();
        assertThat(fixtures.cases()).hasSizeGreaterThanOrEqualTo(400);
        assertThat(fixtures.cases().stream().filter(c -> c.expectedError() != null)).hasSizeGreaterThanOrEqualTo(100);
        assertThat(fixtures.cases().stream().filter(c -> c.expectedGradients() != null)).hasSizeGreaterThanOrEqualTo(300);
    }

    @TestFactory
    Stream<DynamicNode> everyCaseOnEveryBackend() throws Exception {
        FixtureReader.Fixtures fixtures = FixtureReader.read(List.of(FIXTURES));
        CaseRunner runner = new CaseRunner(true);
        List<DynamicNode> backends = new ArrayList<>();
        for (String backend : Backends.available()) {
            List<DynamicNode> files = new ArrayList<>();
            try (Stream<Path> paths = Files.list(FIXTURES)) {
                for (Path file : paths.filter(p -> p.toString().endsWith(".json")).sorted().toList()) {
                    String name = file.getFileName().toString();
                    List<DynamicTest> cases = fixtures.cases().stream().filter(c -> c.file().equals(name))
                            .map(c -> DynamicTest.dynamicTest(c.id(), () -> {
                                Optional<String> failure = runner.run(c, backend);
                                assertThat(failure).as(c.name() + " on " + backend).isEmpty();
                            })).toList();
                    files.add(DynamicContainer.dynamicContainer(name, cases));
                }
            }
            backends.add(DynamicContainer.dynamicContainer(backend, files));
        }
        return backends.stream();
    }
}
