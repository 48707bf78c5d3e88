package dev.ein4j.lowering;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Finds axis lengths from a dimension's length and the lengths already known. */
final class LengthSolver {

    private LengthSolver() {
    }

    static int lengthOf(ElementaryAxis axis, Map<String, Integer> lengths) {
        if (axis.knownLength() >= 0) {
            return axis.knownLength();
        }
        Integer known = lengths.get(axis.name());
        return known == null ? -1 : known;
    }

    /**
     * Checks a dimension against its actual length, filling in its one unknown axis if it has one.
     *
     * @return false if two or more axes are still unknown (the caller may learn them elsewhere)
     */
    static boolean solve(Dimension dimension, int actual, Map<String, Integer> lengths, LoweringErrors errors) {
        if (dimension.isWindow()) {
            return solveWindow(dimension, actual, lengths, errors);
        }
        long product = 1;
        List<ElementaryAxis> unknown = new ArrayList<>();
        for (ElementaryAxis axis : dimension.axes()) {
            int length = lengthOf(axis, lengths);
            if (length < 0) {
                unknown.add(axis);
            } else {
                product *= length;
            }
        }
        String term = errors.text(dimension.span());
        if (unknown.isEmpty()) {
            if (product != actual) {
                givenAxisDisagrees(dimension, actual, product, lengths, errors);
                String what = dimension.axes().isEmpty() ? "unit axis " + term
                        : dimension.axes().size() == 1 ? LoweringErrors.describeAxis(dimension.axes().get(0)) : null;
                throw errors.shape(dimension.span(), what != null
                        ? what + ": the input has length " + actual + " but " + product + " is expected"
                        : "dimension " + term + " has length " + actual + ", but its axes multiply to " + product);
            }
            return true;
        }
        if (unknown.size() > 1) {
            return false;
        }
        ElementaryAxis axis = unknown.get(0);
        if (product == 0 || actual % product != 0) {
            throw errors.shape(dimension.span(), "axis " + axis.name() + ": length " + actual + " cannot be split into "
                    + term + ", " + actual + " is not divisible by " + product);
        }
        lengths.put(axis.name(), (int) (actual / product));
        return true;
    }

    /**
     * A composition whose one given axis is what does not fit: {@code (h d)} of length 6 with h
     * given 4 and d = 3 from elsewhere is reported as h's given length against the 2 it must be.
     */
    private static void givenAxisDisagrees(Dimension dimension, int actual, long product, Map<String, Integer> lengths,
                                           LoweringErrors errors) {
        List<ElementaryAxis> given = dimension.axes().stream()
                .filter(axis -> axis.knownLength() < 0 && errors.isGiven(axis.name())).toList();
        if (given.size() != 1 || dimension.axes().size() < 2) {
            return;
        }
        ElementaryAxis axis = given.get(0);
        long others = product / lengthOf(axis, lengths);
        if (others > 0 && actual % others == 0) {
            throw errors.shape(dimension.span(), "axis " + axis.name() + " is given length " + lengthOf(axis, lengths)
                    + ", but dimension " + errors.text(dimension.span()) + " of length " + actual + " makes it "
                    + actual / others + " (its other axes multiply to " + others + ")");
        }
    }

    /**
     * A window (s*h + d*k) over an input of length L: the kernel length K must be known (given, or
     * from another operand), never guessed; then H = ⌊(L − d·(K − 1) − 1) / s⌋ + 1.
     */
    private static boolean solveWindow(Dimension dimension, int actual, Map<String, Integer> lengths, LoweringErrors errors) {
        ElementaryAxis position = dimension.axes().get(0);
        ElementaryAxis kernel = dimension.axes().get(1);
        Integer kernelLength = lengths.get(kernel.name());
        if (kernelLength == null) {
            return false;
        }
        long span = (long) dimension.dilation() * (kernelLength - 1) + 1;
        if (span > actual) {
            throw errors.shape(dimension.span(), "window " + errors.text(dimension.span()) + " spans " + span
                    + " elements (kernel " + kernel.name() + " = " + kernelLength + ", dilation " + dimension.dilation()
                    + ") but the input has length " + actual);
        }
        int outLength = dev.ein4j.ir.WindowArgument.outLength(actual, kernelLength, dimension.stride(), dimension.dilation());
        Integer known = lengths.putIfAbsent(position.name(), outLength);
        if (known != null && known != outLength) {
            throw errors.shape(dimension.span(), "window " + errors.text(dimension.span()) + " over length " + actual
                    + " has " + outLength + " positions, but " + position.name()
                    + (errors.isGiven(position.name()) ? " is given length " : " has length ") + known);
        }
        return true;
    }

    /** @return the names of a dimension's unknown axes (the kernel axis of a window) */
    static String names(Dimension dimension, Map<String, Integer> lengths) {
        if (dimension.isWindow()) {
            return dimension.axes().get(1).name() + " (a window's kernel length: give it, or let another operand name it)";
        }
        return dimension.axes().stream().filter(axis -> lengthOf(axis, lengths) < 0).map(ElementaryAxis::name)
                .reduce((a, b) -> a + " and " + b).orElse("");
    }
}
