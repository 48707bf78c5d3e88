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

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Valid patterns of every operation: each parses, its canonical {@code toString()} re-parses to an
 * equal {@link ParsedPattern}, and printing is idempotent. A subset also pins the exact canonical
 * string and the AST structure.
 */
class ValidPatternsTest {

    /** A valid pattern and the operation it is valid for. Shared with {@link ParserFuzzTest} as mutation seeds. */
    record Valid(Operation operation, String pattern) {
        @Override
        public String toString() {
            return operation + ": \"" + escape(pattern) + "\"";
        }
    }

    static final List<Valid> VALID = List.of(
            // ---- rearrange: names, compositions, whitespace
            v(REARRANGE, "b c (h p1) (w p2) -> b (h w) (p1 p2 c)"),
            v(REARRANGE, "b h w c -> b c h w"),
            v(REARRANGE, "b h w c->b c h w"),
            v(REARRANGE, "  b   h  w   c  ->   b c h w  "),
            v(REARRANGE, "b\th\tw -> b (h w)"),
            v(REARRANGE, "b\nh w\n->\nb (h w)"),
            v(REARRANGE, "b \t\r\n h -> h b"),
            v(REARRANGE, "( h  w ) -> h w"),
            v(REARRANGE, "b (h w) -> b h w"),
            v(REARRANGE, "(h w) -> (w h)"),
            v(REARRANGE, "h -> (h)"),
            v(REARRANGE, "(h) -> h"),
            v(REARRANGE, "head_dim seq -> seq head_dim"),
            v(REARRANGE, "B H W -> H W B"),
            v(REARRANGE, "a1 b22 c_3 -> c_3 b22 a1"),
            v(REARRANGE, "a__b c -> c a__b"),
            v(REARRANGE, "x -> x"),
            v(REARRANGE, " -> "),
            v(REARRANGE, "->"),
            // ---- rearrange: unit axes 1 and ()
            v(REARRANGE, "b h w -> b 1 h w"),
            v(REARRANGE, "b () h w -> b h w"),
            v(REARRANGE, "b 1 h -> b h"),
            v(REARRANGE, "b 01 h -> b h"),
            v(REARRANGE, "() -> ()"),
            v(REARRANGE, "1 -> ()"),
            v(REARRANGE, "b h -> b (h 1)"),
            v(REARRANGE, "b h -> b (1 h 1)"),
            v(REARRANGE, "(1) -> ()"),
            v(REARRANGE, "b (h w) -> b h w ()"),
            // ---- rearrange: ellipsis, also inside compositions
            v(REARRANGE, "... -> ..."),
            v(REARRANGE, "b ... c -> b c ..."),
            v(REARRANGE, "b ... c -> b (...) c"),
            v(REARRANGE, "c ... -> (... c)"),
            v(REARRANGE, "... h w -> ... (h w)"),
            // ---- rearrange: windows on the left
            v(REARRANGE, "(h + kh) w -> h kh w"),
            v(REARRANGE, "b (2*h + kh) (w + 3*kw) -> b h w kh kw"),
            v(REARRANGE, "(h+kh)->h kh"),
            v(REARRANGE, "( 2 * h + kh ) -> h kh"),
            v(REARRANGE, "(1*h + 1*kh) -> h kh"),
            v(REARRANGE, "(h + kh) -> (h kh)"),
            // ---- reduce: dropping names, anonymous axes on the left, windows
            v(REDUCE, "b c h w -> b c"),
            v(REDUCE, "b c (h 2) (w 2) -> b c h w"),
            v(REDUCE, "b c h w ->"),
            v(REDUCE, "b c h w -> "),
            v(REDUCE, "b c h w -> b c () ()"),
            v(REDUCE, "b c h w -> b c 1 1"),
            v(REDUCE, "b 2 h -> b h"),
            v(REDUCE, "b 007 -> b"),
            v(REDUCE, "... c -> c"),
            v(REDUCE, "b ... -> b"),
            v(REDUCE, "b ... c -> b ... c"),
            v(REDUCE, "b (h + kh) (w + kw) -> b h w"),
            v(REDUCE, "b (2*h + kh) -> b h"),
            v(REDUCE, "b (h + 2*kh) -> b h kh"),
            v(REDUCE, "b (h 9223372036854775807) -> b"),
            v(REDUCE, "(b 3) ... -> (...)"),
            // ---- repeat: adding names, anonymous axes on the right
            v(REPEAT, "h w -> h w c"),
            v(REPEAT, "h w -> h w 3"),
            v(REPEAT, "h w -> (h 2) (w 2)"),
            v(REPEAT, "h w -> (2 h) (w 2) 1"),
            v(REPEAT, " -> b"),
            v(REPEAT, "... -> ... c"),
            v(REPEAT, "b ... -> b (... c)"),
            v(REPEAT, "b () h -> b 1 h 4"),
            v(REPEAT, "h -> (h c)"),
            v(REPEAT, "b -> b 9223372036854775807"),
            // ---- einsum, einops notation
            v(EINSUM, "b h i d, b h j d -> b h i j"),
            v(EINSUM, "i j, j k -> i k"),
            v(EINSUM, "i j,j k->i k"),
            v(EINSUM, "i i -> i"),
            v(EINSUM, "i i ->"),
            v(EINSUM, "i ->"),
            v(EINSUM, "i j -> j i"),
            v(EINSUM, "... i j, ... j k -> ... i k"),
            v(EINSUM, "b (h + kh), kh -> b h"),
            v(EINSUM, "b c (2*h + kh) (w + kw), o c kh kw -> b o h w"),
            v(EINSUM, "b (h + 2*kh), kh -> b h"),
            v(EINSUM, "a, b, c -> a b c"),
            v(EINSUM, "i -> i 1"),
            v(EINSUM, "i -> i ()"),
            v(EINSUM, "i 2 -> i"),
            v(EINSUM, "(i j), j -> i"),
            v(EINSUM, "i j, j k -> (i k)"),
            v(EINSUM, "... i -> (...) i"),
            v(EINSUM, "i\n,\tj -> i j"),
            v(EINSUM, "->"),
            v(EINSUM, "i, , j -> i j"),
            // ---- einsum, numpy notation
            v(NUMPY_EINSUM, "ij,jk->ik"),
            v(NUMPY_EINSUM, "ij,jk"),
            v(NUMPY_EINSUM, "...ij,...jk"),
            v(NUMPY_EINSUM, "ba"),
            v(NUMPY_EINSUM, "ii->i"),
            v(NUMPY_EINSUM, "ii"),
            v(NUMPY_EINSUM, "bhid,bhjd->bhij"),
            v(NUMPY_EINSUM, "ij->"),
            v(NUMPY_EINSUM, "i,i"),
            v(NUMPY_EINSUM, "i j , j k -> i k"),
            v(NUMPY_EINSUM, "...ij->...ji"),
            v(NUMPY_EINSUM, "i...j->ij..."),
            v(NUMPY_EINSUM, "..."),
            v(NUMPY_EINSUM, ""),
            v(NUMPY_EINSUM, "->"),
            v(NUMPY_EINSUM, ","),
            v(NUMPY_EINSUM, "Ab,bC"),
            v(NUMPY_EINSUM, "zyx"),
            v(NUMPY_EINSUM, "ij,jk,kl"),
            v(NUMPY_EINSUM, "i\tj,\njk"),
            // ---- pack / unpack
            v(PACK, "b * c"),
            v(PACK, "*"),
            v(PACK, "* c"),
            v(PACK, "b *"),
            v(PACK, "i j * k"),
            v(UNPACK, "b * c"),
            v(UNPACK, "*"),
            v(UNPACK, "  h w  *  "),
            v(UNPACK, "b\t*\nc"),
            // ---- parse_shape
            v(PARSE_SHAPE, "b _ h w"),
            v(PARSE_SHAPE, "1 2 3 a"),
            v(PARSE_SHAPE, "() 2 b"),
            v(EINSUM, "i j, j k -> ... i"),
            v(NUMPY_EINSUM, "ij->...ij"),
            v(REARRANGE, "a(b c) -> (a)b c"),
            v(PARSE_SHAPE, "_ _ h"),
            v(PARSE_SHAPE, "b ... "),
            v(PARSE_SHAPE, "_ ... c"),
            v(PARSE_SHAPE, ""),
            v(PARSE_SHAPE, "b c h w"),
            // ---- check_shape
            v(CHECK_SHAPE, "b c h w"),
            v(CHECK_SHAPE, "b (h w) c"),
            v(CHECK_SHAPE, "b _ (h 2) 1"),
            v(CHECK_SHAPE, "... (h w) ()"),
            v(CHECK_SHAPE, ""),
            // ---- a window may share a name with another term of an einsum input (a diagonal)
            v(EINSUM, "b (h + k) k -> b h"));

