package dev.ein4j.error;

/**
 * A pattern that is rejected whatever the inputs: a grammar error (unbalanced parenthesis, a stray
 * character, a missing {@code ->}) or a rule of the operation (a duplicate name, a second ellipsis,
 * an output name that no input has, ...).
 *
 * <pre>
 * unbalanced parenthesis: '(' at column 5 is never closed
 *   b c (h p1 (w p2) -&gt; b (h w) (p1 p2 c)
 *       ^
 * </pre>
 */
public class PatternSyntaxException extends EinopsException {

    private final String pattern;
    private final int column;
    private final String reason;

    /**
     * @param pattern the pattern as written
     * @param column 1-based column of the offending character (0 when the problem has no position)
     * @param reason the problem in words, without the pattern
     */
    public PatternSyntaxException(String pattern, int column, String reason) {
        super(reason + ErrorFormat.pointAt(pattern, column));
        this.pattern = pattern;
        this.column = column;
        this.reason = reason;
    }

    /** @return the pattern as the user wrote it */
    public String pattern() {
        return pattern;
    }

    /** @return the 1-based column of the offending character, 0 when the problem has no position */
    public int column() {
        return column;
    }

    /** @return the problem in words, without the pattern and caret */
    public String reason() {
        return reason;
    }
}
