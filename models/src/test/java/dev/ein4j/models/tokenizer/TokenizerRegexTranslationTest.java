package dev.ein4j.models.tokenizer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import org.junit.jupiter.api.Test;

/**
 * The Oniguruma-to-Java translation, construct by construct (what each construct means in
 * Oniguruma was measured through tokenizers' Split pre-tokenizer, see components.jsonl).
 */
class TokenizerRegexTranslationTest {

    private static List<String> matches(String expression, String text) {
        Matcher matcher = OnigurumaSyntax.compile(expression).matcher(text);
        List<String> out = new ArrayList<>();
        while (matcher.find()) {
            out.add(matcher.group());
        }
        return out;
    }

    @Test
    void constructsThatMeanSomethingElseInJava() {
        assertThat(OnigurumaSyntax.translate("\\h+")).isEqualTo("[0-9a-fA-F]+"); // Java: horizontal space
        assertThat(OnigurumaSyntax.translate("[\\h_]")).isEqualTo("[0-9a-fA-F_]");
        assertThat(OnigurumaSyntax.translate("(?m:a.b)")).isEqualTo("(?s:a.b)"); // Ruby's m is dot-all
        assertThat(OnigurumaSyntax.translate("\\p{^L}\\P{^N}")).isEqualTo("\\P{L}\\p{N}");
        assertThat(OnigurumaSyntax.translate("\\p{Han}\\p{Letter}")).isEqualTo("\\p{IsHan}\\p{L}");
        assertThat(OnigurumaSyntax.translate("x{,2}")).isEqualTo("x{0,2}");
        assertThat(OnigurumaSyntax.translate("a{b")).isEqualTo("a\\{b");
        assertThat(OnigurumaSyntax.translate("a(?# note)b")).isEqualTo("ab");
        assertThat(OnigurumaSyntax.translate("[[:punct:]]")).isEqualTo("[[\\p{P}\\p{S}]]");
    }

    @Test
    void anIntervalFollowedByPlusRepeatsInsteadOfBeingPossessive() {
        assertThat(OnigurumaSyntax.translate("\\p{N}{1,3}+")).isEqualTo("(?:\\p{N}{1,3})+");
        assertThat(OnigurumaSyntax.translate("(ab){2}+c")).isEqualTo("(?:(ab){2})+c");
        assertThat(OnigurumaSyntax.translate("[xy]{3}+")).isEqualTo("(?:[xy]{3})+");
        assertThat(matches("\\p{N}{1,3}+", "20245")).containsExactly("20245");
        assertThat(matches("a?+\\s++", "a  b")).containsExactly("a  "); // ?+ and ++ stay possessive, as in Ruby
    }

    @Test
    void linesAnchorsAndDotFollowOniguruma() {
        assertThat(matches("^a", "ab\nab")).containsExactly("a", "a"); // ^ and $ are line anchors
        assertThat(matches("b$", "ab\nab")).containsExactly("b", "b");
        assertThat(matches("a.b", "a\nb a\rb")).containsExactly("a\rb"); // . stops at \n only
        assertThat(matches("(?i:'s)", "'S 'ſ")).containsExactly("'S", "'ſ");
        assertThat(matches("\\w+", "x½ y\u200dz")).containsExactly("x½", "y", "z"); // Latin-1 fractions are word characters
    }

    @Test
    void constructsWithoutAJavaEquivalentAreRejected() {
        assertThatThrownBy(() -> OnigurumaSyntax.translate("a\\Kb")).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("\\K has no Java equivalent");
        assertThatThrownBy(() -> OnigurumaSyntax.translate("(?~abc)")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("absent operator");
        assertThatThrownBy(() -> OnigurumaSyntax.translate("a\\")).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("the expression ends with a lone backslash");
    }
}
