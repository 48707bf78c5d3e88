package dev.ein4j.models.tokenizer;

import java.util.ArrayList;
import java.util.List;
import java.util.function.IntPredicate;

/**
 * A range of a text, in UTF-16 units, and whether a pattern matched it. The spans of a text cover it
 * in order: matches and the gaps between them.
 *
 * @param start first index, inclusive
 * @param end last index, exclusive
 * @param match whether the pattern matched here (false for a gap)
 */
record Span(int start, int end, boolean match) {

    /**
     * Hugging Face's character patterns: every code point that satisfies the predicate is a match of
     * its own (so a run of three is three matches).
     *
     * @param text a text
     * @param predicate which code points match
     * @return the spans of the text; one gap covering an empty text
     */
    static List<Span> ofCodePoints(String text, IntPredicate predicate) {
        List<Span> spans = new ArrayList<>();
        int gapStart = 0;
        for (int i = 0; i < text.length(); ) {
            int codePoint = text.codePointAt(i);
            int next = i + Character.charCount(codePoint);
            if (predicate.test(codePoint)) {
                if (gapStart < i) {
                    spans.add(new Span(gapStart, i, false));
                }
                spans.add(new Span(i, next, true));
                gapStart = next;
            }
            i = next;
        }
        if (gapStart < text.length() || spans.isEmpty()) {
            spans.add(new Span(gapStart, text.length(), false));
        }
        return spans;
    }

    /** @return this span with its match flag flipped */
    Span inverted() {
        return new Span(start, end, !match);
    }
}
