package dev.ein4j.lowering;

import dev.ein4j.pattern.Span;
import java.util.List;

/**
 * One dimension of a tensor as a pattern describes it: the elementary axes composed into it, outer
 * first (none for a unit axis, which has length 1), or, for a window {@code (s*h + d*k)}, the two
 * axes h and k that a WINDOW step makes of it.
 *
 * @param axes the composed axes, or [h, k] for a window
 * @param span the term that describes the dimension
 * @param stride the window's stride s (0 when this is not a window)
 * @param dilation the window's dilation d (0 when this is not a window)
 */
record Dimension(List<ElementaryAxis> axes, Span span, int stride, int dilation) {

    /** A plain dimension: a composition of axes. */
    Dimension(List<ElementaryAxis> axes, Span span) {
        this(axes, span, 0, 0);
    }

    /** @return whether this dimension is a sliding window */
    boolean isWindow() {
        return stride > 0;
    }
}
