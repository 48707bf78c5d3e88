package dev.ein4j.nn.io;

/**
 * The reading position shared by the two small header parsers ({@link Json} for safetensors,
 * {@link NpyHeader} for numpy's Python-literal dict): the text, where reading is, how deeply values
 * nest (bounded, so a hostile header cannot exhaust the stack), and errors that name the file and
 * the character.
 */
abstract class HeaderScanner {

    protected final String source;
    protected final String text;
    protected int pos;
    protected int depth;
    private final int maxDepth;
    private final String whitespace;

    /**
     * @param source the file, for messages
     * @param text the header text
     * @param maxDepth how deeply values may nest
     * @param whitespace the characters skipped between tokens
     */
    protected HeaderScanner(String source, String text, int maxDepth, String whitespace) {
        this.source = source;
        this.text = text;
        this.maxDepth = maxDepth;
        this.whitespace = whitespace;
    }

    /** @return the message of an error at the current position */
    protected abstract String message(String problem);

    protected final TensorFormatException error(String problem) {
        return Limits.fail(source, message(problem));
    }

    /** Enters one level of nesting (the caller leaves it with {@code depth--}). */
    protected final void enter() {
        if (++depth > maxDepth) {
            throw error("nested deeper than " + maxDepth + " levels");
        }
    }

    protected final void expect(char c) {
        if (peek() != c) {
            throw error("expected '" + c + "'");
        }
        pos++;
    }

    /** @return the current character, or {@code '\0'} at the end */
    protected final char peek() {
        return pos < text.length() ? text.charAt(pos) : '\0';
    }

    protected final void skipWhitespace() {
        while (pos < text.length() && whitespace.indexOf(text.charAt(pos)) >= 0) {
            pos++;
        }
    }

    /** @return a character as it reads in a message: quoted when printable, else its code point */
    protected static String describe(char c) {
        return c >= 0x20 && c < 0x7f ? "'" + c + "'" : String.format("U+%04X", (int) c);
    }
}
