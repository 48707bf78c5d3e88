package dev.ein4j;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilder;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;

/**
 * Architecture rules of the whole repository, checked by scanning sources and poms from the
 * repository root (the parent of this module's directory):
 *
 * <ul>
 *   <li>only dsl-parser imports ANTLR, only backends/opencl imports JOCL, only spark imports Apache Spark;</li>
 *   <li>dependencies between ein4j modules follow grammar → dsl-parser → einops-core → autograd → nn → models → onnx
 *       (a module depends only on modules of lower rank); a backend (backends/*) depends only on
 *       einops-core, dsl-parser and grammar; examples, conformance-tests and benchmarks may depend on
 *       anything; a layer's tests (test scope only) may use a backend, so they run on it too; the javac
 *       plugin's code depends only on dsl-parser and grammar (it checks patterns, it runs no tensors),
 *       its tests on anything (they compile sources that call the whole API); an integration with another
 *       system (spark) depends on the layers, the cpu backend and the examples (its example program trains
 *       their flagship), its tests on anything; every other pom must be classified here before it can be
 *       added.</li>
 * </ul>
 */
class ModuleBoundaryTest {

    private static final String GROUP = "dev.ein4j";
    private static final String PARENT_ARTIFACT = "ein4j-parent";

    /** The layered core, lowest first. */
    private static final List<String> LAYERS = List.of("grammar", "dsl-parser", "einops-core", "autograd", "nn", "models",
            "onnx"); // onnx exports what every layer below builds (its tests run the models)
    /** What a backend may depend on. */
    private static final Set<String> BACKEND_MAY_USE = Set.of("grammar", "dsl-parser", "einops-core");
    /** Modules outside the layering that may depend on anything (directory or artifactId). */
    private static final Set<String> UNRESTRICTED = Set.of("examples", "conformance-tests", "benchmarks");
    /** Build tools (directory or artifactId) and what their code may use; their tests may use anything. */
    private static final Map<String, Set<String>> TOOLS = Map.of("javac-plugin", Set.of("grammar", "dsl-parser"));
    /** Integrations with other systems (directory or artifactId) and what their code may use; their tests may use anything. */
    private static final Map<String, Set<String>> INTEGRATIONS = Map.of("spark",
            Set.of("grammar", "dsl-parser", "einops-core", "autograd", "nn", "models", "cpu-backend", "examples"));

    /** Marks a test-scoped dependency in {@link ModulePom#ein4jDependencies()}. */
    static final String TEST_SCOPE = " [test]";

    private static final Pattern ANTLR_IMPORT = importOf("org.antlr");
    private static final Pattern JOCL_IMPORT = importOf("org.jocl");
    private static final Pattern SPARK_IMPORT = importOf("org.apache.spark");

    private static Path root;
    private static List<Path> javaFiles;
    private static List<ModulePom> poms;

    /** One pom.xml: where it is, what it builds, which ein4j artifacts it declares as dependencies. */
    record ModulePom(String dir, String artifactId, List<String> ein4jDependencies) {
    }

    @BeforeAll
    static void scan() throws IOException {
        root = repositoryRoot();
        try (Stream<Path> files = walk(root)) {
            List<Path> all = files.collect(Collectors.toList());
            javaFiles = all.stream().filter(p -> p.getFileName().toString().endsWith(".java")).collect(Collectors.toList());
            poms = all.stream().filter(p -> p.getFileName().toString().equals("pom.xml"))
                    .map(ModuleBoundaryTest::readPom).collect(Collectors.toList());
        }
    }

    // ------------------------------------------------------------------ the rules

    @Test
    void onlyDslParserImportsAntlr() {
        assertThat(importViolations(ANTLR_IMPORT, "dsl-parser"))
                .as("ANTLR is an implementation detail of dsl-parser; these files import it").isEmpty();
    }

    @Test
    void onlyTheOpenclBackendImportsJocl() {
        assertThat(importViolations(JOCL_IMPORT, "backends/opencl"))
                .as("JOCL belongs to backends/opencl only; these files import it").isEmpty();
    }

    @Test
    void onlyTheSparkModuleImportsSpark() {
        assertThat(importViolations(SPARK_IMPORT, "spark"))
                .as("Apache Spark belongs to the spark module only; these files import it").isEmpty();
    }

    @Test
    void moduleDependenciesFollowTheLayering() {
        assertThat(dependencyViolations(poms)).isEmpty();
    }

    // ------------------------------------------------------------------ the scan is not vacuous

