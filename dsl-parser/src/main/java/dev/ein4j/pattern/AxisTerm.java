package dev.ein4j.pattern;

/**
 * One term of an operand: what stands between the spaces of {@code "b (h w) ... 1"}.
 *
 * <p>Terms are immutable values. Equality ignores where a term was written: {@code "(h w)"} parsed
 * from two different patterns gives equal terms, so a pattern's canonical {@code toString()}
 * re-parses to an equal value. {@code toString()} prints the canonical form.
 */
public sealed interface AxisTerm
        permits AxisName, AnonymousAxis, UnitAxis, EllipsisAxis, Composition, WindowAxis, PackedAxes, SkippedAxis {

    /** @return where the term was written; {@link Span#NONE} for terms the parser made up */
    Span span();
}
