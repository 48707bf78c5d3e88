package dev.ein4j.pattern;

/**
 * Where a term stands in its pattern: character offsets, start inclusive, end exclusive.
 *
 * @param start 0-based offset of the first character
 * @param end 0-based offset one past the last character
 */
public record Span(int start, int end) {

    /** A span for terms that were not written by the user (numpy's implicit output). */
    public static final Span NONE = new Span(-1, -1);

    /** @return the 1-based column of the first character, 0 for {@link #NONE} */
    public int column() {
        return start + 1;
    }
}