    @Test
    void scanFindsTheRepositoryModulesAndSources() {
        assertThat(root.resolve("pom.xml")).isRegularFile();
        Map<String, String> artifactByDir = poms.stream()
                .collect(Collectors.toMap(ModulePom::dir, ModulePom::artifactId, (a, b) -> a, TreeMap::new));
        assertThat(artifactByDir).containsEntry("", PARENT_ARTIFACT)
                .containsEntry("grammar", "grammar")
                .containsEntry("dsl-parser", "dsl-parser")
                .containsEntry("einops-core", "einops-core");
        assertThat(poms.stream().filter(p -> p.artifactId().equals("einops-core")).findFirst().orElseThrow()
                .ein4jDependencies()).contains("dsl-parser");
        assertThat(javaFiles).anySatisfy(p -> assertThat(relative(p)).isEqualTo(
                "dsl-parser/src/main/java/dev/ein4j/pattern/PatternParser.java"));
        assertThat(javaFiles).anySatisfy(p -> assertThat(relative(p)).isEqualTo(
                "dsl-parser/src/test/java/dev/ein4j/ModuleBoundaryTest.java"));
        assertThat(javaFiles).noneSatisfy(p -> assertThat(relative(p)).contains("/target/"));
        // dsl-parser does import ANTLR, so the pattern matches real imports.
        assertThat(javaFiles).anySatisfy(p -> {
            assertThat(relative(p)).startsWith("dsl-parser/");
            assertThat(ANTLR_IMPORT.matcher(read(p)).find()).isTrue();
        });
    }

    @Test
    void importPatternMatchesImportsOnly() {
        assertThat(ANTLR_IMPORT.matcher("package x;\nimport org.antlr.v4.runtime.Token;\n").find()).isTrue();
        assertThat(ANTLR_IMPORT.matcher("import static org.antlr.v4.runtime.Token.EOF;").find()).isTrue();
        assertThat(ANTLR_IMPORT.matcher("  import   org.antlr.*;").find()).isTrue();
        assertThat(JOCL_IMPORT.matcher("import static org.jocl.CL.*;").find()).isTrue();
        assertThat(JOCL_IMPORT.matcher("import org.jocl.cl_mem;").find()).isTrue();
        assertThat(SPARK_IMPORT.matcher("import org.apache.spark.sql.Dataset;").find()).isTrue();
        assertThat(SPARK_IMPORT.matcher("import org.apache.sparkle.Foo;").find()).isFalse();
        assertThat(ANTLR_IMPORT.matcher("// uses org.antlr for parsing\nString s = \"org.antlr\";").find()).isFalse();
        assertThat(ANTLR_IMPORT.matcher("import org.antlrx.Foo;").find()).isFalse();
        assertThat(JOCL_IMPORT.matcher("import org.joclx.Foo;").find()).isFalse();
    }

