package dev.ein4j.error;

import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * A well-formed pattern or operation that does not fit the shapes or axis lengths it was given:
 * a wrong number of dimensions, a length that cannot be split, shapes that do not broadcast.
 *
 * <pre>
 * axis h: length 33 cannot be split into (h 2), 33 is not divisible by 2
 *   b (h 2) -&gt; b h
 *     ^
 *   input shapes: [4, 33]
 * </pre>
 */
public class ShapeException extends EinopsException {

    private final String pattern;
    private final List<long[]> shapes;
    private final Map<String, Long> axisLengths;
    private final String reason;
    private final int column;

    /**
     * @param pattern the pattern (or the operation's name when there is no pattern)
     * @param column 1-based column of the offending term, 0 for none
     * @param shapes the input shapes
     * @param axisLengths the axis lengths the caller gave by name (may be empty)
     * @param reason the problem in words
     */
    public ShapeException(String pattern, int column, List<long[]> shapes, Map<String, Long> axisLengths,
                          String reason) {
        super(reason + ErrorFormat.pointAt(pattern, column) + describe(shapes, axisLengths));
        this.pattern = pattern;
        this.column = column;
        this.shapes = shapes.stream().map(long[]::clone).collect(Collectors.toUnmodifiableList());
        this.axisLengths = Map.copyOf(axisLengths);
        this.reason = reason;
    }

    /**
     * A shape error of an operation without a pattern (broadcasting, reshape, matmul, ...).
     *
     * @param operation the operation, as the user called it
     * @param shapes the operand shapes
     * @param reason the problem in words
     */
    public ShapeException(String operation, List<long[]> shapes, String reason) {
        this(operation, 0, shapes, Map.of(), reason);
    }

    private static String describe(List<long[]> shapes, Map<String, Long> axisLengths) {
        String text = "\n  input shape" + (shapes.size() == 1 ? ": " : "s: ")
                + shapes.stream().map(Arrays::toString).collect(Collectors.joining(", "));
        if (!axisLengths.isEmpty()) {
            text += "\n  axis lengths: " + axisLengths;
        }
        return text;
    }

    /** @return the pattern, or the operation's name when the operation has no pattern */
    public String pattern() {
        return pattern;
    }

    /** @return the 1-based column of the offending term, 0 when there is none */
    public int column() {
        return column;
    }

    /** @return copies of the input shapes */
    public List<long[]> shapes() {
        return shapes.stream().map(long[]::clone).collect(Collectors.toUnmodifiableList());
    }

    /** @return the axis lengths the caller gave by name */
    public Map<String, Long> axisLengths() {
        return axisLengths;
    }

    /** @return the problem in words */
    public String reason() {
        return reason;
    }
}
