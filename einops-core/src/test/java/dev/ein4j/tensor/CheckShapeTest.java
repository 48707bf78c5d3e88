package dev.ein4j.tensor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.ein4j.error.EinopsException;
import dev.ein4j.error.PatternSyntaxException;
import dev.ein4j.error.ShapeException;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@link Tensor#checkShape}: shapes that fit return the named lengths in the pattern's order;
 * every kind of misfit is a {@link ShapeException} whose caret stands under the term that does not
 * fit (each row names that term, and the test checks the pattern has it at the reported column).
 */
class CheckShapeTest {

    // ------------------------------------------------------------------ shapes that fit

    @Test
    void namesGiveTheirLengthsInThePatternsOrder() {
        Axes lengths = Tensor.zeros(8, 3, 32, 16).checkShape("b c h w", Axes.of("c", 3));
        assertThat(lengths.asMap()).containsExactly(Map.entry("b", 8), Map.entry("c", 3), Map.entry("h", 32),
                Map.entry("w", 16));
        assertThat(lengths.length("h")).isEqualTo(32);
        assertThat(lengths.contains("w")).isTrue();
        assertThat(lengths.contains("x")).isFalse();
    }

    @Test
    void skippedUnitAndAnonymousAxesAreCheckedButNotReturned() {
        assertThat(Tensor.zeros(8, 3, 1, 1, 5).checkShape("b 3 1 () _").asMap()).containsExactly(Map.entry("b", 8));
    }

    @Test
    void aCompositionGetsItsOneUnknownLengthFromTheOthers() {
        Tensor x = Tensor.zeros(8, 12, 3);
        assertThat(x.checkShape("b (h w) c", Axes.of("h", 3)).asMap())
                .containsExactly(Map.entry("b", 8), Map.entry("h", 3), Map.entry("w", 4), Map.entry("c", 3));
        assertThat(x.checkShape("b (h 2) c").asMap()).containsEntry("h", 6);
        assertThat(x.checkShape("b (h w) c", Axes.of("h", 4, "w", 3)).length("w")).isEqualTo(3);
        assertThat(x.checkShape("b (1 h) c", Axes.none()).asMap()).containsExactly(Map.entry("b", 8), Map.entry("h", 12), Map.entry("c", 3));
    }

    @Test
    void anEllipsisStandsForAnyNumberOfDimensions() {
        assertThat(Tensor.zeros(2, 3, 4, 5).checkShape("... h w").asMap()).containsExactly(Map.entry("h", 4), Map.entry("w", 5));
        assertThat(Tensor.zeros(4, 5).checkShape("... h w").asMap()).containsExactly(Map.entry("h", 4), Map.entry("w", 5));
        assertThat(Tensor.zeros(2, 3, 4).checkShape("b ... (h 2)").asMap()).containsExactly(Map.entry("b", 2), Map.entry("h", 2));
        assertThat(Tensor.scalar(1).checkShape("...").asMap()).isEmpty();
        assertThat(Tensor.scalar(1).checkShape("").asMap()).isEmpty();
    }

    @Test
    void anEmptyAxisHasLengthZero() {
        assertThat(Tensor.zeros(0, 3).checkShape("b c").asMap()).containsExactly(Map.entry("b", 0), Map.entry("c", 3));
    }

    @Test
    void theLengthsFeedTheNextPattern() {
        Tensor images = Tensor.zeros(2, 3, 8, 8);
        Axes lengths = images.checkShape("b c h w");
        assertThat(images.rearrange("b c h w -> b (c h w)").rearrange("b (c h w) -> b c h w",
                Axes.of("c", lengths.length("c"), "h", lengths.length("h"))).shape()).containsExactly(2, 3, 8, 8);
    }

    @Test
    void axesReadAccessorsAndEquality() {
        Axes lengths = Tensor.zeros(2, 3).checkShape("a b");
        assertThat(lengths).isEqualTo(Axes.of("b", 3, "a", 2)).hasSameHashCodeAs(Axes.of("a", 2, "b", 3));
        assertThat(lengths).isNotEqualTo(Axes.of("a", 2));
        EinopsException missing = catchThrowableOfType(EinopsException.class, () -> lengths.length("c"));
        assertThat(missing).hasMessage("axis c has no length here; there are [a, b]");
        assertThatThrownBy(() -> lengths.length(null)).isInstanceOf(NullPointerException.class).hasMessage("name");
        assertThatThrownBy(() -> lengths.contains(null)).isInstanceOf(NullPointerException.class).hasMessage("name");
    }

    // ------------------------------------------------------------------ shapes that do not fit

    record Misfit(int[] shape, String pattern, Axes axes, int column, String at, String reason) {
        @Override
        public String toString() {
            return "\"" + pattern + "\" " + axes + " on " + java.util.Arrays.toString(shape);
        }
    }

