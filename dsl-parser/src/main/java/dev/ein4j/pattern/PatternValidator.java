package dev.ein4j.pattern;

import dev.ein4j.error.PatternSyntaxException;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The rules of each operation, checked on the AST with the position of the offending term. They
 * follow einops: rearrange keeps every name, reduce may only drop names, repeat may only add them;
 * anonymous axes only where their meaning is clear (reduce's left, repeat's right); einsum inputs
 * may repeat a name (a diagonal), outputs may not.
 */
final class PatternValidator {

    private final ParsedPattern parsed;

    private PatternValidator(ParsedPattern parsed) {
        this.parsed = parsed;
    }

    static ParsedPattern validate(ParsedPattern parsed) {
        new PatternValidator(parsed).check();
        return parsed;
    }

    private void check() {
        Operation operation = parsed.operation();
        for (Operand input : parsed.inputs()) {
            checkCommon(input, operation.isEinsum() ? "an einsum input" : operation.isArrow() ? "the left side" : "the pattern");
        }
        parsed.output().ifPresent(output -> checkCommon(output, operation.isEinsum() ? "the output" : "the right side"));
        switch (operation) {
            case REARRANGE, REDUCE, REPEAT -> checkArrow();
            case EINSUM, NUMPY_EINSUM -> checkEinsum();
            case PACK, UNPACK -> checkPack();
            case PARSE_SHAPE -> checkParseShape();
            case CHECK_SHAPE -> checkCheckShape();
        }
    }

    /** Rules for every operand: one ellipsis at most; '*' and '_' only where their operation says. */
    private void checkCommon(Operand operand, String where) {
        boolean ellipsis = false;
        for (AxisTerm term : flatten(operand)) {
            if (term instanceof EllipsisAxis) {
                if (ellipsis) {
                    throw error(term.span(), "a second ellipsis '...' in " + where + ": each operand may have one");
                }
                ellipsis = true;
            } else if (term instanceof PackedAxes && parsed.operation() != Operation.PACK
                    && parsed.operation() != Operation.UNPACK) {
                throw error(term.span(), "'*' is only allowed in pack and unpack patterns");
            } else if (term instanceof SkippedAxis && parsed.operation() != Operation.PARSE_SHAPE
                    && parsed.operation() != Operation.CHECK_SHAPE) {
                throw error(term.span(), "'_' (skip an axis) is only allowed in parse_shape and check_shape patterns");
            }
        }
    }

    private void checkArrow() {
        Operand left = parsed.input();
        rejectComposedEllipsis(left, "the left side");
        Operand right = parsed.output().orElseThrow();
        Operation operation = parsed.operation();
        Map<String, AxisName> leftNames = uniqueNames(left, "the left side");
        Map<String, AxisName> rightNames = uniqueNames(right, "the right side");
        rejectWindows(right, "the right side of " + operation.displayName());
        if (operation == Operation.REPEAT) {
            rejectWindows(left, "repeat");
        }
        if (right.hasEllipsis() && !left.hasEllipsis()) {
            throw error(ellipsisSpan(right), "ellipsis '...' on the right side but not on the left");
        }
        switch (operation) {
            case REARRANGE -> {
                rejectAnonymous(left, "rearrange allows no anonymous axes except 1");
                rejectAnonymous(right, "rearrange allows no anonymous axes except 1");
                missingOn(rightNames, leftNames, "axis '%s' is on the right side but not on the left; rearrange keeps every axis");
                missingOn(leftNames, rightNames, "axis '%s' is on the left side but not on the right; rearrange keeps every axis (use reduce to drop it)");
                if (left.hasEllipsis() && !right.hasEllipsis()) {
                    throw error(ellipsisSpan(left), "ellipsis '...' on the left side but not on the right; rearrange keeps every axis");
                }
            }
            case REDUCE -> {
                rejectAnonymous(right, "reduce allows anonymous axes only on the left side");
                missingOn(rightNames, leftNames, "axis '%s' is on the right side but not on the left; reduce cannot add axes (use repeat)");
            }
            default -> {
                rejectAnonymous(left, "repeat allows anonymous axes only on the right side");
                missingOn(leftNames, rightNames, "axis '%s' is on the left side but not on the right; repeat cannot drop axes (use reduce)");
                if (left.hasEllipsis() && !right.hasEllipsis()) {
                    throw error(ellipsisSpan(left), "ellipsis '...' on the left side but not on the right; repeat cannot drop axes");
                }
            }
        }
    }

    private void checkEinsum() {
        Operand output = parsed.output().orElseThrow();
        parsed.inputs().forEach(input -> rejectComposedEllipsis(input, "an einsum input"));
        Map<String, AxisName> outputNames = uniqueNames(output, "the output");
        rejectWindows(output, "an einsum output");
        rejectAnonymous(output, "an einsum output allows no anonymous axes except 1");
        Set<String> inputNames = new HashSet<>();
        for (Operand input : parsed.inputs()) {
            input.names().forEach(name -> inputNames.add(name.name()));
        }
        parsed.inputs().forEach(this::rejectWindowsNamingOneAxisTwice);
        for (AxisName name : outputNames.values()) {
            if (!inputNames.contains(name.name())) {
                throw error(name.span(), "output axis '" + name.name() + "' appears in no input");
            }
        }
        // an output '...' with none among the inputs stands for no axes, as in numpy and einops
    }

