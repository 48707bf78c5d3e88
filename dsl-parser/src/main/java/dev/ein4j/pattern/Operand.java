package dev.ein4j.pattern;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/**
 * One side (or one einsum operand) of a pattern: a sequence of terms, {@code "b (h w) ..."}.
 * Equality ignores spans.
 *
 * @param terms the terms in order
 * @param span where the operand was written
 */
public record Operand(List<AxisTerm> terms, Span span) {

    /** Copies the term list. */
    public Operand {
        terms = List.copyOf(terms);
    }

    /** @return whether an ellipsis appears, at top level or inside a composition */
    public boolean hasEllipsis() {
        return terms.stream().anyMatch(term -> term instanceof EllipsisAxis
                || term instanceof Composition composition
                && composition.members().stream().anyMatch(EllipsisAxis.class::isInstance));
    }

    /**
     * Every name in the operand, in order of appearance, with the span where it was written:
     * top-level names, names inside compositions and both names of a window.
     *
     * @return the names, repeated ones as often as they appear
     */
    public List<AxisName> names() {
        List<AxisName> names = new ArrayList<>();
        for (AxisTerm term : terms) {
            if (term instanceof AxisName name) {
                names.add(name);
            } else if (term instanceof Composition composition) {
                composition.members().stream().filter(AxisName.class::isInstance)
                        .map(AxisName.class::cast).forEach(names::add);
            } else if (term instanceof WindowAxis window) {
                names.add(new AxisName(window.outer().name(), window.outer().span()));
                names.add(new AxisName(window.inner().name(), window.inner().span()));
            }
        }
        return names;
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof Operand that && terms.equals(that.terms);
    }

    @Override
    public int hashCode() {
        return terms.hashCode();
    }

    /** @return the canonical einops form: terms separated by single spaces */
    @Override
    public String toString() {
        return terms.stream().map(AxisTerm::toString).collect(Collectors.joining(" "));
    }

    /** @return the canonical numpy form: letters run together, {@code "...ij"} */
    public String toNumpyString() {
        return terms.stream().map(AxisTerm::toString).collect(Collectors.joining());
    }
}
