package dev.ein4j.opencl.codegen;

/** Builds OpenCL C source line by line, indenting blocks, so generated programs stay readable in error messages. */
final class SourceWriter {

    private final StringBuilder text = new StringBuilder();
    private int depth;

    /**
     * @param line one statement or declaration, without the newline
     * @return this writer
     */
    SourceWriter line(String line) {
        text.append("    ".repeat(depth)).append(line).append('\n');
        return this;
    }

    /**
     * Writes a line ending in "{" and indents what follows.
     *
     * @param header the block's header, such as {@code "for (int k = 0; k < 4; k++)"}; empty for a bare block
     * @return this writer
     */
    SourceWriter open(String header) {
        line(header.isEmpty() ? "{" : header + " {");
        depth++;
        return this;
    }

    /** @return this writer, after closing the innermost block */
    SourceWriter close() {
        depth--;
        return line("}");
    }

    /**
     * @param source text to copy as it is (a preamble)
     * @return this writer
     */
    SourceWriter raw(String source) {
        text.append(source);
        return this;
    }

    @Override
    public String toString() {
        return text.toString();
    }
}
