package dev.ein4j.pattern;

/**
 * {@code ...}: every axis not otherwise named, at most once per operand.
 *
 * @param span where it was written
 */
public record EllipsisAxis(Span span) implements AxisTerm {

    @Override
    public boolean equals(Object other) {
        return other instanceof EllipsisAxis;
    }

    @Override
    public int hashCode() {
        return EllipsisAxis.class.hashCode();
    }

    @Override
    public String toString() {
        return "...";
    }
}
