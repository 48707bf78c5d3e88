package dev.ein4j.lowering;

import dev.ein4j.pattern.Span;
import java.util.List;

/**
 * One dimension of a tensor as a pattern describes it: the elementary axes composed into it, outer
 * first (none for a unit axis, which has length 1).
 *
 * @param axes the composed axes
 * @param span the term that describes the dimension
 */
record Dimension(List<ElementaryAxis> axes, Span span) {
}