    private static Valid v(Operation operation, String pattern) {
        return new Valid(operation, pattern);
    }

    static Stream<Valid> validPatterns() {
        return VALID.stream();
    }

    @Test
    void tableIsLargeAndCoversEveryOperation() {
        assertThat(VALID).hasSizeGreaterThanOrEqualTo(90);
        assertThat(VALID).doesNotHaveDuplicates();
        Set<Operation> covered = VALID.stream().map(Valid::operation)
                .collect(Collectors.toCollection(() -> EnumSet.noneOf(Operation.class)));
        assertThat(covered).containsExactlyInAnyOrder(Operation.values());
    }

    @ParameterizedTest(name = "[{index}] {0}")
    @MethodSource("validPatterns")
    void canonicalFormReparsesToAnEqualPatternAndIsIdempotent(Valid row) {
        ParsedPattern parsed = PatternParser.parseUncached(row.operation(), row.pattern());
        assertThat(parsed.operation()).isEqualTo(row.operation());
        assertThat(parsed.source()).isEqualTo(row.pattern());
        assertThat(parsed.inputs()).isNotEmpty();

        String canonical = parsed.toString();
        ParsedPattern reparsed = PatternParser.parseUncached(row.operation(), canonical);
        assertThat(reparsed).as("canonical form \"%s\" re-parses to an equal pattern", escape(canonical))
                .isEqualTo(parsed);
        assertThat(reparsed.hashCode()).isEqualTo(parsed.hashCode());
        assertThat(reparsed.toString()).as("printing is idempotent").isEqualTo(canonical);
        assertThat(PatternParser.parseUncached(row.operation(), reparsed.toString())).isEqualTo(parsed);

        // The canonical form is written with single spaces: no tabs, line breaks or doubled spaces.
        assertThat(canonical).doesNotContain("\t", "\n", "\r", "  ");
        // The operation is part of the value.
        if (row.operation().isArrow() || row.operation().isEinsum()) {
            assertThat(parsed.output()).isPresent();
        } else {
            assertThat(parsed.output()).isEmpty();
        }
    }

