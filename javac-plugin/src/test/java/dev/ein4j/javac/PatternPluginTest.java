package dev.ein4j.javac;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.testing.compile.Compilation;
import com.google.testing.compile.Compiler;
import com.google.testing.compile.JavaFileObjects;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;
import javax.tools.Diagnostic;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Sources compiled with {@code -Xplugin:Ein4jPatterns} against the real API, and every diagnostic
 * javac reports compared with the expected ones: kind, line, column and message, nothing more and
 * nothing less. A row writes its expected position as a marker, the source text with a {@code |}
 * before the character the caret must stand under; the marker occurs once in the source, so its
 * line and column are read from the source, not written down by hand.
 */
class PatternPluginTest {

    /** One expected diagnostic. */
    record Expected(Diagnostic.Kind kind, String marker, String message) {
    }

    /**
     * @param name what the row shows
     * @param members lines inside the class, before the method (constants, nested classes)
     * @param statement the method's body, one line
     * @param expected every diagnostic javac must report, none for a source that compiles cleanly
     */
    record Row(String name, List<String> members, String statement, List<Expected> expected) {
        @Override
        public String toString() {
            return name;
        }
    }

    private static Row row(String name, String statement, Expected... expected) {
        return new Row(name, List.of(), statement, List.of(expected));
    }

    private static Row row(String name, List<String> members, String statement, Expected... expected) {
        return new Row(name, members, statement, List.of(expected));
    }

    private static Expected error(String marker, String message) {
        return new Expected(Diagnostic.Kind.ERROR, marker, message);
    }

    private static final String REARRANGE_ADDS_D = "axis 'd' is on the right side but not on the left; rearrange keeps every axis";

