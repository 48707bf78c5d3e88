package dev.ein4j.lowering;

import dev.ein4j.error.ShapeException;
import dev.ein4j.pattern.Span;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** Builds the shape errors of one lowering call: the pattern, the input shapes, the given lengths. */
final class LoweringErrors {

    private final String pattern;
    private final List<long[]> shapes;
    private final Map<String, Long> axisLengths;

    LoweringErrors(String pattern, List<int[]> shapes, Map<String, Integer> axisLengths) {
        this.pattern = pattern;
        this.shapes = shapes.stream().map(shape -> java.util.Arrays.stream(shape).asLongStream().toArray()).toList();
        Map<String, Long> lengths = new TreeMap<>();
        axisLengths.forEach((name, length) -> lengths.put(name, (long) length));
        this.axisLengths = lengths;
    }

    ShapeException shape(Span span, String reason) {
        return new ShapeException(pattern, span == null ? 0 : span.column(), shapes, axisLengths, reason);
    }

    /**
     * The length of a composed dimension, checked: a product beyond 2^31 − 1 (the longest dimension
     * a tensor can have) is a shape error, never a wrapped number.
     *
     * @param dimension the dimension
     * @param lengthOf each axis' length
     * @return the product of its axes' lengths
     */
    int composedLength(Dimension dimension, java.util.function.ToIntFunction<ElementaryAxis> lengthOf) {
        long product = 1;
        for (ElementaryAxis axis : dimension.axes()) {
            product *= lengthOf.applyAsInt(axis);
            if (product > Integer.MAX_VALUE) {
                throw shape(dimension.span(), "dimension " + text(dimension.span()) + " would have more than 2^31 - 1 elements "
                        + "along one axis, the longest a tensor dimension can be");
            }
        }
        return (int) product;
    }

    /**
     * @param name an axis name
     * @return whether the caller gave the axis a length by name
     */
    boolean isGiven(String name) {
        return axisLengths.containsKey(name);
    }

    /** @return the text of the pattern under a span */
    String text(Span span) {
        return span == null || span.start() < 0 ? "" : pattern.substring(span.start(), Math.min(span.end(), pattern.length()));
    }

    static String describeAxis(ElementaryAxis axis) {
        if (axis.isEllipsis()) {
            return "an axis of '...'";
        }
        if (axis.name().startsWith("#")) {
            return "anonymous axis " + axis.knownLength();
        }
        return "axis " + axis.name();
    }
}
