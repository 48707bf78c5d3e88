package dev.ein4j.lowering;

import dev.ein4j.pattern.AnonymousAxis;
import dev.ein4j.pattern.AxisName;
import dev.ein4j.pattern.AxisTerm;
import dev.ein4j.pattern.Composition;
import dev.ein4j.pattern.EllipsisAxis;
import dev.ein4j.pattern.Operand;
import dev.ein4j.pattern.SkippedAxis;
import dev.ein4j.pattern.Span;
import dev.ein4j.pattern.UnitAxis;
import dev.ein4j.pattern.WindowAxis;
import java.util.ArrayList;
import java.util.List;

/**
 * Takes an operand apart into dimensions of elementary axes, once the number of dimensions is
 * known (which fixes how many axes an ellipsis stands for).
 */
final class OperandLayout {

    /** Prefix of the names of skipped axes ({@code _}). */
    static final String SKIPPED_PREFIX = "_";

    private OperandLayout() {
    }

    /** @return the number of dimensions the operand names without its ellipsis */
    static int fixedDimensions(Operand operand) {
        return (int) operand.terms().stream().filter(term -> !(term instanceof EllipsisAxis)).count();
    }

    /**
     * @param operand the operand
     * @param ellipsisLength how many axes the ellipsis stands for (ignored without one)
     * @param ellipsisFirst index of the first ellipsis axis name ({@code …k}), for right-aligned
     *        broadcasting between einsum operands
     * @param errors for errors in the operand (unused for now: every term lowers)
     * @return the dimensions, in order
     */
    static List<Dimension> dimensions(Operand operand, int ellipsisLength, int ellipsisFirst, LoweringErrors errors) {
        List<Dimension> dimensions = new ArrayList<>();
        for (AxisTerm term : operand.terms()) {
            if (term instanceof EllipsisAxis) {
                for (int k = 0; k < ellipsisLength; k++) {
                    dimensions.add(new Dimension(List.of(ellipsisAxis(ellipsisFirst + k, term.span())), term.span()));
                }
            } else if (term instanceof Composition composition) {
                List<ElementaryAxis> axes = new ArrayList<>();
                for (AxisTerm member : composition.members()) {
                    if (member instanceof EllipsisAxis) {
                        for (int k = 0; k < ellipsisLength; k++) {
                            axes.add(ellipsisAxis(ellipsisFirst + k, member.span()));
                        }
                    } else {
                        single(member).ifPresent(axes::add);
                    }
                }
                dimensions.add(new Dimension(axes, term.span()));
            } else if (term instanceof WindowAxis window) {
                dimensions.add(new Dimension(List.of(
                        new ElementaryAxis(window.outer().name(), -1, window.outer().span()),
                        new ElementaryAxis(window.inner().name(), -1, window.inner().span())),
                        term.span(), (int) window.outer().coefficient(), (int) window.inner().coefficient()));
            } else {
                dimensions.add(new Dimension(single(term).map(List::of).orElse(List.of()), term.span()));
            }
        }
        return dimensions;
    }

    private static java.util.Optional<ElementaryAxis> single(AxisTerm term) {
        if (term instanceof AxisName name) {
            return java.util.Optional.of(new ElementaryAxis(name.name(), -1, name.span()));
        }
        if (term instanceof AnonymousAxis anonymous) {
            int length = anonymous.length() > Integer.MAX_VALUE ? Integer.MAX_VALUE : (int) anonymous.length();
            return java.util.Optional.of(new ElementaryAxis("#" + anonymous.span().start(), length, anonymous.span()));
        }
        if (term instanceof UnitAxis) {
            return java.util.Optional.empty();
        }
        if (term instanceof SkippedAxis) {
            // check_shape's '_': an axis of any length, under a name no user can write
            return java.util.Optional.of(new ElementaryAxis(SKIPPED_PREFIX + term.span().start(), -1, term.span()));
        }
        throw new IllegalStateException("unexpected term " + term);
    }

    private static ElementaryAxis ellipsisAxis(int index, Span span) {
        return new ElementaryAxis(ElementaryAxis.ELLIPSIS_PREFIX + index, -1, span);
    }
}