    private static Misfit misfit(int[] shape, String pattern, Axes axes, int column, String at, String reason) {
        return new Misfit(shape, pattern, axes, column, at, reason);
    }

    private static int[] shape(int... lengths) {
        return lengths;
    }

    static Stream<Misfit> misfits() {
        return Stream.of(
                misfit(shape(8, 3, 32, 32), "b c h w", Axes.of("c", 1), 3, "c h", "axis c: the input has length 3 but 1 is expected"),
                misfit(shape(8, 3, 32, 32), "b c h", Axes.none(), 1, "b c h", "the pattern has 3 dimensions but the tensor has 4"),
                misfit(shape(8, 3), "b c h", Axes.none(), 1, "b c h", "the pattern has 3 dimensions but the tensor has 2"),
                misfit(shape(2, 3), "a b ... c", Axes.none(), 1, "a b ... c", "the pattern has 3 dimensions besides '...' but the tensor has 2"),
                misfit(shape(2, 4), "b 3", Axes.none(), 3, "3", "anonymous axis 3: the input has length 4 but 3 is expected"),
                misfit(shape(2, 4), "b 1", Axes.none(), 3, "1", "unit axis 1: the input has length 4 but 1 is expected"),
                misfit(shape(2, 4), "b ()", Axes.none(), 3, "()", "unit axis (): the input has length 4 but 1 is expected"),
                misfit(shape(6), "(h w)", Axes.of("h", 4), 1, "(h w)", "axis w: length 6 cannot be split into (h w), 6 is not divisible by 4"),
                misfit(shape(2, 7), "b (h 2)", Axes.none(), 3, "(h 2)", "axis h: length 7 cannot be split into (h 2), 7 is not divisible by 2"),
                misfit(shape(6), "(h w)", Axes.of("h", 4, "w", 2), 1, "(h w)", "dimension (h w) has length 6, but its axes multiply to 8"),
                misfit(shape(2, 12), "b (h w)", Axes.none(), 3, "(h w)",
                        "cannot infer the lengths of h and w from (h w) of length 12: give all but one of them by name"),
                misfit(shape(2, 3, 5), "b ... w", Axes.of("w", 4), 7, "w", "axis w: the input has length 5 but 4 is expected"));
    }

    @ParameterizedTest(name = "[{index}] {0}")
    @MethodSource("misfits")
    void aMisfitIsAShapeExceptionWithACaretAtTheTerm(Misfit row) {
        assertThat(row.pattern().startsWith(row.at(), row.column() - 1))
                .as("row is consistent: \"%s\" stands at column %d", row.at(), row.column()).isTrue();
        ShapeException e = catchThrowableOfType(ShapeException.class,
                () -> Tensor.zeros(row.shape()).checkShape(row.pattern(), row.axes()));
        assertThat(e).as("%s is rejected", row).isNotNull();
        assertThat(e.reason()).isEqualTo(row.reason());
        assertThat(e.column()).isEqualTo(row.column());
        assertThat(e.pattern()).isEqualTo(row.pattern());
        assertThat(e.shapes()).singleElement().satisfies(shape -> assertThat(shape)
                .containsExactly(java.util.Arrays.stream(row.shape()).asLongStream().toArray()));
        assertThat(e.getMessage()).startsWith(row.reason() + "\n  " + row.pattern() + "\n  " + " ".repeat(row.column() - 1) + "^\n");
    }

    @Test
    void aGivenNameThatThePatternLacksIsAShapeException() {
        ShapeException e = catchThrowableOfType(ShapeException.class,
                () -> Tensor.zeros(2, 3).checkShape("a b", Axes.of("z", 2)));
        assertThat(e.reason()).isEqualTo("axis z is given a length but does not appear in the pattern");
        assertThat(e.axisLengths()).containsEntry("z", 2L);
    }

    @Test
    void aMalformedPatternIsASyntaxErrorWhateverTheShape() {
        List<String> patterns = List.of("b (h + k)", "b b", "b * c", "b -> b", "b (h", "b (h ...)");
        for (String pattern : patterns) {
            assertThatThrownBy(() -> Tensor.zeros(2, 3).checkShape(pattern)).as(pattern)
                    .isInstanceOf(PatternSyntaxException.class);
        }
        PatternSyntaxException e = catchThrowableOfType(PatternSyntaxException.class,
                () -> Tensor.zeros(2, 2).checkShape("b b"));
        assertThat(e.reason()).isEqualTo("axis 'b' appears twice in a check_shape pattern");
        assertThat(e.column()).isEqualTo(3);
    }

    @Test
    void nullArgumentsAreNamed() {
        Tensor x = Tensor.zeros(2);
        assertThatThrownBy(() -> x.checkShape(null)).isInstanceOf(NullPointerException.class).hasMessage("pattern");
        assertThatThrownBy(() -> x.checkShape("a", null)).isInstanceOf(NullPointerException.class).hasMessage("axes");
    }
}
