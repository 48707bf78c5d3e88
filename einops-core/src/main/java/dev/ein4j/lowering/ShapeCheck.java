package dev.ein4j.lowering;

import dev.ein4j.pattern.Operand;
import dev.ein4j.pattern.Operation;
import dev.ein4j.pattern.PatternParser;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * einops' {@code check_shape}: a shape asserted against a pattern of names, compositions,
 * lengths, {@code _} (any length) and {@code ...}, with some lengths known by name. The lengths
 * are solved as rearrange solves its left side, so the errors read the same.
 *
 * <pre>{@code
 * ShapeCheck.lengths("b (h w) c", new int[] {8, 12, 3}, Map.of("h", 3));   // {b=8, h=3, w=4, c=3}
 * ShapeCheck.lengths("b c", new int[] {8, 4}, Map.of("c", 3));
 * // ShapeException: axis c: the input has length 4 but 3 is expected
 * }</pre>
 */
public final class ShapeCheck {

    private ShapeCheck() {
    }

    /**
     * @param pattern a check_shape pattern
     * @param shape the shape to check
     * @param given lengths the shape must have, by name
     * @return the length of every named axis of the pattern, in the pattern's order
     * @throws dev.ein4j.error.PatternSyntaxException if the pattern is malformed
     * @throws dev.ein4j.error.ShapeException naming the term (with a caret) whose length does not fit,
     *         or the given name that the pattern lacks
     */
    public static Map<String, Integer> lengths(String pattern, int[] shape, Map<String, Integer> given) {
        Operand operand = PatternParser.parse(Operation.CHECK_SHAPE, pattern).input();
        LoweringErrors errors = new LoweringErrors(pattern, List.of(shape), given);
        int fixed = OperandLayout.fixedDimensions(operand);
        int ellipsisLength = shape.length - fixed;
        if (operand.hasEllipsis() ? ellipsisLength < 0 : ellipsisLength != 0) {
            throw errors.shape(operand.span(), "the pattern has " + fixed + " dimension" + (fixed == 1 ? "" : "s")
                    + (operand.hasEllipsis() ? " besides '...'" : "") + " but the tensor has " + shape.length);
        }
        List<Dimension> dimensions = OperandLayout.dimensions(operand, ellipsisLength, 0, errors);
        Map<String, Integer> lengths = new LinkedHashMap<>();
        dimensions.forEach(dimension -> dimension.axes().forEach(axis -> lengths.put(axis.name(), null)));
        for (String name : given.keySet()) {
            if (!lengths.containsKey(name)) {
                throw errors.shape(null, "axis " + name + " is given a length but does not appear in the pattern");
            }
        }
        lengths.clear();
        lengths.putAll(given);
        for (int d = 0; d < dimensions.size(); d++) {
            Dimension dimension = dimensions.get(d);
            if (!LengthSolver.solve(dimension, shape[d], lengths, errors)) {
                throw errors.shape(dimension.span(), "cannot infer the lengths of " + LengthSolver.names(dimension, lengths)
                        + " from " + errors.text(dimension.span()) + " of length " + shape[d]
                        + ": give all but one of them by name");
            }
        }
        Map<String, Integer> named = new LinkedHashMap<>();
        for (Dimension dimension : dimensions) {
            for (ElementaryAxis axis : dimension.axes()) {
                if (!axis.isEllipsis() && axis.knownLength() < 0 && !axis.name().startsWith(OperandLayout.SKIPPED_PREFIX)) {
                    named.put(axis.name(), lengths.get(axis.name()));
                }
            }
        }
        return named;
    }
}
