package dev.ein4j.javac;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.io.IOException;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.jar.JarFile;
import java.util.stream.Collectors;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The packaged jar as users run it: {@code javac -processorpath ein4j-javac-plugin.jar
 * -Xplugin:Ein4jPatterns}, with nothing else on the processor path (the class path holds the ein4j
 * API the source calls, which javac does not search for plugins once a processor path is given).
 */
class ShadedJarIT {

    private static Path pluginJar() {
        String jar = System.getProperty("ein4j.javac.pluginJar");
        assertThat(jar).as("the failsafe configuration names the jar").isNotNull();
        return Path.of(jar);
    }

    @Test
    void theJarAloneOnTheProcessorPathReportsABadPattern(@TempDir Path dir) throws IOException {
        Path source = dir.resolve("Example.java");
        Files.writeString(source, String.join("\n",
                "import dev.ein4j.tensor.*;",
                "class Example {",
                "    void run(Tensor x) {",
                "        x.rearrange(\"b c -> b c d\");",
                "    }",
                "}", ""));
        // the API's classes, without this module's own, which also register the plugin
        String classPath = Arrays.stream(System.getProperty("java.class.path").split(File.pathSeparator))
                .filter(entry -> !Path.of(entry).toAbsolutePath().startsWith(Path.of("target").toAbsolutePath()))
                .collect(Collectors.joining(File.pathSeparator));
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        StringWriter output = new StringWriter();
        int status = javac.getTask(output, null, null, List.of("-classpath", classPath, "-processorpath",
                pluginJar().toString(), "-Xplugin:Ein4jPatterns", "-d", dir.resolve("classes").toString()), null,
                javac.getStandardFileManager(null, null, null).getJavaFileObjects(source.toFile())).call() ? 0 : 1;
        assertThat(status).isEqualTo(1);
        assertThat(output.toString()).contains("Example.java:4: error: axis 'd' is on the right side but not on the left;"
                + " rearrange keeps every axis")
                .contains("        x.rearrange(\"b c -> b c d\");\n                                ^")
                .doesNotContain("warning");
    }

    @Test
    void theJarCarriesItsParserWithAntlrRelocated() throws IOException {
        try (JarFile jar = new JarFile(pluginJar().toFile())) {
            List<String> entries = jar.stream().map(java.util.zip.ZipEntry::getName).toList();
            assertThat(entries).contains("META-INF/services/com.sun.source.util.Plugin",
                    "dev/ein4j/javac/Ein4jPatternsPlugin.class", "dev/ein4j/pattern/PatternParser.class",
                    "dev/ein4j/javac/internal/antlr/v4/runtime/Parser.class");
            assertThat(entries).noneMatch(name -> name.startsWith("org/antlr/"));
            assertThat(new String(jar.getInputStream(jar.getEntry("META-INF/services/com.sun.source.util.Plugin"))
                    .readAllBytes(), java.nio.charset.StandardCharsets.UTF_8).trim())
                    .isEqualTo(Ein4jPatternsPlugin.class.getName());
        }
    }
}