    static Stream<Row> rows() {
        return Stream.of(
                // ---- every pattern method of Tensor, each overload
                row("Tensor.rearrange(String)", "x.rearrange(\"b c -> b c d\");",
                        error("\"b c -> b c |d\"", REARRANGE_ADDS_D)),
                row("Tensor.rearrange(String, Axes)", "x.rearrange(\"b (h p) -> b h q\", Axes.of(\"p\", 2));",
                        error("b h |q\"", "axis 'q' is on the right side but not on the left; rearrange keeps every axis")),
                row("Tensor.reduce(String, Reduction)", "x.reduce(\"b c -> b c d\", Reduction.SUM);",
                        error("b c |d\"", "axis 'd' is on the right side but not on the left; reduce cannot add axes (use repeat)")),
                row("Tensor.reduce(String, Reduction, Axes)", "x.reduce(\"b (h p) -> b p p\", Reduction.MAX, Axes.of(\"p\", 2));",
                        error("b p |p\"", "axis 'p' appears twice in the right side")),
                row("Tensor.reduce(String, String)", "x.reduce(\"b c -> b (c\", \"sum\");",
                        error("b |(c\"", "unbalanced parenthesis: '(' at column 10 is never closed")),
                row("Tensor.reduce(String, String, Axes)", "x.reduce(\"b (h 2) -> b 2\", \"max\", Axes.none());",
                        error("-> b |2\"", "reduce allows anonymous axes only on the left side, found '2'")),
                row("Tensor.repeat(String)", "x.repeat(\"b (h + k) -> b h k\");",
                        error("b |(h + k)", "a window (h + k) is not allowed on repeat; windows are read from inputs")),
                row("Tensor.repeat(String, Axes)", "x.repeat(\"b c -> b\", Axes.none());",
                        error("\"b |c -> b\"", "axis 'c' is on the left side but not on the right; repeat cannot drop axes (use reduce)")),
                row("Tensor.parseShape(String)", "x.parseShape(\"b (h w)\");",
                        error("b |(h w)", "a parse_shape pattern has only names, '_', lengths and '...', not '(h w)'")),
                row("Tensor.checkShape(String)", "x.checkShape(\"b (h + k)\");",
                        error("b |(h + k)", "a check_shape pattern has only names, '_', lengths, compositions and '...', not '(h + k)'")),
                row("Tensor.checkShape(String, Axes)", "x.checkShape(\"b (h w) b\", Axes.of(\"h\", 2));",
                        error("(h w) |b\"", "axis 'b' appears twice in a check_shape pattern")),
                // ---- Ein's static forms
                row("Ein.einsum(String, Tensor...)", "Ein.einsum(\"b i d, b j d -> b i k\", x, x);",
                        error("-> b i |k\"", "output axis 'k' appears in no input")),
                row("Ein.einsum(String, Axes, Tensor...)", "Ein.einsum(\"b (2*h + 3*h) -> b h\", Axes.of(\"h\", 2), x);",
                        error("2*h + |3*h)", "window (2*h + 3*h) names axis 'h' twice: its position and its kernel are two different axes")),
                row("Ein.einsumNumpy", "Ein.einsumNumpy(\"ij,j2->i\", x, x);",
                        error("j|2->", "numpy-notation subscripts are single letters, '2' is not a letter")),
                row("Ein.pack", "Ein.pack(\"b c\", x, x);",
                        error("Ein.pack(\"|b c\"", "a pack pattern needs exactly one '*' marking the packed axes")),
                row("Ein.unpack", "Ein.unpack(x, List.of(new int[] {2}), \"b * *\");",
                        error("\"b * |*\"", "a second '*': an unpack pattern has exactly one")),
                row("Ein.parseShape", "Ein.parseShape(x, \"b _ b\");",
                        error("_ |b\"", "axis 'b' appears twice in a parse_shape pattern")),
                row("Ein.explainRearrange", "Ein.explainRearrange(\"a -> b\", Axes.none(), 2);",
                        error("-> |b\"", "axis 'b' is on the right side but not on the left; rearrange keeps every axis")),
                row("Ein.explainReduce", "Ein.explainReduce(\"a b -> a c\", Reduction.SUM, Axes.none(), 2, 3);",
                        error("-> a |c\"", "axis 'c' is on the right side but not on the left; reduce cannot add axes (use repeat)")),
                row("Ein.explainRepeat", "Ein.explainRepeat(\"a ... ... -> a\", Axes.none(), 2);",
                        error("a ... |... ->", "a second ellipsis '...' in the left side: each operand may have one")),
                row("Ein.explainEinsum", "Ein.explainEinsum(\"i j, j k\", new int[] {2, 3}, new int[] {3, 4});",
                        error("j k|\", new", "missing '->': an einsum pattern has the form 'input, input, ... -> output'")),
                row("Ein.explainEinsumNumpy", "Ein.explainEinsumNumpy(\"ij->ii\", new int[] {2, 3});",
                        error("ij->i|i\"", "axis 'i' appears twice in the output")),
                // ---- the pattern layers
                row("new Rearrange(String)", "new Rearrange(\"b c (h -> b c h\");",
                        error("\"b c |(h ->", "unbalanced parenthesis: '(' at column 5 is never closed")),
                row("new Rearrange(String, Axes)", "new Rearrange(\"b (h 2) -> b h\", Axes.none());",
                        error("(h |2) -> b h", "rearrange allows no anonymous axes except 1, found '2'")),
                row("new Reduce(String, Reduction)", "new Reduce(\"b c h w -> b c e\", Reduction.MEAN);",
                        error("-> b c |e\"", "axis 'e' is on the right side but not on the left; reduce cannot add axes (use repeat)")),
                row("new Reduce(String, Reduction, Axes)", "new Reduce(\"b c # -> b c\", Reduction.MAX, Axes.none());",
                        error("b c |#", "unexpected character '#'")),
                row("new EinMix: an output axis in neither input nor weight",
                        "new EinMix(\"b t c -> b t k\", \"c c_out\", Axes.of(\"c\", 2, \"c_out\", 3));",
                        error("-> b t |k\"", "output axis 'k' appears in no input")),
                row("new EinMix: a malformed weight shape, at the weight's column",
                        "new EinMix(\"b c -> b d\", \" c (d\", \"d\", Axes.of(\"c\", 2, \"d\", 3));",
                        error("\" c |(d\"", "unbalanced parenthesis: '(' at column 8 is never closed")),
                row("new EinMix: a bias over an axis the output lacks",
                        "new EinMix(\"b c -> b d\", \"c d\", \"c\", Axes.of(\"c\", 2, \"d\", 3), new Generator(1));",
                        error("\"c d\", |\"c\"", "EinMix: bias axes [c] must be output axes [b, d]")),
                row("new EinMix: an ellipsis", "new EinMix(\"... c -> ... d\", \"c d\", Axes.of(\"c\", 2, \"d\", 3));",
                        error("new EinMix(|\"... c", "EinMix needs a pattern 'left -> right' without ellipsis, got '... c -> ... d'")),
                row("new EinMix: an output composition that does not close",
                        "new EinMix(\"b h c -> b (h d\", \"c d\", Axes.of(\"c\", 2, \"d\", 3));",
                        error("-> b |(h d\"", "unbalanced parenthesis: '(' at column 12 is never closed")),
                row("an anonymous subclass of a layer", "new Rearrange(\"b c -> b d\") { };",
                        error("-> b |d\"", "axis 'd' is on the right side but not on the left; rearrange keeps every axis")),
                row("a subclass's super(...) call",
                        List.of("static class Flatten extends Rearrange { Flatten() { super(\"b c h w -> b (c h w\"); } }"),
                        "new Flatten();",
                        error("-> b |(c h w\"", "unbalanced parenthesis: '(' at column 14 is never closed")),
                // ---- constants: at the argument, which holds no literal to point into
                row("a static final constant", List.of("static final String BROKEN = \"b c -> b c d\";"),
                        "x.rearrange(BROKEN);",
                        error("x.rearrange(|BROKEN)", REARRANGE_ADDS_D)),
                row("a qualified constant of another class",
                        List.of("static class Patterns { static final String BROKEN = \"b c -> b c d\"; }"),
                        "x.rearrange(Patterns.BROKEN);",
                        error("x.rearrange(|Patterns.BROKEN)", REARRANGE_ADDS_D)),
                row("a final local with a constant initializer", "final String p = \"b c -> b c d\"; x.rearrange(p);",
                        error("x.rearrange(|p)", REARRANGE_ADDS_D)),
                row("a concatenation of literals", "x.rearrange(\"b c -> \" + \"b c d\");",
                        error("x.rearrange(|\"b c -> \" +", REARRANGE_ADDS_D)),
                row("a concatenation with int and char constants",
                        List.of("static final int PATCH = 4;", "static final char OPEN = '(';"),
                        "x.rearrange(\"b \" + OPEN + \"h \" + PATCH + \") -> b h\");",
                        error("x.rearrange(|\"b \" + OPEN", "rearrange allows no anonymous axes except 1, found '4'")),
                row("a parenthesized literal", "x.rearrange((\"b c -> b c d\"));",
                        error("x.rearrange(|(\"b c", REARRANGE_ADDS_D)),
                row("a cast to String", "x.rearrange((String) \"b c -> b c d\");",
                        error("x.rearrange(|(String)", REARRANGE_ADDS_D)),
                // ---- inside the literal, escapes before the offending character are counted
                row("an escaped quote", "x.rearrange(\"b\\tc -> \\\"b c\");",
                        error("-> |\\\"b c", "unexpected character '\"'")),
                row("a unicode escape", "x.rearrange(\"b \\u0063 -> b c d\");",
                        error("-> b c |d\"", REARRANGE_ADDS_D)),
                row("an octal escape", "x.rearrange(\"b\\040c -> b c d\");",
                        error("-> b c |d\"", REARRANGE_ADDS_D)),
                row("the end of the pattern", "x.rearrange(\"b c\");",
                        error("\"b c|\"", "missing '->': a rearrange pattern has the form 'input -> output'")),
                row("a text block, at its start", "x.rearrange(\"\"\"\n            b c -> b c d\"\"\");",
                        error("x.rearrange(|\"\"\"", REARRANGE_ADDS_D)),
                row("two bad calls on one line", "x.rearrange(\"a -> b\").rearrange(\"c -> d\");",
                        error("-> |b\"", "axis 'b' is on the right side but not on the left; rearrange keeps every axis"),
                        error("-> |d\"", "axis 'd' is on the right side but not on the left; rearrange keeps every axis")),
                // ---- left to run time: no diagnostic at all
                row("a parameter", "x.rearrange(runtime);"),
                row("a parameter in a concatenation", "x.rearrange(runtime + \" -> b c d\");"),
                row("a local that is not final", "String p = \"b c -> b c d\"; x.rearrange(p);"),
                row("a conditional", "x.rearrange(flag ? \"b c -> b c d\" : \"b -> b\");"),
                row("arithmetic inside a concatenation", List.of("static final int PATCH = 2;"),
                        "x.rearrange(\"b (h \" + (PATCH * 2) + \") -> b h\");"),
                row("what only a shape decides", "x.rearrange(\"b (h w) -> b h w\"); Ein.einsum(\"i j, j k -> i k\", x);"),
                row("an EinMix weight shape that is not constant", "new EinMix(\"b c -> b d\", runtime, Axes.of(\"c\", 2));"),
                row("a method of another class that is named rearrange",
                        List.of("static class Other { void rearrange(String pattern) { } }"),
                        "new Other().rearrange(\"b c -> b c d\");"),
                row("Tensor.reduce(Reduction, int[], boolean) takes no pattern", "x.reduce(Reduction.SUM, new int[] {0}, false);"),
                row("valid patterns of every method",
                        List.of("static final String PATCHES = \"b c (h p1) (w p2) -> b (h w) (p1 p2 c)\";",
                                "static class Flatten extends Rearrange { Flatten() { super(\"b c h w -> b (c h w)\"); } }"),
                        "x.rearrange(PATCHES, Axes.of(\"p1\", 4, \"p2\", 4)).reduce(\"b (h 2) -> b h\", \"max\")"
                                + ".repeat(\"b h -> b h c\", Axes.of(\"c\", 3)).checkShape(\"b _ (c 1) ...\");"
                                + " x.parseShape(\"b _ h w\"); Ein.einsum(\"b c (h + kh) (w + kw), o c kh kw -> b o h w\", x, x);"
                                + " Ein.einsumNumpy(\"...ij,...jk\", x, x); Ein.pack(\"b * c\", x, x);"
                                + " Ein.unpack(x, List.of(new int[] {2}), \"b * c\"); Ein.parseShape(x, \"b ...\");"
                                + " new Rearrange(\"b c h w -> b (c h w)\"); new Reduce(\"b c (h 2) (w 2) -> b c h w\", Reduction.MAX);"
                                + " new EinMix(\"b t c -> b t c_out\", \"c c_out\", \"c_out\", Axes.of(\"c\", 4, \"c_out\", 8));"
                                + " new EinMix(\"b (h w) c -> b h (w d)\", \"c d\", Axes.of(\"h\", 2, \"c\", 4, \"d\", 8));"
                                + " new Flatten();"));
    }

