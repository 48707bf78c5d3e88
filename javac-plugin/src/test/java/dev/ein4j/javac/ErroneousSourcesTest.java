package dev.ein4j.javac;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.testing.compile.Compilation;
import com.google.testing.compile.Compiler;
import com.google.testing.compile.JavaFileObjects;
import java.util.List;
import java.util.Locale;
import javax.tools.Diagnostic;
import org.junit.jupiter.api.Test;

/**
 * Code that does not compile for reasons of its own: javac's errors stand as they are, the plugin
 * still checks the calls it can resolve, and it never fails or warns about what it cannot.
 */
class ErroneousSourcesTest {

    @Test
    void typeErrorsBesideABadPatternAreAllReported() {
        Compilation compilation = compile(
                "    void run(Tensor x) {",
                "        x.rearrange(\"b c -> b c d\");",
                "        undefinedMethod();",
                "        x.rearrange(undefinedVariable);",
                "        x.rearrange(42);",
                "        Missing.rearrange(\"b c -> b c d\");",
                "        x.nothingLikeThis(\"b c -> b c d\");",
                "    }");
        List<String> errors = compilation.diagnostics().stream()
                .filter(d -> d.getKind() == Diagnostic.Kind.ERROR)
                .map(d -> d.getLineNumber() + ": " + d.getMessage(Locale.ROOT).lines().findFirst().orElse("")).toList();
        assertThat(errors).contains("5: axis 'd' is on the right side but not on the left; rearrange keeps every axis");
        assertThat(errors).filteredOn(e -> e.startsWith("5: ")).hasSize(1);
        assertThat(errors).filteredOn(e -> e.contains("cannot find symbol")).hasSizeGreaterThanOrEqualTo(3);
        assertThat(compilation.diagnostics()).noneMatch(d -> d.getKind() == Diagnostic.Kind.WARNING);
    }

    @Test
    void aClassThatDoesNotParseIsLeftToJavac() {
        Compilation compilation = compile("    void run(Tensor x) { x.rearrange(\"b c -> b c d\") }");
        assertThat(compilation.status()).isEqualTo(Compilation.Status.FAILURE);
        assertThat(compilation.diagnostics()).noneMatch(d -> d.getKind() == Diagnostic.Kind.WARNING);
        assertThat(compilation.diagnostics()).noneMatch(d -> d.getMessage(Locale.ROOT).contains(Ein4jPatternsPlugin.NAME));
    }

    @Test
    void everyTopLevelClassOfAUnitIsCheckedOnce() {
        Compilation compilation = Compiler.javac().withOptions("-Xplugin:" + Ein4jPatternsPlugin.NAME)
                .compile(JavaFileObjects.forSourceLines("example.Example",
                        "package example;",
                        "import dev.ein4j.tensor.*;",
                        "class Example { void run(Tensor x) { x.rearrange(\"a -> b\"); } }",
                        "class Second { void run(Tensor x) { x.rearrange(\"c -> d\"); class Local {"
                                + " void f(Tensor y) { y.rearrange(\"e -> f\"); } } } }"));
        assertThat(compilation.errors()).extracting(d -> d.getLineNumber() + ":" + d.getMessage(Locale.ROOT))
                .containsExactlyInAnyOrder(
                        "3:axis 'b' is on the right side but not on the left; rearrange keeps every axis",
                        "4:axis 'd' is on the right side but not on the left; rearrange keeps every axis",
                        "4:axis 'f' is on the right side but not on the left; rearrange keeps every axis");
    }

    private static Compilation compile(String... body) {
        String[] lines = new String[body.length + 4];
        lines[0] = "package example;";
        lines[1] = "import dev.ein4j.tensor.*;";
        lines[2] = "class Example {";
        System.arraycopy(body, 0, lines, 3, body.length);
        lines[lines.length - 1] = "}";
        return Compiler.javac().withOptions("-Xplugin:" + Ein4jPatternsPlugin.NAME)
                .compile(JavaFileObjects.forSourceLines("example.Example", lines));
    }
}
