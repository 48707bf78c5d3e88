package dev.ein4j.javac;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Offsets of a literal's characters in the source, escapes included. */
class LiteralOffsetsTest {

    /** The offset of value[index] in {@code source}, the literal being all of it. */
    private static long offset(String source, String value, int index) {
        return LiteralOffsets.offsetOf(source, 0, source.length(), value, index);
    }

    @Test
    void plainCharactersFollowTheQuote() {
        assertThat(offset("\"abc\"", "abc", 0)).isEqualTo(1);
        assertThat(offset("\"abc\"", "abc", 2)).isEqualTo(3);
        assertThat(offset("\"abc\"", "abc", 3)).as("the end: the closing quote").isEqualTo(4);
    }

    @Test
    void anEscapeIsOneCharacterAtItsBackslash() {
        String source = "\"a\\tb\\\\c\\\"d\"";            // "a\tb\\c\"d"
        String value = "a\tb\\c\"d";
        assertThat(offset(source, value, 1)).isEqualTo(2);
        assertThat(offset(source, value, 2)).isEqualTo(4);
        assertThat(offset(source, value, 4)).isEqualTo(7);
        assertThat(offset(source, value, 6)).isEqualTo(10);
    }

    @Test
    void octalEscapesTakeUpToThreeDigits() {
        assertThat(offset("\"\\101B\"", "AB", 1)).isEqualTo(5);
        assertThat(offset("\"\\7B\"", "\7B", 1)).isEqualTo(3);
        assertThat(offset("\"\\4012\"", " 12", 1)).as("a first digit above 3 takes one more: \\40 then 1").isEqualTo(4);
    }

    @Test
    void unicodeEscapesComeFirstAndAnEscapedBackslashIsNotOne() {
        assertThat(offset("\"\\u0041B\"", "AB", 1)).isEqualTo(7);
        assertThat(offset("\"\\uuu0041B\"", "AB", 1)).isEqualTo(9);
        assertThat(offset("\"\\\\u0041\"", "\\u0041", 1)).as("\\\\ then u0041").isEqualTo(3);
    }

    @Test
    void whatCannotBeMappedIsMinusOne() {
        assertThat(offset("\"\"\"\n  abc\"\"\"", "abc", 0)).as("a text block").isEqualTo(-1);
        assertThat(offset("\"abc\"", "abd", 0)).as("a value that is not the literal's").isEqualTo(-1);
        assertThat(offset("\"abc\"", "abc", 4)).isEqualTo(-1);
        assertThat(LiteralOffsets.offsetOf("\"abc\"", 0, 9, "abc", 0)).isEqualTo(-1);
    }
}
