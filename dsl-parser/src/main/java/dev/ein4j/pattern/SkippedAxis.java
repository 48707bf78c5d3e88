package dev.ein4j.pattern;

/**
 * {@code _} in a parse_shape or check_shape pattern: an axis whose length is not wanted, {@code "b _ h w"}.
 *
 * @param span where it was written
 */
public record SkippedAxis(Span span) implements AxisTerm {

    @Override
    public boolean equals(Object other) {
        return other instanceof SkippedAxis;
    }

    @Override
    public int hashCode() {
        return SkippedAxis.class.hashCode();
    }

    @Override
    public String toString() {
        return "_";
    }
}
