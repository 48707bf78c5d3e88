package dev.ein4j.pattern;

import static dev.ein4j.pattern.Operation.CHECK_SHAPE;
import static dev.ein4j.pattern.Operation.EINSUM;
import static dev.ein4j.pattern.Operation.NUMPY_EINSUM;
import static dev.ein4j.pattern.Operation.PACK;
import static dev.ein4j.pattern.Operation.PARSE_SHAPE;
import static dev.ein4j.pattern.Operation.REARRANGE;
import static dev.ein4j.pattern.Operation.REDUCE;
import static dev.ein4j.pattern.Operation.REPEAT;
import static dev.ein4j.pattern.Operation.UNPACK;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.ein4j.error.EinopsException;
import dev.ein4j.error.PatternSyntaxException;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Invalid patterns: each is rejected with a {@link PatternSyntaxException} whose 1-based column
 * points at the offending token. Every row names that token ({@code at}): the test checks that the
 * pattern has exactly that text at the reported column ({@link #END} for "the end of the pattern"),
 * so the column is verified against the pattern, not merely recorded.
 */
class InvalidPatternsTest {

    /** {@code at} value for errors reported just past the last character (column = length + 1). */
    static final String END = "<end>";

    record Invalid(Operation operation, String pattern, int column, String at, String reason) {
        @Override
        public String toString() {
            return operation + ": \"" + ValidPatternsTest.escape(pattern) + "\" @" + column;
        }
    }

    private static Invalid bad(Operation operation, String pattern, int column, String at, String reason) {
        return new Invalid(operation, pattern, column, at, reason);
    }

    static final List<Invalid> INVALID = List.of(
            // ---- unbalanced parentheses, both ways; the first unmatched one is blamed
            bad(REARRANGE, "b c (h p1 (w p2) -> b (h w) (p1 p2 c)", 5, "(h p1", "unbalanced parenthesis: '(' at column 5 is never closed"),
            bad(REARRANGE, "b c h p1) -> b c", 9, ")", "unbalanced parenthesis: ')' at column 9 has no matching '('"),
            bad(REARRANGE, "b (h w -> b h w", 3, "(h w", "'(' at column 3 is never closed"),
            bad(REARRANGE, "b h w) -> b h w", 6, ")", "')' at column 6 has no matching '('"),
            bad(REARRANGE, "b h w -> (b h w", 10, "(b h w", "'(' at column 10 is never closed"),
            bad(REARRANGE, "b h w -> b h w)", 15, ")", "')' at column 15 has no matching '('"),
            bad(REARRANGE, "b h -> b (h + kh", 10, "(h + kh", "'(' at column 10 is never closed"),
            bad(REARRANGE, "b ( ( h -> b h", 3, "( ( h", "'(' at column 3 is never closed"),
            bad(REARRANGE, ") b ( -> b", 1, ")", "')' at column 1 has no matching '('"),
            bad(REARRANGE, "b\n\n(h -> b h", 4, "(h", "'(' at column 4 is never closed"),
            bad(NUMPY_EINSUM, "ij)", 3, ")", "')' at column 3 has no matching '('"),
            bad(PACK, "(b * c", 1, "(b", "'(' at column 1 is never closed"),
            // ---- the arrow: missing, twice, where none belongs
            bad(REARRANGE, "b h w", 6, END, "missing '->'"),
            bad(REARRANGE, "", 1, END, "missing '->'"),
            bad(REDUCE, "b h w  ", 8, END, "missing '->'"),
            bad(EINSUM, "i j, j k", 9, END, "missing '->'"),
            bad(EINSUM, "", 1, END, "missing '->'"),
            bad(REARRANGE, "b h w -> b h -> w", 14, "-> w", "more than one '->'"),
            bad(REARRANGE, "->->", 3, "->", "more than one '->'"),
            bad(EINSUM, "i j -> i -> j", 10, "-> j", "more than one '->'"),
            bad(NUMPY_EINSUM, "ij,jk->ik->k", 10, "->k", "more than one '->'"),
            bad(PACK, "b * c -> b c", 7, "-> b c", "'->' is not allowed in a pack pattern"),
            bad(PARSE_SHAPE, "b -> h", 3, "-> h", "'->' is not allowed in a parse_shape pattern"),
            // ---- stray characters
            bad(REARRANGE, "b # c -> b c", 3, "#", "unexpected character '#'"),
            bad(REARRANGE, "b c -> b é c", 10, "é", "unexpected character 'é'"),
            bad(REARRANGE, "b ä -> b ä", 3, "ä", "unexpected character 'ä'"),
            bad(REARRANGE, "b - c -> b c", 3, "- c", "unexpected character '-'"),
            bad(REARRANGE, "b > c -> b c", 3, "> c", "unexpected character '>'"),
            bad(REARRANGE, "b c -> b c >", 12, ">", "unexpected character '>'"),
            bad(REARRANGE, "b c -> b c -", 12, "-", "unexpected character '-'"),
            bad(REARRANGE, "b c ->> b c", 7, "> b c", "unexpected character '>'"),
            bad(REARRANGE, "b c => b c", 5, "=>", "unexpected character '='"),
            bad(REARRANGE, "b\tc\t# -> b c", 5, "#", "unexpected character '#'"),
            bad(REARRANGE, "b\u00a0c -> b c", 2, "\u00a0", "unexpected character '\u00a0'"),
            bad(REARRANGE, "b \uD83D\uDE00 -> b", 3, "\uD83D\uDE00", "unexpected character '\uD83D\uDE00'"),
            bad(NUMPY_EINSUM, "i#j", 2, "#", "unexpected character '#'"),
            // ---- names that do not start with a letter
            bad(REARRANGE, "b 2h -> b h", 3, "2h", "axis name '2h' must start with a letter"),
            bad(REARRANGE, "b _h -> b", 3, "_h", "axis name '_h' must start with a letter"),
            bad(REARRANGE, "b h__ -> b h__ _x", 16, "_x", "axis name '_x' must start with a letter"),
            bad(REARRANGE, "1a -> a", 1, "1a", "axis name '1a' must start with a letter"),
            bad(REARRANGE, "__ -> ", 1, "__", "axis name '__' must start with a letter"),
            bad(REARRANGE, "b 1_ -> b", 3, "1_", "axis name '1_' must start with a letter"),
            // ---- dots that are not an ellipsis
            bad(REARRANGE, "b . -> b", 3, ". ->", "'.' is not an ellipsis, write '...'"),
            bad(REARRANGE, "b .. -> b", 3, "..", "'..' is not an ellipsis, write '...'"),
            bad(REARRANGE, "b .... -> b", 6, ". ->", "'.' is not an ellipsis"),
            bad(NUMPY_EINSUM, "ij.", 3, ".", "'.' is not an ellipsis"),
            // ---- nesting
            bad(REARRANGE, "b ((h w)) -> b h w", 4, "(h w)", "nested parentheses are not allowed"),
            bad(REARRANGE, "b (h (w)) -> b h w", 6, "(w)", "nested parentheses are not allowed"),
            bad(REARRANGE, "b (()) -> b", 4, "()", "nested parentheses are not allowed"),
            bad(REARRANGE, "(1 ()) -> ()", 4, "()", "nested parentheses are not allowed"),
            bad(REARRANGE, "b (c (h + kh)) -> b c h kh", 6, "(h + kh)", "nested parentheses are not allowed"),
            bad(REARRANGE, "b ((2*h + k)) -> b h k", 4, "(2*h + k)", "nested parentheses are not allowed"),
            // ---- lengths
            bad(REARRANGE, "b 0 -> b", 3, "0", "an axis cannot have length 0"),
            bad(REARRANGE, "b (h 0) -> b h", 6, "0)", "an axis cannot have length 0"),
            bad(REDUCE, "b 000 -> b", 3, "000", "an axis cannot have length 0"),
            bad(REARRANGE, "b (0*h + kh) -> b h kh", 4, "0*h", "stride or dilation must be at least 1"),
            bad(REARRANGE, "b (h + 0*k) -> b h k", 8, "0*k", "stride or dilation must be at least 1"),
            bad(REARRANGE, "b 99999999999999999999 -> b", 3, "99999999999999999999", "axis length 99999999999999999999 is too large"),
            bad(REDUCE, "b 9223372036854775808 -> b", 3, "9223372036854775808", "is too large"),
            bad(REARRANGE, "b (99999999999999999999*h + k) -> b h k", 4, "99999999999999999999*h", "is too large"),
            // ---- duplicate names, on each side
            bad(REARRANGE, "b h h -> b h", 5, "h ->", "axis 'h' appears twice in the left side"),
            bad(REARRANGE, "b h -> b h h", 12, "h", "axis 'h' appears twice in the right side"),
            bad(REARRANGE, "b (h w) -> b (w w)", 17, "w)", "axis 'w' appears twice in the right side"),
            bad(REARRANGE, "b (h + kh) h -> b h kh", 12, "h ->", "axis 'h' appears twice in the left side"),
            bad(REDUCE, "b h h -> b", 5, "h ->", "axis 'h' appears twice in the left side"),
            bad(REDUCE, "b h -> b b", 10, "b", "axis 'b' appears twice in the right side"),
            bad(REDUCE, "(h + h) -> h", 6, "h) ->", "axis 'h' appears twice in the left side"),
            bad(REPEAT, "b h -> b c c h", 12, "c h", "axis 'c' appears twice in the right side"),
            bad(EINSUM, "i j, j k -> i i", 15, "i", "axis 'i' appears twice in the output"),
            bad(EINSUM, "i j, j k -> k i k", 17, "k", "axis 'k' appears twice in the output"),
            bad(NUMPY_EINSUM, "ij->ii", 6, "i", "axis 'i' appears twice in the output"),
            bad(PACK, "b * b", 5, "b", "axis 'b' appears twice in a pack pattern"),
            bad(PARSE_SHAPE, "b h h", 5, "h", "axis 'h' appears twice in a parse_shape pattern"),
            // ---- ellipsis: a second one, on the right without the left
            bad(REARRANGE, "b ... ... -> b ...", 7, "... ->", "a second ellipsis '...' in the left side"),
            bad(REARRANGE, "b ... -> b ... (...)", 17, "...)", "a second ellipsis '...' in the right side"),
            bad(REARRANGE, "b (...) c -> b ... c", 4, "...", "'...' inside parentheses is not allowed on the left side"),
            bad(EINSUM, "(...) i -> i", 2, "...", "'...' inside parentheses is not allowed on an einsum input"),
            bad(REARRANGE, "b (h ... ...) -> b h ...", 10, "...)", "a second ellipsis"),
            bad(EINSUM, "i ... ..., j -> i j", 7, "...,", "a second ellipsis '...' in an einsum input"),
            bad(NUMPY_EINSUM, "i...j...", 6, "...", "a second ellipsis"),
            bad(PARSE_SHAPE, "b ... ...", 7, "...", "a second ellipsis"),
            bad(REARRANGE, "b h -> b h ...", 12, "...", "ellipsis '...' on the right side but not on the left"),
            bad(REDUCE, "b h -> b ...", 10, "...", "ellipsis '...' on the right side but not on the left"),
            bad(REPEAT, "b -> (... b)", 7, "... b", "ellipsis '...' on the right side but not on the left"),
            // ---- rearrange keeps every axis, has no anonymous axes
            bad(REARRANGE, "b h w -> b h", 5, "w ->", "axis 'w' is on the left side but not on the right; rearrange keeps every axis"),
            bad(REARRANGE, "b h -> b h w", 12, "w", "axis 'w' is on the right side but not on the left; rearrange keeps every axis"),
            bad(REARRANGE, "(h + kh) w -> h w", 6, "kh)", "axis 'kh' is on the left side but not on the right"),
            bad(REARRANGE, "b ... -> b", 3, "... ->", "ellipsis '...' on the left side but not on the right; rearrange keeps every axis"),
            bad(REARRANGE, "b (h 2) -> b h", 6, "2)", "rearrange allows no anonymous axes except 1, found '2'"),
            bad(REARRANGE, "b h -> b (h 2)", 13, "2)", "rearrange allows no anonymous axes except 1, found '2'"),
            bad(REARRANGE, "b 3 -> b", 3, "3", "rearrange allows no anonymous axes"),
            // ---- reduce only drops
            bad(REDUCE, "b h -> b c", 10, "c", "axis 'c' is on the right side but not on the left; reduce cannot add axes"),
            bad(REDUCE, "b h -> b 2", 10, "2", "reduce allows anonymous axes only on the left side, found '2'"),
            bad(REDUCE, "b h -> b (h 2)", 13, "2)", "reduce allows anonymous axes only on the left side"),
            // ---- repeat only adds
            bad(REPEAT, "b h -> b", 3, "h ->", "axis 'h' is on the left side but not on the right; repeat cannot drop axes"),
            bad(REPEAT, "b 2 -> b", 3, "2", "repeat allows anonymous axes only on the right side, found '2'"),
            bad(REPEAT, "b (h 2) -> b h", 6, "2)", "repeat allows anonymous axes only on the right side"),
            bad(REPEAT, "b ... -> b c", 3, "... ->", "ellipsis '...' on the left side but not on the right; repeat cannot drop axes"),
            bad(REPEAT, "b (h + kh) -> b h kh", 3, "(h + kh)", "a window (h + kh) is not allowed on repeat"),
            // ---- einsum outputs
            bad(EINSUM, "i j, j k -> i m", 15, "m", "output axis 'm' appears in no input"),
            bad(EINSUM, "i j, -> i k", 11, "k", "output axis 'k' appears in no input"),
            bad(NUMPY_EINSUM, "ij->ik", 6, "k", "output axis 'k' appears in no input"),
            bad(REARRANGE, "...pre -> ...pre", 4, "pre -> ...pre", "'...' and 'pre' must be separated by a space"),
            bad(REARRANGE, "pre... -> pre...", 4, "... -> pre...", "'pre' and '...' must be separated by a space"),
            bad(EINSUM, "b ...i, b ...j -> b i j", 6, "i, b", "'...' and 'i' must be separated by a space"),
            bad(PACK, "h w*", 4, "*", "'w' and '*' must be separated by a space"),
            bad(UNPACK, "*c", 2, "c", "'*' and 'c' must be separated by a space"),
            bad(REARRANGE, "(a b...) -> a b", 5, "...) -> a b", "'b' and '...' must be separated by a space"),
            bad(REARRANGE, "a_ b -> b a_", 1, "a_ b", "axis name 'a_' must not end with '_'"),
            bad(REDUCE, "b (h + kh_) -> b h", 8, "kh_", "axis name 'kh_' must not end with '_'"),
            bad(EINSUM, "i j -> i 2", 10, "2", "an einsum output allows no anonymous axes except 1"),
            bad(EINSUM, "i j, j k -> i k ,", 17, ",", "unexpected ','"),
            bad(EINSUM, "i , j k -> i k, j", 15, ", j", "unexpected ','"),
            // ---- windows on an output
            bad(REARRANGE, "b h -> b (h + kh)", 10, "(h + kh)", "a window (h + kh) is not allowed on the right side of rearrange"),
            bad(REDUCE, "b (h + kh) -> b (h + kh)", 17, "(h + kh)", "not allowed on the right side of reduce"),
            bad(REPEAT, "h kh -> (h + kh)", 9, "(h + kh)", "not allowed on the right side of repeat"),
            bad(EINSUM, "i j -> (i + j)", 8, "(i + j)", "a window (i + j) is not allowed on an einsum output"),
            // ---- '*' outside pack/unpack, '_' outside parse_shape
            bad(REARRANGE, "b * -> b", 3, "* ->", "'*' is only allowed in pack and unpack patterns"),
            bad(EINSUM, "i * -> i", 3, "* ->", "'*' is only allowed in pack and unpack patterns"),
            bad(PARSE_SHAPE, "b * h", 3, "* h", "'*' is only allowed in pack and unpack patterns"),
            bad(REARRANGE, "b (h *) -> b h", 6, "*)", "'*' cannot be part of a composition"),
            bad(REARRANGE, "b _ -> b", 3, "_ ->", "'_' (skip an axis) is only allowed in parse_shape and check_shape patterns"),
            bad(EINSUM, "i _ -> i", 3, "_ ->", "'_' (skip an axis) is only allowed in parse_shape and check_shape patterns"),
            bad(PACK, "b _ *", 3, "_ *", "'_' (skip an axis) is only allowed in parse_shape and check_shape patterns"),
            bad(REARRANGE, "b (h _) -> b h", 6, "_)", "'_' cannot be part of a composition"),
            // ---- pack / unpack: exactly one '*', names only
            bad(PACK, "b c", 1, "b c", "needs exactly one '*'"),
            bad(PACK, "", 1, END, "needs exactly one '*'"),
            bad(UNPACK, "b c", 1, "b c", "needs exactly one '*'"),
            bad(UNPACK, "", 1, END, "needs exactly one '*'"),
            bad(PACK, "b * c *", 7, "*", "a second '*'"),
            bad(UNPACK, "* *", 3, "*", "a second '*'"),
            bad(PACK, "b (h w) *", 3, "(h w)", "has only names and one '*', not '(h w)'"),
            bad(UNPACK, "b (h w) *", 3, "(h w)", "has only names and one '*', not '(h w)'"),
            bad(PACK, "b ... *", 3, "... *", "has only names and one '*', not '...'"),
            bad(UNPACK, "b ... *", 3, "... *", "has only names and one '*', not '...'"),
            bad(PACK, "b 2 *", 3, "2", "has only names and one '*', not '2'"),
            bad(PACK, "b () *", 3, "()", "has only names and one '*'"),
            bad(PACK, "b, * c", 2, ", *", "',' separates einsum operands; a pack pattern has one input"),
            // ---- parse_shape: names, '_' and '...'
            bad(PARSE_SHAPE, "b (h w)", 3, "(h w)", "a parse_shape pattern has only names, '_', lengths and '...'"),
            bad(PARSE_SHAPE, "b (h + kh)", 3, "(h + kh)", "a parse_shape pattern has only names, '_', lengths and '...'"),
            // ---- check_shape: names, '_', lengths, compositions and '...'
            bad(CHECK_SHAPE, "b (h + kh)", 3, "(h + kh)", "a check_shape pattern has only names, '_', lengths, compositions and '...', not '(h + kh)'"),
            bad(CHECK_SHAPE, "b *", 3, "*", "'*' is only allowed in pack and unpack patterns"),
            bad(CHECK_SHAPE, "b (h b)", 6, "b)", "axis 'b' appears twice in a check_shape pattern"),
            bad(CHECK_SHAPE, "b (h ...)", 6, "...)", "'...' inside parentheses is not allowed on a check_shape pattern"),
            bad(CHECK_SHAPE, "b ... c ...", 9, "...", "a second ellipsis '...'"),
            bad(CHECK_SHAPE, "b (h _)", 6, "_)", "'_' cannot be part of a composition"),
            bad(CHECK_SHAPE, "b c -> b", 5, "-> b", "'->' is not allowed in a check_shape pattern"),
            bad(CHECK_SHAPE, "b (h w", 3, "(h w", "'(' at column 3 is never closed"),
            // ---- a window names two different axes (einsum inputs may otherwise repeat a name)
            bad(EINSUM, "b (2*h + 3*h) -> b h", 10, "3*h)", "window (2*h + 3*h) names axis 'h' twice: its position and its kernel are two different axes"),
            bad(EINSUM, "b (h + h), h -> b h", 8, "h)", "window (h + h) names axis 'h' twice"),
            bad(EINSUM, "b, b (h + k) (w + w) -> b", 19, "w)", "window (w + w) names axis 'w' twice"),
            // ---- numpy notation: single letters only
            bad(NUMPY_EINSUM, "i1j->ij", 2, "1j", "numpy-notation subscripts are single letters, '1' is not a letter"),
            bad(NUMPY_EINSUM, "i_j->ij", 2, "_j", "numpy-notation subscripts are single letters, '_' is not a letter"),
            bad(NUMPY_EINSUM, "i_", 2, "_", "'_' is not a letter"),
            bad(NUMPY_EINSUM, "1i->i", 1, "1i", "numpy-notation subscripts are single letters, '1i' is not"),
            bad(NUMPY_EINSUM, "_i", 1, "_i", "numpy-notation subscripts are single letters, '_i' is not"),
            bad(NUMPY_EINSUM, "ij->1", 5, "1", "numpy-notation subscripts are single letters, '1' is not allowed"),
            bad(NUMPY_EINSUM, "(ij)->ij", 1, "(ij)", "numpy-notation subscripts are single letters, '(' is not allowed"),
            bad(NUMPY_EINSUM, "i*j", 2, "*j", "'*' is not allowed"),
            bad(NUMPY_EINSUM, "ij,jk->ik,", 10, ",", "unexpected ','"),
            // ---- commas where there is one input
            bad(REARRANGE, "b, h -> b h", 2, ", h", "',' separates einsum operands; a rearrange pattern has one input"),
            bad(REDUCE, "b h -> b, h", 9, ", h", "a reduce pattern has one input"),
            // ---- '+' outside a window, incomplete or malformed windows
            bad(REARRANGE, "b + h -> b h", 3, "+ h", "'+' is only allowed in a window"),
            bad(REPEAT, "b -> b + c", 8, "+ c", "'+' is only allowed in a window"),
            bad(REARRANGE, "b (h +) -> b h", 7, ") ->", "a window is written (h + kh), with an optional INT* before either name"),
            bad(REARRANGE, "b (h + 2) -> b h", 9, ") ->", "a window is written (h + kh)"),
            bad(REARRANGE, "b (h + k j) -> b h k j", 10, "j)", "unexpected 'j': a window is written (h + kh)"),
            bad(REARRANGE, "b (h + (k)) -> b h k", 8, "(k)", "nested parentheses are not allowed"),
            bad(REARRANGE, "b (+ kh) -> b kh", 4, "+ kh", "'+'"),
            bad(REARRANGE, "b ( + ) -> b", 5, "+ )", "'+'"),
            bad(REARRANGE, "b (2* + kh) -> b kh", 7, "+ kh", "'+'"),
            bad(REARRANGE, "b (h + kh + j) -> b h kh j", 11, "+ j", "'+'"),
            bad(REARRANGE, "b (2 h + k) -> b h k", 8, "+ k", "'+'"),
            bad(REARRANGE, "b (2*h) -> b h", 5, "*h", "'*' cannot be part of a composition"));

    static Stream<Invalid> invalidPatterns() {
        return INVALID.stream();
    }

    @Test
    void tableIsLargeAndCoversEveryOperation() {
        assertThat(INVALID).hasSizeGreaterThanOrEqualTo(80);
        assertThat(INVALID.stream().map(row -> row.operation() + "|" + row.pattern())).doesNotHaveDuplicates();
        Set<Operation> covered = INVALID.stream().map(Invalid::operation)
                .collect(Collectors.toCollection(() -> EnumSet.noneOf(Operation.class)));
        assertThat(covered).containsExactlyInAnyOrder(Operation.values());
    }

    @ParameterizedTest(name = "[{index}] {0}")
    @MethodSource("invalidPatterns")
    void isRejectedAtTheOffendingToken(Invalid row) {
        // The row itself is consistent: the column it expects points at the token it names.
        if (row.at().equals(END)) {
            assertThat(row.column()).as("an end-of-pattern row expects column length + 1")
                    .isEqualTo(row.pattern().length() + 1);
        } else {
            assertThat(row.pattern().startsWith(row.at(), row.column() - 1))
                    .as("row is consistent: \"%s\" stands at column %d", row.at(), row.column()).isTrue();
        }

        PatternSyntaxException e = catchThrowableOfType(PatternSyntaxException.class,
                () -> PatternParser.parseUncached(row.operation(), row.pattern()));
        assertThat(e).as("%s is rejected", row).isNotNull();
        assertThat(e.pattern()).isEqualTo(row.pattern());
        assertThat(e.reason()).contains(row.reason());
        assertThat(e.column()).as("column of: %s (reason: %s)", row, e.reason()).isEqualTo(row.column());

        // The message: the reason, the pattern on its own line, a caret under the column.
        String flat = flat(row.pattern());
        assertThat(e.getMessage())
                .startsWith(e.reason())
                .contains("\n  " + flat)
                .contains("\n  " + " ".repeat(row.column() - 1) + "^")
                .isEqualTo(e.reason() + "\n  " + flat + "\n  " + " ".repeat(row.column() - 1) + "^");
        assertThat(e).isInstanceOf(EinopsException.class);
    }

    @ParameterizedTest(name = "[{index}] {0}")
    @MethodSource("invalidPatterns")
    void errorsAreNotCachedAndAreReportedTheSameEachTime(Invalid row) {
        PatternSyntaxException first = catchThrowableOfType(PatternSyntaxException.class,
                () -> PatternParser.parse(row.operation(), row.pattern()));
        PatternSyntaxException second = catchThrowableOfType(PatternSyntaxException.class,
                () -> PatternParser.parse(row.operation(), row.pattern()));
        assertThat(first).isNotNull();
        assertThat(second).isNotNull().isNotSameAs(first);
        assertThat(second.column()).isEqualTo(first.column()).isEqualTo(row.column());
        assertThat(second.getMessage()).isEqualTo(first.getMessage());
    }

    @Test
    void unbalancedParenthesisMessageIsExactlyAsDocumented() {
        String pattern = "b c (h p1 (w p2) -> b (h w) (p1 p2 c)";
        assertThatThrownBy(() -> PatternParser.parse(REARRANGE, pattern))
                .isInstanceOf(PatternSyntaxException.class)
                .hasMessage("unbalanced parenthesis: '(' at column 5 is never closed\n"
                        + "  b c (h p1 (w p2) -> b (h w) (p1 p2 c)\n"
                        + "      ^");
        PatternSyntaxException e = catchThrowableOfType(PatternSyntaxException.class,
                () -> PatternParser.parse(REARRANGE, pattern));
        assertThat(e.getMessage().lines().findFirst()).hasValue("unbalanced parenthesis: '(' at column 5 is never closed");
        assertThat(e.reason()).isEqualTo("unbalanced parenthesis: '(' at column 5 is never closed");
        assertThat(e.column()).isEqualTo(5);
    }

    @Test
    void tabsAndLineBreaksAreShownAsSpacesSoTheCaretStaysAligned() {
        String pattern = "b\tc\n# -> b c";
        PatternSyntaxException e = catchThrowableOfType(PatternSyntaxException.class,
                () -> PatternParser.parseUncached(REARRANGE, pattern));
        assertThat(e.column()).isEqualTo(5);
        assertThat(e.getMessage()).isEqualTo("unexpected character '#'\n  b c # -> b c\n      ^");
        assertThat(e.pattern()).isEqualTo(pattern);
    }

    @Test
    void nullPatternIsASyntaxErrorWithoutPosition() {
        PatternSyntaxException e = catchThrowableOfType(PatternSyntaxException.class,
                () -> PatternParser.parse(REARRANGE, null));
        assertThat(e).isNotNull();
        assertThat(e.column()).isZero();
        assertThat(e.reason()).isEqualTo("the pattern is null");
        assertThat(e.getMessage()).doesNotContain("^");
    }

    @Test
    void nullOperationIsAProgrammingError() {
        assertThatThrownBy(() -> PatternParser.parse(null, "a -> a"))
                .isInstanceOf(NullPointerException.class).hasMessage("operation");
    }

    /**
     * PARSER BUG (left failing on purpose): parseUncached is public and documented to throw
     * PatternSyntaxException, and EinopsException promises that bad input never surfaces as a
     * NullPointerException; with a null pattern, parseUncached throws NullPointerException from
     * ErrorFormat.pointAt (its catch-all wraps the first NPE into a PatternSyntaxException whose
     * constructor dereferences the null pattern again).
     */
    @Test
    void nullPatternIsASyntaxErrorInParseUncachedToo() {
        assertThatThrownBy(() -> PatternParser.parseUncached(REARRANGE, null))
                .isInstanceOf(PatternSyntaxException.class);
    }

    /**
     * PARSER BUG (left failing on purpose): deeply nested parentheses overflow the stack of the
     * recursive-descent parser before the AST builder can report "nested parentheses are not
     * allowed"; parseUncached then reports "cannot parse pattern: java.lang.StackOverflowError" at
     * column 0 instead of pointing at the second '(' (column 2). 3,000 levels are reported correctly;
     * 100,000 are not (the limit depends on the thread's stack size).
     */
    @Test
    void deeplyNestedParenthesesAreReportedAsNestingNotAsAnInternalFailure() {
        int depth = 100_000;
        String pattern = "(".repeat(depth) + "h" + ")".repeat(depth) + " -> h";
        PatternSyntaxException e = catchThrowableOfType(PatternSyntaxException.class,
                () -> PatternParser.parseUncached(REARRANGE, pattern));
        assertThat(e).isNotNull();
        assertThat(e.reason()).doesNotStartWith("cannot parse pattern").contains("nested parentheses are not allowed");
        assertThat(e.column()).isEqualTo(2);
    }

    @Test
    void moderatelyNestedParenthesesAreReportedAtTheSecondParenthesis() {
        int depth = 1_000;
        String pattern = "b " + "(".repeat(depth) + "h" + ")".repeat(depth) + " -> b h";
        PatternSyntaxException e = catchThrowableOfType(PatternSyntaxException.class,
                () -> PatternParser.parseUncached(REARRANGE, pattern));
        assertThat(e.column()).isEqualTo(4);
        assertThat(e.reason()).contains("nested parentheses are not allowed");
    }

    private static String flat(String pattern) {
        return pattern.replace('\t', ' ').replace('\n', ' ').replace('\r', ' ');
    }
}