    @ParameterizedTest(name = "[{index}] {0}")
    @MethodSource("validPatterns")
    void cachedParseAgreesWithUncachedAndReturnsTheSameInstance(Valid row) {
        ParsedPattern first = PatternParser.parse(row.operation(), row.pattern());
        ParsedPattern second = PatternParser.parse(row.operation(), row.pattern());
        assertThat(second).isSameAs(first);
        assertThat(first).isEqualTo(PatternParser.parseUncached(row.operation(), row.pattern()));
        assertThat(first.source()).isEqualTo(row.pattern());
    }

    // ------------------------------------------------------------------ exact canonical strings

    static Stream<Arguments> canonicalForms() {
        return Stream.of(
                Arguments.of(REARRANGE, "b c (h p1) (w p2) -> b (h w) (p1 p2 c)", "b c (h p1) (w p2) -> b (h w) (p1 p2 c)"),
                Arguments.of(REARRANGE, "  b\th \n w->b   ( h\tw ) ", "b h w -> b (h w)"),
                Arguments.of(REARRANGE, "b h w -> b 1 h w", "b h w -> b () h w"),
                Arguments.of(REARRANGE, "b h -> b ( 1 h 1 )", "b h -> b (1 h 1)"),
                Arguments.of(REARRANGE, "->", " ->"),
                Arguments.of(REARRANGE, "( 2 * h + kh ) -> h kh", "(2*h + kh) -> h kh"),
                Arguments.of(REARRANGE, "(1*h + 1*kh) -> h kh", "(h + kh) -> h kh"),
                Arguments.of(REARRANGE, "b 01 h -> b h", "b () h -> b h"),
                Arguments.of(REDUCE, "b c h w ->", "b c h w ->"),
                Arguments.of(REDUCE, "b 007 -> b", "b 7 -> b"),
                Arguments.of(REPEAT, "h w -> (2 h) (w 2) 1", "h w -> (2 h) (w 2) ()"),
                Arguments.of(EINSUM, "i j,j k->i k", "i j, j k -> i k"),
                Arguments.of(EINSUM, "i\n,\tj -> i j", "i, j -> i j"),
                Arguments.of(EINSUM, "i, , j -> i j", "i, , j -> i j"),
                Arguments.of(NUMPY_EINSUM, "ij,jk", "ij,jk->ik"),
                Arguments.of(NUMPY_EINSUM, "...ij,...jk", "...ij,...jk->...ik"),
                Arguments.of(NUMPY_EINSUM, "ba", "ba->ab"),
                Arguments.of(NUMPY_EINSUM, "ii", "ii->"),
                Arguments.of(NUMPY_EINSUM, "Ab,bC", "Ab,bC->AC"),
                Arguments.of(NUMPY_EINSUM, "i j , j k -> i k", "ij,jk->ik"),
                Arguments.of(NUMPY_EINSUM, "", "->"),
                Arguments.of(PACK, "  b   *\tc ", "b * c"),
                Arguments.of(PARSE_SHAPE, "b  _ h\nw", "b _ h w"));
    }

