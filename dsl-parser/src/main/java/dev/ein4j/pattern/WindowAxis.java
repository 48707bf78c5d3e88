package dev.ein4j.pattern;

import java.util.Objects;

/**
 * A sliding window over one input axis, {@code (s*h + d*k)}: the input index is s·h + d·k, where
 * h runs over the output positions and k over the kernel. {@code (h + kh)} is a stride-1 window,
 * {@code (2*h + kh)} has stride 2, {@code (h + 2*kh)} dilation 2. The input axis has length
 * s·(H − 1) + d·(K − 1) + 1, so H = (length − d·(K − 1) − 1) / s + 1 when K is known.
 *
 * @param outer the output-position index, with its stride
 * @param inner the kernel index, with its dilation
 * @param span where the window was written, parentheses included
 */
public record WindowAxis(AffineIndex outer, AffineIndex inner, Span span) implements AxisTerm {

    @Override
    public boolean equals(Object other) {
        return other instanceof WindowAxis that && outer.equals(that.outer) && inner.equals(that.inner);
    }

    @Override
    public int hashCode() {
        return Objects.hash(outer, inner);
    }

    @Override
    public String toString() {
        return "(" + outer + " + " + inner + ")";
    }
}
