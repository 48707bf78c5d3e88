package dev.ein4j.pattern;

import java.util.Objects;

/**
 * A named axis, {@code h} in {@code "b h w -> b (h w)"}.
 *
 * @param name the name: an ASCII letter, then letters, digits and '_'
 * @param span where it was written
 */
public record AxisName(String name, Span span) implements AxisTerm {

    @Override
    public boolean equals(Object other) {
        return other instanceof AxisName that && name.equals(that.name);
    }

    @Override
    public int hashCode() {
        return Objects.hash(AxisName.class, name);
    }

    @Override
    public String toString() {
        return name;
    }
}
