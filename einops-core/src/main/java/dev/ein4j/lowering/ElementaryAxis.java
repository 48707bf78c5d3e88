package dev.ein4j.lowering;

import dev.ein4j.pattern.Span;

/**
 * An axis after compositions and ellipses are taken apart: {@code h} and {@code p1} in
 * {@code (h p1)}, {@code …0} for the first axis an ellipsis stands for, {@code #3} for an anonymous
 * axis written at offset 3.
 *
 * @param name the axis' name; ellipsis axes and anonymous axes get names no user can write
 * @param knownLength the length written in the pattern (anonymous axes), or −1
 * @param span where the term was written, for error messages
 */
record ElementaryAxis(String name, int knownLength, Span span) {

    /** Prefix of the names of ellipsis axes. */
    static final String ELLIPSIS_PREFIX = "…";

    boolean isEllipsis() {
        return name.startsWith(ELLIPSIS_PREFIX);
    }
}
