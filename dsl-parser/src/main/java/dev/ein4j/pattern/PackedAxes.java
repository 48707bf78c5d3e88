package dev.ein4j.pattern;

/**
 * {@code *} in a pack or unpack pattern: the axes that are packed into one, {@code "b * c"}.
 *
 * @param span where it was written
 */
public record PackedAxes(Span span) implements AxisTerm {

    @Override
    public boolean equals(Object other) {
        return other instanceof PackedAxes;
    }

    @Override
    public int hashCode() {
        return PackedAxes.class.hashCode();
    }

    @Override
    public String toString() {
        return "*";
    }
}
