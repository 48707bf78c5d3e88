package dev.ein4j.pattern;

import java.util.List;
import java.util.stream.Collectors;

/**
 * Several axes read as one, {@code (h w)}: the composed axis has length h·w, with w varying
 * fastest (row-major). Members are names, anonymous axes, unit axes or an ellipsis; compositions do
 * not nest. {@code ()} is not a composition but a {@link UnitAxis}.
 *
 * @param members the composed terms, outermost first
 * @param span where the composition was written, parentheses included
 */
public record Composition(List<AxisTerm> members, Span span) implements AxisTerm {

    /** Copies the member list. */
    public Composition {
        members = List.copyOf(members);
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof Composition that && members.equals(that.members);
    }

    @Override
    public int hashCode() {
        return members.hashCode() * 31 + 3;
    }

    @Override
    public String toString() {
        return members.stream()
                .map(member -> member instanceof UnitAxis ? "1" : member.toString())
                .collect(Collectors.joining(" ", "(", ")"));
    }
}