    @ParameterizedTest(name = "[{index}] {0} \"{1}\" -> \"{2}\"")
    @MethodSource("canonicalForms")
    void canonicalStringIsExactlyAsDocumented(Operation operation, String pattern, String expected) {
        assertThat(PatternParser.parseUncached(operation, pattern).toString()).isEqualTo(expected);
    }

    // ------------------------------------------------------------------ structure

    @Test
    void rearrangeSplitsAndMergesCompositions() {
        ParsedPattern p = PatternParser.parseUncached(REARRANGE, "b c (h p1) (w p2) -> b (h w) (p1 p2 c)");
        assertThat(p.inputs()).hasSize(1);
        assertThat(p.input().terms()).containsExactly(
                name("b"), name("c"), composition(name("h"), name("p1")), composition(name("w"), name("p2")));
        assertThat(p.output().orElseThrow().terms()).containsExactly(
                name("b"), composition(name("h"), name("w")), composition(name("p1"), name("p2"), name("c")));
        assertThat(p.input().terms()).hasExactlyElementsOfTypes(
                AxisName.class, AxisName.class, Composition.class, Composition.class);
        assertThat(p.input().names()).extracting(AxisName::name).containsExactly("b", "c", "h", "p1", "w", "p2");
        assertThat(p.input().hasEllipsis()).isFalse();
    }

    @Test
    void spansPointAtTheWrittenTerms() {
        String pattern = "b  (h w) ... -> b ... (h w)";
        ParsedPattern p = PatternParser.parseUncached(REARRANGE, pattern);
        List<AxisTerm> left = p.input().terms();
        assertThat(left.get(0).span()).isEqualTo(new Span(0, 1));
        assertThat(left.get(1).span()).isEqualTo(new Span(3, 8));
        assertThat(((Composition) left.get(1)).members().get(1).span()).isEqualTo(new Span(6, 7));
        assertThat(left.get(2).span()).isEqualTo(new Span(9, 12));
        assertThat(left.get(2).span().column()).isEqualTo(10);
        List<AxisTerm> right = p.output().orElseThrow().terms();
        assertThat(pattern.substring(right.get(2).span().start(), right.get(2).span().end())).isEqualTo("(h w)");
    }

    @Test
    void equalityIgnoresSpansAndSourceButNotOperation() {
        ParsedPattern a = PatternParser.parseUncached(REDUCE, "b c h w -> b c");
        ParsedPattern b = PatternParser.parseUncached(REDUCE, "  b\tc h   w->b c ");
        assertThat(b).isEqualTo(a).hasSameHashCodeAs(a);
        assertThat(b.source()).isNotEqualTo(a.source());
        assertThat(PatternParser.parseUncached(REARRANGE, "b c -> c b"))
                .isNotEqualTo(PatternParser.parseUncached(REPEAT, "b c -> c b"));
        assertThat(PatternParser.parseUncached(PACK, "b * c"))
                .isNotEqualTo(PatternParser.parseUncached(UNPACK, "b * c"));
        // 1 and () are the same unit axis; 2 is not.
        assertThat(PatternParser.parseUncached(REARRANGE, "b 1 -> b"))
                .isEqualTo(PatternParser.parseUncached(REARRANGE, "b () -> b"));
        assertThat(PatternParser.parseUncached(REDUCE, "b 2 -> b"))
                .isNotEqualTo(PatternParser.parseUncached(REDUCE, "b 3 -> b"));
    }

