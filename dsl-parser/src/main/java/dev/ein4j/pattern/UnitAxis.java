package dev.ein4j.pattern;

/**
 * An axis of length 1, written {@code 1} or {@code ()}: {@code "b h w -> b 1 h w"} adds one,
 * {@code "b () h w -> b h w"} removes one. Printed canonically as {@code ()}; inside a composition it
 * contributes nothing and prints as {@code 1}.
 *
 * @param span where it was written
 */
public record UnitAxis(Span span) implements AxisTerm {

    @Override
    public boolean equals(Object other) {
        return other instanceof UnitAxis;
    }

    @Override
    public int hashCode() {
        return UnitAxis.class.hashCode();
    }

    @Override
    public String toString() {
        return "()";
    }
}