    @Test
    void dependencyRulesRejectWhatTheyShould() {
        assertThat(dependencyViolations(List.of(
                pom("grammar", "grammar"),
                pom("dsl-parser", "dsl-parser", "grammar"),
                pom("einops-core", "einops-core", "dsl-parser", "grammar"),
                pom("autograd", "autograd", "einops-core"),
                pom("nn", "nn", "autograd", "einops-core"),
                pom("onnx", "onnx", "einops-core", "nn", "models" + TEST_SCOPE, "cpu-backend" + TEST_SCOPE),
                pom("backends/cpu", "cpu-backend", "einops-core"),
                pom("backends/opencl", "opencl-backend", "einops-core", "dsl-parser"),
                pom("examples", "examples", "nn", "cpu-backend", "opencl-backend"),
                pom("benchmarks", "ein4j-benchmarks", "cpu-backend"),
                pom("conformance-tests", "conformance-tests", "autograd", "opencl-backend")))).isEmpty();

        assertThat(dependencyViolations(List.of(pom("grammar", "grammar", "dsl-parser")))).hasSize(1);
        assertThat(dependencyViolations(List.of(pom("dsl-parser", "dsl-parser", "dsl-parser")))).hasSize(1);
        assertThat(dependencyViolations(List.of(pom("einops-core", "einops-core", "autograd")))).hasSize(1);
        assertThat(dependencyViolations(List.of(pom("einops-core", "einops-core", "cpu-backend")))).hasSize(1);
        assertThat(dependencyViolations(List.of(pom("autograd", "autograd", "einops-core", "cpu-backend" + TEST_SCOPE),
                pom("backends/cpu", "cpu-backend", "einops-core")))).as("tests may run on a backend").isEmpty();
        assertThat(dependencyViolations(List.of(pom("autograd", "autograd", "einops-core", "cpu-backend"),
                pom("backends/cpu", "cpu-backend", "einops-core")))).as("code may not").hasSize(1);
        assertThat(dependencyViolations(List.of(pom("autograd", "autograd", "nn" + TEST_SCOPE))))
                .as("a test scope does not lift the layering for layers").hasSize(1);
        assertThat(dependencyViolations(List.of(pom("nn", "nn", "examples")))).hasSize(1);
        assertThat(dependencyViolations(List.of(pom("models", "models", "onnx")))).as("onnx is above models").hasSize(1);
        assertThat(dependencyViolations(List.of(pom("backends/cpu", "cpu-backend", "autograd")))).hasSize(1);
        assertThat(dependencyViolations(List.of(pom("backends/cpu", "cpu-backend", "opencl-backend")))).hasSize(1);
        assertThat(dependencyViolations(List.of(pom("", PARENT_ARTIFACT, "einops-core")))).hasSize(1);
        assertThat(dependencyViolations(List.of(pom("javac-plugin", "javac-plugin", "dsl-parser", "nn" + TEST_SCOPE))))
                .as("the javac plugin's tests compile against anything").isEmpty();
        assertThat(dependencyViolations(List.of(pom("javac-plugin", "javac-plugin", "einops-core"))))
                .as("its code checks patterns only").singleElement().asString().contains("a tool's code may depend on");
        assertThat(dependencyViolations(List.of(pom("spark", "ein4j-spark", "nn", "cpu-backend", "examples",
                "conformance-tests" + TEST_SCOPE)))).as("an integration uses the layers, a backend and the examples").isEmpty();
        assertThat(dependencyViolations(List.of(pom("spark", "ein4j-spark", "conformance-tests"))))
                .singleElement().asString().contains("an integration's code may depend on");
        assertThat(dependencyViolations(List.of(pom("nn", "nn", "ein4j-spark")))).as("layers never use an integration")
                .hasSize(1);
        assertThat(dependencyViolations(List.of(pom("tools", "tools")))).singleElement().asString()
                .contains("not classified");
    }

    @Test
    void pomReaderIgnoresDependencyManagementAndReadsProfiles(@org.junit.jupiter.api.io.TempDir Path dir)
            throws IOException {
        Path pom = dir.resolve("pom.xml");
        Files.writeString(pom, """
                <?xml version="1.0" encoding="UTF-8"?>
                <project xmlns="http://maven.apache.org/POM/4.0.0">
                  <parent><groupId>dev.ein4j</groupId><artifactId>ein4j-parent</artifactId></parent>
                  <artifactId>autograd</artifactId>
                  <dependencyManagement><dependencies>
                    <dependency><groupId>dev.ein4j</groupId><artifactId>nn</artifactId></dependency>
                  </dependencies></dependencyManagement>
                  <dependencies>
                    <dependency><groupId>dev.ein4j</groupId><artifactId>einops-core</artifactId></dependency>
                    <dependency><groupId>${project.groupId}</groupId><artifactId>dsl-parser</artifactId></dependency>
                    <dependency><groupId>org.antlr</groupId><artifactId>antlr4-runtime</artifactId></dependency>
                  </dependencies>
                  <build><plugins><plugin><dependencies>
                    <dependency><groupId>dev.ein4j</groupId><artifactId>grammar</artifactId></dependency>
                  </dependencies></plugin></plugins></build>
                  <profiles><profile><dependencies>
                    <dependency><groupId>dev.ein4j</groupId><artifactId>nn</artifactId></dependency>
                  </dependencies></profile></profiles>
                </project>
                """, StandardCharsets.UTF_8);
        ModulePom read = readPom(pom, dir);
        assertThat(read.artifactId()).isEqualTo("autograd");
        assertThat(read.ein4jDependencies()).containsExactly("einops-core", "dsl-parser", "nn");
    }

    // ------------------------------------------------------------------ rule engine

    private static List<String> importViolations(Pattern importPattern, String allowedDir) {
        List<String> violations = new ArrayList<>();
        for (Path file : javaFiles) {
            String path = relative(file);
            if (path.startsWith(allowedDir + "/")) {
                continue;
            }
            String source = read(file);
            var matcher = importPattern.matcher(source);
            while (matcher.find()) {
                int line = (int) source.substring(0, matcher.start()).chars().filter(c -> c == '\n').count() + 1;
                violations.add(path + ":" + line + ": " + matcher.group().strip());
            }
        }
        return violations;
    }