    @Test
    void unitAxesAreUnitAxesWhetherWrittenOneOrEmptyParentheses() {
        ParsedPattern p = PatternParser.parseUncached(REARRANGE, "b () h 1 -> b (h 1) () ()");
        assertThat(p.input().terms()).hasExactlyElementsOfTypes(
                AxisName.class, UnitAxis.class, AxisName.class, UnitAxis.class);
        Composition composed = (Composition) p.output().orElseThrow().terms().get(1);
        assertThat(composed.members()).hasExactlyElementsOfTypes(AxisName.class, UnitAxis.class);
        assertThat(composed.toString()).isEqualTo("(h 1)");
    }

    @Test
    void anonymousAxesKeepTheirLength() {
        ParsedPattern reduce = PatternParser.parseUncached(REDUCE, "b (h 2) 9223372036854775807 -> b h");
        Composition composed = (Composition) reduce.input().terms().get(1);
        assertThat(composed.members().get(1)).isEqualTo(new AnonymousAxis(2, Span.NONE));
        assertThat(reduce.input().terms().get(2)).isEqualTo(new AnonymousAxis(Long.MAX_VALUE, Span.NONE));
        ParsedPattern repeat = PatternParser.parseUncached(REPEAT, "h -> h 3");
        assertThat(repeat.output().orElseThrow().terms().get(1)).isEqualTo(new AnonymousAxis(3, Span.NONE));
    }

    @Test
    void windowsHaveStrideAndDilation() {
        ParsedPattern p = PatternParser.parseUncached(EINSUM, "b (2*h + kh) (w + 3*kw), kh kw -> b h w");
        List<AxisTerm> terms = p.inputs().get(0).terms();
        assertThat(terms).hasExactlyElementsOfTypes(AxisName.class, WindowAxis.class, WindowAxis.class);
        WindowAxis h = (WindowAxis) terms.get(1);
        assertThat(h.outer()).isEqualTo(new AffineIndex(2, "h", Span.NONE));
        assertThat(h.inner()).isEqualTo(new AffineIndex(1, "kh", Span.NONE));
        WindowAxis w = (WindowAxis) terms.get(2);
        assertThat(w.outer().coefficient()).isEqualTo(1);
        assertThat(w.inner().coefficient()).isEqualTo(3);
        assertThat(w.inner().name()).isEqualTo("kw");
        assertThat(w.toString()).isEqualTo("(w + 3*kw)");
        // Window names count as names of the operand.
        assertThat(p.inputs().get(0).names()).extracting(AxisName::name).containsExactly("b", "h", "kh", "w", "kw");
    }

    @Test
    void ellipsisInsideACompositionCounts() {
        ParsedPattern p = PatternParser.parseUncached(REARRANGE, "b ... c -> b (...) c");
        Operand right = p.output().orElseThrow();
        assertThat(right.hasEllipsis()).isTrue();
        assertThat(((Composition) right.terms().get(1)).members()).containsExactly(new EllipsisAxis(Span.NONE));
    }

    @Test
    void einsumOperandsAndDiagonals() {
        ParsedPattern p = PatternParser.parseUncached(EINSUM, "b h i d, b h j d -> b h i j");
        assertThat(p.inputs()).hasSize(2);
        assertThat(p.inputs().get(1).names()).extracting(AxisName::name).containsExactly("b", "h", "j", "d");
        ParsedPattern diagonal = PatternParser.parseUncached(EINSUM, "i i -> i");
        assertThat(diagonal.input().names()).extracting(AxisName::name).containsExactly("i", "i");
        assertThat(diagonal.output().orElseThrow().names()).extracting(AxisName::name).containsExactly("i");
    }

