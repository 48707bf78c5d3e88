package dev.ein4j.error;

/** Renders the two-line "pattern, caret" block that every pattern-related message ends with. */
public final class ErrorFormat {

    private ErrorFormat() {
    }

    /**
     * The pattern on one line, indented by two spaces, and a caret under the given column.
     * Tabs and line breaks in the pattern are shown as spaces so the caret stays aligned.
     *
     * @param pattern the pattern as the user wrote it
     * @param column 1-based column of the offending character, or 0 for none (no caret line)
     * @return the block, starting with a line break
     */
    public static String pointAt(String pattern, int column) {
        String flat = pattern.replace('\t', ' ').replace('\n', ' ').replace('\r', ' ');
        StringBuilder out = new StringBuilder("\n  ").append(flat);
        if (column >= 1) {
            out.append("\n  ").append(" ".repeat(Math.min(column - 1, flat.length()))).append('^');
        }
        return out.toString();
    }
}
