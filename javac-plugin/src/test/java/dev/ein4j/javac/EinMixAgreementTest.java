package dev.ein4j.javac;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ein4j.error.EinopsException;
import dev.ein4j.error.ShapeException;
import dev.ein4j.javac.PatternMethod.EinMixRule;
import dev.ein4j.nn.EinMix;
import dev.ein4j.tensor.Axes;
import dev.ein4j.tensor.Generator;
import dev.ein4j.tensor.Tensor;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@link EinMixCheck} mirrors what {@code EinMix} checks before any input's shape matters; each
 * row is also run through the real layer (constructed, then applied to an input that fits its
 * left side), and the plugin's verdict must be the layer's: no error for both, or the same first
 * line of the message; a shape error of the layer is one the plugin must leave to run time.
 */
class EinMixAgreementTest {

    record Case(String pattern, String weightShape, String biasShape, Map<String, Integer> lengths, int[] input) {
        @Override
        public String toString() {
            return "'" + pattern + "', '" + weightShape + "', '" + biasShape + "'";
        }
    }

    private static Case of(String pattern, String weight, String bias, Map<String, Integer> lengths, int... input) {
        return new Case(pattern, weight, bias, lengths, input);
    }

    static Stream<Case> cases() {
        Map<String, Integer> cd = Map.of("c", 2, "d", 3);
        return Stream.of(
                of("b c -> b d", "c d", "", cd, 4, 2),
                of("b c -> b d", "c d", "d", cd, 4, 2),
                of("b c -> b (d e)", "c d e", "d e", Map.of("c", 2, "d", 3, "e", 2), 4, 2),
                // the layer gives its einsum no lengths, so an input composition fails on every shape,
                // as a shape error: the plugin leaves it to run time
                of("b (h w) c -> b h (w d)", "c d", "d", Map.of("h", 2, "c", 2, "d", 3), 4, 6, 2),
                of("b t c -> b t k", "c c_out", "", Map.of("c", 2, "c_out", 3), 4, 5, 2),
                of("b c -> b d", " c (d", "", cd, 4, 2),
                of("b c -> b d", "c d", "c", cd, 4, 2),
                of("b c -> b d d", "c d", "", cd, 4, 2),
                of("... c -> ... d", "c d", "", cd, 4, 2),
                of("b c", "c d", "", cd, 4, 2),
                of("b c -> b -> d", "c d", "", cd, 4, 2),
                of("b h c -> b (h d", "c d", "", cd, 4, 5, 2),
                of("b (h c -> b h d", "c d", "", Map.of("h", 1, "c", 2, "d", 3), 4, 2),
                of("b c -> b # d", "c d", "", cd, 4, 2),
                of("b c c -> b d", "c d", "", cd, 4, 2, 2),
                of("b c -> b d", "c d d", "", cd, 4, 2),
                of("b c -> b d", "c d", "d d", cd, 4, 2));
    }

    @ParameterizedTest(name = "[{index}] {0}")
    @MethodSource("cases")
    void thePluginSaysWhatTheLayerThrows(Case row) {
        Optional<Problem> plugin = new EinMixCheck(new EinMixRule(0, 1, 2), row.pattern(), row.weightShape(),
                row.biasShape()).check();
        assertThat(plugin.map(Problem::message).orElse(null)).isEqualTo(library(row));
    }

    @Test
    void mostRowsAreErrorsOfTheLayer() {
        assertThat(cases().map(EinMixAgreementTest::library).filter(java.util.Objects::nonNull).count()).isGreaterThanOrEqualTo(11);
    }

    /** The first line of what the layer throws before a shape matters, null if nothing. */
    private static String library(Case row) {
        try {
            EinMix layer = new EinMix(row.pattern(), row.weightShape(), row.biasShape(), Axes.from(row.lengths()),
                    new Generator(1));
            layer.forward(Tensor.zeros(row.input()));
            return null;
        } catch (ShapeException shapeDependent) {
            return null;
        } catch (EinopsException thrown) {
            return PatternCheck.firstLine(thrown);
        }
    }
}