    static List<String> dependencyViolations(List<ModulePom> modules) {
        Map<String, String> kindByArtifact = new TreeMap<>();
        for (ModulePom module : modules) {
            kindByArtifact.put(module.artifactId(), kind(module));
        }
        List<String> violations = new ArrayList<>();
        for (ModulePom module : modules) {
            String kind = kind(module);
            String where = (module.dir().isEmpty() ? "pom.xml" : module.dir() + "/pom.xml")
                    + " (" + module.artifactId() + ")";
            if (kind.equals("unclassified")) {
                violations.add(where + " is not classified: add it to ModuleBoundaryTest's layers, backends or"
                        + " unrestricted modules");
                continue;
            }
            for (String declared : module.ein4jDependencies()) {
                boolean testScope = declared.endsWith(TEST_SCOPE);
                String dependency = testScope ? declared.substring(0, declared.length() - TEST_SCOPE.length()) : declared;
                if (testScope && kind.equals("layer") && "backend".equals(kindByArtifact.get(dependency))) {
                    continue; // a layer's tests may run on any backend; its code still sees none
                }
                String reason = switch (kind) {
                    case "unrestricted" -> null;
                    case "tool" -> testScope || toolMayUse(module).contains(dependency) ? null
                            : "a tool's code may depend on " + new java.util.TreeSet<>(toolMayUse(module)) + " only";
                    case "integration" -> testScope || integrationMayUse(module).contains(dependency) ? null
                            : "an integration's code may depend on " + new java.util.TreeSet<>(integrationMayUse(module))
                            + " only";
                    case "parent" -> "the parent pom's dependencies are inherited by every module; declare ein4j"
                            + " artifacts only in dependencyManagement";
                    case "backend" -> BACKEND_MAY_USE.contains(dependency) ? null
                            : "a backend may depend on " + new java.util.TreeSet<>(BACKEND_MAY_USE) + " only";
                    default -> {
                        int own = LAYERS.indexOf(module.artifactId());
                        int theirs = LAYERS.indexOf(dependency);
                        yield theirs >= 0 && theirs < own ? null
                                : "layers go " + String.join(" → ", LAYERS) + "; " + module.artifactId()
                                + " may depend only on " + LAYERS.subList(0, own)
                                + (theirs < 0 ? " (" + dependency + " is " + kindByArtifact.getOrDefault(dependency, "unknown")
                                        + ", not a layer)" : "");
                    }
                };
                if (reason != null) {
                    violations.add(where + " depends on " + dependency + ": " + reason);
                }
            }
        }
        return violations;
    }

    private static String kind(ModulePom module) {
        String dir = module.dir();
        if (dir.isEmpty() || module.artifactId().equals(PARENT_ARTIFACT)) {
            return "parent";
        }
        if (dir.equals("backends") || dir.startsWith("backends/")) {
            return "backend";
        }
        String lastDir = dir.substring(dir.lastIndexOf('/') + 1);
        if (UNRESTRICTED.contains(lastDir) || UNRESTRICTED.contains(module.artifactId())) {
            return "unrestricted";
        }
        if (LAYERS.contains(module.artifactId())) {
            return "layer";
        }
        if (TOOLS.containsKey(lastDir) || TOOLS.containsKey(module.artifactId())) {
            return "tool";
        }
        if (INTEGRATIONS.containsKey(lastDir) || INTEGRATIONS.containsKey(module.artifactId())) {
            return "integration";
        }
        return "unclassified";
    }

    private static Set<String> toolMayUse(ModulePom module) {
        String dir = module.dir();
        return TOOLS.getOrDefault(module.artifactId(), TOOLS.getOrDefault(dir.substring(dir.lastIndexOf('/') + 1), Set.of()));
    }

    private static Set<String> integrationMayUse(ModulePom module) {
        String dir = module.dir();
        return INTEGRATIONS.getOrDefault(module.artifactId(),
                INTEGRATIONS.getOrDefault(dir.substring(dir.lastIndexOf('/') + 1), Set.of()));
    }

    private static ModulePom pom(String dir, String artifactId, String... dependencies) {
        return new ModulePom(dir, artifactId, List.of(dependencies));
    }

    // ------------------------------------------------------------------ scanning