    private void checkPack() {
        Operand operand = parsed.input();
        uniqueNames(operand, AstBuilder.article(parsed.operation()) + " pattern");
        int stars = 0;
        for (AxisTerm term : operand.terms()) {
            if (term instanceof PackedAxes) {
                if (++stars > 1) {
                    throw error(term.span(), "a second '*': " + AstBuilder.article(parsed.operation()) + " pattern has exactly one");
                }
            } else if (!(term instanceof AxisName)) {
                throw error(term.span(), AstBuilder.article(parsed.operation()) + " pattern has only names and one '*', not '" + term + "'");
            }
        }
        if (stars == 0) {
            throw error(operand.span().start() < 0 ? Span.NONE : operand.span(),
                    AstBuilder.article(parsed.operation()) + " pattern needs exactly one '*' marking the packed axes");
        }
    }

    private void checkParseShape() {
        Operand operand = parsed.input();
        uniqueNames(operand, "a parse_shape pattern");
        for (AxisTerm term : operand.terms()) {
            boolean allowed = term instanceof AxisName || term instanceof SkippedAxis || term instanceof EllipsisAxis
                    || term instanceof UnitAxis || term instanceof AnonymousAxis;
            if (!allowed) {
                throw error(term.span(), "a parse_shape pattern has only names, '_', lengths and '...', not '" + term + "'");
            }
        }
    }

    private void checkCheckShape() {
        Operand operand = parsed.input();
        uniqueNames(operand, "a check_shape pattern");
        rejectComposedEllipsis(operand, "a check_shape pattern");
        for (AxisTerm term : operand.terms()) {
            if (term instanceof WindowAxis || term instanceof PackedAxes) {
                throw error(term.span(), "a check_shape pattern has only names, '_', lengths, compositions and '...', not '"
                        + term + "'");
            }
        }
    }

    // ------------------------------------------------------------------ helpers

    /**
     * {@code (2*h + 3*h)}: an einsum input may repeat a name (a diagonal), but a window's position
     * and kernel index are two axes by definition; elsewhere the duplicate-name rule catches it.
     */
    private void rejectWindowsNamingOneAxisTwice(Operand operand) {
        for (AxisTerm term : operand.terms()) {
            if (term instanceof WindowAxis window && window.outer().name().equals(window.inner().name())) {
                throw error(window.inner().span(), "window " + window + " names axis '" + window.inner().name()
                        + "' twice: its position and its kernel are two different axes");
            }
        }
    }

    private Map<String, AxisName> uniqueNames(Operand operand, String where) {
        Map<String, AxisName> names = new LinkedHashMap<>();
        for (AxisName name : operand.names()) {
            if (names.putIfAbsent(name.name(), name) != null) {
                throw error(name.span(), "axis '" + name.name() + "' appears twice in " + where);
            }
        }
        return names;
    }

    private void missingOn(Map<String, AxisName> names, Map<String, AxisName> others, String message) {
        for (AxisName name : names.values()) {
            if (!others.containsKey(name.name())) {
                throw error(name.span(), String.format(message, name.name()));
            }
        }
    }

    private void rejectAnonymous(Operand operand, String message) {
        for (AxisTerm term : flatten(operand)) {
            if (term instanceof AnonymousAxis anonymous) {
                throw error(term.span(), message + ", found '" + anonymous.length() + "'");
            }
        }
    }

    /** '(...)' reads fine on an output, but on an input it cannot say how many dimensions it stands for. */
    private void rejectComposedEllipsis(Operand operand, String where) {
        for (AxisTerm term : operand.terms()) {
            if (term instanceof Composition composition) {
                for (AxisTerm member : composition.members()) {
                    if (member instanceof EllipsisAxis) {
                        throw error(member.span(), "'...' inside parentheses is not allowed on " + where
                                + "; write it on its own, e.g. 'b ... -> b (...)'");
                    }
                }
            }
        }
    }

    private void rejectWindows(Operand operand, String where) {
        for (AxisTerm term : operand.terms()) {
            if (term instanceof WindowAxis) {
                throw error(term.span(), "a window " + term + " is not allowed on " + where + "; windows are read from inputs");
            }
        }
    }

    private static Span ellipsisSpan(Operand operand) {
        return flatten(operand).stream().filter(EllipsisAxis.class::isInstance).findFirst()
                .map(AxisTerm::span).orElse(Span.NONE);
    }

    /** Top-level terms with compositions replaced by their members. */
    private static List<AxisTerm> flatten(Operand operand) {
        return operand.terms().stream()
                .flatMap(term -> term instanceof Composition composition ? composition.members().stream() : java.util.stream.Stream.of(term))
                .toList();
    }

    private PatternSyntaxException error(Span span, String reason) {
        return new PatternSyntaxException(parsed.source(), span.column(), reason);
    }
}