    @Test
    void numpyImplicitOutputIsSortedLettersUsedOnceAfterTheEllipsis() {
        assertThat(implicitOutput("ij,jk")).isEqualTo(explicitOutput("ij,jk->ik"));
        assertThat(implicitOutput("ij,jk").terms()).containsExactly(name("i"), name("k"));
        assertThat(implicitOutput("...ij,...jk")).isEqualTo(explicitOutput("...ij,...jk->...ik"));
        assertThat(implicitOutput("...ij,...jk").terms()).containsExactly(new EllipsisAxis(Span.NONE), name("i"), name("k"));
        assertThat(implicitOutput("ba").terms()).containsExactly(name("a"), name("b"));
        assertThat(implicitOutput("ii").terms()).isEmpty();
        assertThat(implicitOutput("i,i").terms()).isEmpty();
        assertThat(implicitOutput("iij,k").terms()).containsExactly(name("j"), name("k"));
        assertThat(implicitOutput("Ab,bC").terms()).containsExactly(name("A"), name("C"));
        assertThat(PatternParser.parseUncached(NUMPY_EINSUM, "ij,jk"))
                .isEqualTo(PatternParser.parseUncached(NUMPY_EINSUM, "ij,jk->ik"));
        assertThat(PatternParser.parseUncached(NUMPY_EINSUM, "ba"))
                .isEqualTo(PatternParser.parseUncached(NUMPY_EINSUM, "ba->ab"));
    }

    @Test
    void numpyLettersAreOneAxisEach() {
        ParsedPattern p = PatternParser.parseUncached(NUMPY_EINSUM, "bhid,bhjd->bhij");
        assertThat(p.inputs()).hasSize(2);
        assertThat(p.inputs().get(0).terms()).containsExactly(name("b"), name("h"), name("i"), name("d"));
        assertThat(p.inputs().get(0).terms().get(2).span()).isEqualTo(new Span(2, 3));
        // The same contraction in both notations has the same terms.
        assertThat(p.inputs()).isEqualTo(PatternParser.parseUncached(EINSUM, "b h i d, b h j d -> b h i j").inputs());
    }

    @Test
    void packAndParseShapeHaveOneOperandAndNoOutput() {
        ParsedPattern pack = PatternParser.parseUncached(PACK, "b * c");
        assertThat(pack.inputs()).hasSize(1);
        assertThat(pack.output()).isEmpty();
        assertThat(pack.input().terms()).containsExactly(name("b"), new PackedAxes(Span.NONE), name("c"));
        ParsedPattern shape = PatternParser.parseUncached(PARSE_SHAPE, "b _ h w");
        assertThat(shape.output()).isEmpty();
        assertThat(shape.input().terms()).hasExactlyElementsOfTypes(
                AxisName.class, SkippedAxis.class, AxisName.class, AxisName.class);
        assertThat(shape.toString()).isEqualTo("b _ h w");
    }

    @Test
    void everyValidRowIsAlsoValidAfterItsCanonicalFormIsReparsedUnderTheCache() {
        List<String> mismatches = new ArrayList<>();
        for (Valid row : VALID) {
            ParsedPattern parsed = PatternParser.parse(row.operation(), row.pattern());
            ParsedPattern canonical = PatternParser.parse(row.operation(), parsed.toString());
            if (!canonical.equals(parsed)) {
                mismatches.add(row + " -> " + parsed);
            }
        }
        assertThat(mismatches).isEmpty();
    }

    // ------------------------------------------------------------------ helpers

    private static Operand implicitOutput(String pattern) {
        return PatternParser.parseUncached(NUMPY_EINSUM, pattern).output().orElseThrow();
    }

    private static Operand explicitOutput(String pattern) {
        return PatternParser.parseUncached(NUMPY_EINSUM, pattern).output().orElseThrow();
    }

    private static AxisName name(String name) {
        return new AxisName(name, Span.NONE);
    }

    private static Composition composition(AxisTerm... members) {
        return new Composition(List.of(members), Span.NONE);
    }

    static String escape(String text) {
        return text.replace("\\", "\\\\").replace("\t", "\\t").replace("\n", "\\n").replace("\r", "\\r");
    }
}