    private static Path repositoryRoot() {
        Path moduleDir = Paths.get("").toAbsolutePath().normalize();
        for (Path candidate : new Path[] {moduleDir.getParent(), moduleDir}) {
            if (candidate != null && Files.isRegularFile(candidate.resolve("pom.xml"))
                    && PARENT_ARTIFACT.equals(readPom(candidate.resolve("pom.xml"), candidate).artifactId())) {
                return candidate;
            }
        }
        throw new AssertionError("cannot find the repository root (a pom.xml with artifactId " + PARENT_ARTIFACT
                + ") at or above " + moduleDir);
    }

    /** Every regular file under the root, skipping build output (target/) and hidden directories. */
    private static Stream<Path> walk(Path start) throws IOException {
        return Files.walk(start)
                .filter(Files::isRegularFile)
                .filter(p -> {
                    Path rel = start.relativize(p);
                    for (int i = 0; i < rel.getNameCount() - 1; i++) {
                        String part = rel.getName(i).toString();
                        if (part.equals("target") || part.startsWith(".") || part.equals("node_modules")) {
                            return false;
                        }
                    }
                    return true;
                });
    }

    private static ModulePom readPom(Path pom) {
        return readPom(pom, root);
    }

    static ModulePom readPom(Path pom, Path base) {
        Document document;
        try (InputStream in = Files.newInputStream(pom)) {
            DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
            factory.setNamespaceAware(false);
            factory.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
            factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
            factory.setExpandEntityReferences(false);
            DocumentBuilder builder = factory.newDocumentBuilder();
            document = builder.parse(in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (Exception e) {
            throw new AssertionError("cannot parse " + pom + ": " + e, e);
        }
        Element project = document.getDocumentElement();
        String artifactId = childText(project, "artifactId");
        String groupId = childText(project, "groupId");
        Element parent = child(project, "parent");
        if (groupId == null && parent != null) {
            groupId = childText(parent, "groupId");
        }
        List<Element> dependencyLists = new ArrayList<>();
        addIfPresent(dependencyLists, child(project, "dependencies"));
        Element profiles = child(project, "profiles");
        if (profiles != null) {
            for (Element profile : children(profiles, "profile")) {
                addIfPresent(dependencyLists, child(profile, "dependencies"));
            }
        }
        List<String> ein4j = new ArrayList<>();
        for (Element dependencies : dependencyLists) {
            for (Element dependency : children(dependencies, "dependency")) {
                String depGroup = childText(dependency, "groupId");
                if (GROUP.equals(depGroup) || "${project.groupId}".equals(depGroup) && GROUP.equals(groupId)
                        || "${project.parent.groupId}".equals(depGroup)) {
                    boolean test = "test".equals(childText(dependency, "scope"));
                    ein4j.add(childText(dependency, "artifactId") + (test ? TEST_SCOPE : ""));
                }
            }
        }
        String dir = base.relativize(pom.getParent()).toString().replace('\\', '/');
        return new ModulePom(dir, artifactId == null ? "?" : artifactId, ein4j);
    }

    private static void addIfPresent(List<Element> list, Element element) {
        if (element != null) {
            list.add(element);
        }
    }

    private static Element child(Element parent, String name) {
        List<Element> found = children(parent, name);
        return found.isEmpty() ? null : found.get(0);
    }

    private static List<Element> children(Element parent, String name) {
        List<Element> found = new ArrayList<>();
        for (Node node = parent.getFirstChild(); node != null; node = node.getNextSibling()) {
            if (node instanceof Element element && localName(element).equals(name)) {
                found.add(element);
            }
        }
        return found;
    }

    private static String localName(Element element) {
        String name = element.getTagName();
        return name.substring(name.indexOf(':') + 1);
    }

    private static String childText(Element parent, String name) {
        Element element = child(parent, name);
        return element == null ? null : element.getTextContent().strip();
    }

    private static Pattern importOf(String packagePrefix) {
        return Pattern.compile("^[ \\t]*import\\s+(?:static\\s+)?" + Pattern.quote(packagePrefix) + "(?![\\w$])[^;]*;",
                Pattern.MULTILINE);
    }

    private static String relative(Path file) {
        return root.relativize(file).toString().replace('\\', '/');
    }

    private static String read(Path file) {
        try {
            return Files.readString(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            try {
                return new String(Files.readAllBytes(file), StandardCharsets.ISO_8859_1);
            } catch (IOException again) {
                throw new UncheckedIOException(again);
            }
        }
    }
}