    @ParameterizedTest(name = "[{index}] {0}")
    @MethodSource("rows")
    void javacReportsExactlyTheExpectedDiagnostics(Row row) {
        List<String> lines = source(row);
        String source = String.join("\n", lines) + "\n";
        Compilation compilation = Compiler.javac().withOptions("-Xplugin:" + Ein4jPatternsPlugin.NAME)
                .compile(JavaFileObjects.forSourceString("example.Example", source));

        List<String> expected = new ArrayList<>();
        for (Expected diagnostic : row.expected()) {
            String text = diagnostic.marker().replace("|", "");
            int at = source.indexOf(text);
            assertThat(at).as("marker %s is in the source", diagnostic.marker()).isNotNegative();
            assertThat(source.indexOf(text, at + 1)).as("marker %s occurs once", diagnostic.marker()).isNegative();
            int offset = at + diagnostic.marker().indexOf('|');
            int line = (int) source.substring(0, offset).chars().filter(c -> c == '\n').count() + 1;
            int column = offset - source.lastIndexOf('\n', offset - 1);
            expected.add(describe(diagnostic.kind(), line, column, diagnostic.message()));
        }
        List<String> actual = compilation.diagnostics().stream()
                .map(d -> describe(d.getKind(), d.getLineNumber(), d.getColumnNumber(), d.getMessage(Locale.ROOT)))
                .toList();
        assertThat(actual).as("diagnostics of\n%s", source).containsExactlyInAnyOrderElementsOf(expected);
        assertThat(compilation.status()).isEqualTo(row.expected().isEmpty() ? Compilation.Status.SUCCESS : Compilation.Status.FAILURE);
    }

    private static String describe(Diagnostic.Kind kind, long line, long column, String message) {
        return kind + " " + line + ":" + column + " " + message;
    }

    private static List<String> source(Row row) {
        List<String> lines = new ArrayList<>(List.of(
                "package example;",
                "import dev.ein4j.nn.*;",
                "import dev.ein4j.tensor.*;",
                "import java.util.List;",
                "class Example {"));
        row.members().forEach(member -> lines.add("    " + member));
        lines.add("    void run(Tensor x, String runtime, boolean flag) {");
        lines.add("        " + row.statement());
        lines.add("    }");
        lines.add("}");
        return lines;
    }
}
