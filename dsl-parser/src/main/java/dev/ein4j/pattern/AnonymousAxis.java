package dev.ein4j.pattern;

/**
 * An axis known only by its length, {@code 2} in {@code "b (h 2) -> b h"}. Lengths are at least 2;
 * {@code 1} is a {@link UnitAxis}.
 *
 * @param length the axis length
 * @param span where it was written
 */
public record AnonymousAxis(long length, Span span) implements AxisTerm {

    @Override
    public boolean equals(Object other) {
        return other instanceof AnonymousAxis that && length == that.length;
    }

    @Override
    public int hashCode() {
        return Long.hashCode(length) * 31 + 7;
    }

    @Override
    public String toString() {
        return Long.toString(length);
    }
}
