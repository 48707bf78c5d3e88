package dev.ein4j.pattern;

import java.util.Objects;

/**
 * One side of a window, {@code coefficient * name}: {@code 2*h} (stride 2) or {@code kh}
 * (coefficient 1).
 *
 * @param coefficient the multiplier, at least 1
 * @param name the axis name
 * @param span where it was written
 */
public record AffineIndex(long coefficient, String name, Span span) {

    @Override
    public boolean equals(Object other) {
        return other instanceof AffineIndex that && coefficient == that.coefficient && name.equals(that.name);
    }

    @Override
    public int hashCode() {
        return Objects.hash(coefficient, name);
    }

    @Override
    public String toString() {
        return coefficient == 1 ? name : coefficient + "*" + name;
    }
}
