package dev.ein4j.lowering;

import dev.ein4j.ir.WindowArgument;
import java.util.List;
import java.util.Map;

/**
 * The first steps of an operand: a reshape to its elementary axes, where a window dimension keeps
 * its input length L, then one WINDOW step per window turning L into its positions and offsets.
 */
final class Windows {

    private Windows() {
    }

    /**
     * @param dimensions the operand's dimensions
     * @param shape the operand's shape
     * @param lengths every axis length
     * @return the reshape target: each dimension's axes, but L for a window
     */
    static int[] reshapeTarget(List<Dimension> dimensions, int[] shape, Map<String, Integer> lengths) {
        int count = 0;
        for (Dimension dimension : dimensions) {
            count += dimension.isWindow() ? 1 : dimension.axes().size();
        }
        int[] target = new int[count];
        int at = 0;
        for (int d = 0; d < dimensions.size(); d++) {
            Dimension dimension = dimensions.get(d);
            if (dimension.isWindow()) {
                target[at++] = shape[d];
            } else {
                for (ElementaryAxis axis : dimension.axes()) {
                    target[at++] = axis.knownLength() >= 0 ? axis.knownLength() : lengths.get(axis.name());
                }
            }
        }
        return target;
    }

    /**
     * Appends the WINDOW steps of an operand, left to right.
     *
     * @param steps where they go
     * @param dimensions the operand's dimensions
     * @param current the shape after {@link #reshapeTarget}
     * @param lengths every axis length
     * @return the shape after the windows
     */
    static int[] apply(List<Step> steps, List<Dimension> dimensions, int[] current, Map<String, Integer> lengths) {
        int at = 0;
        for (Dimension dimension : dimensions) {
            if (!dimension.isWindow()) {
                at += dimension.axes().size();
                continue;
            }
            WindowArgument window = new WindowArgument(at, lengths.get(dimension.axes().get(0).name()),
                    lengths.get(dimension.axes().get(1).name()), dimension.stride(), dimension.dilation());
            current = window.shapeAfter(current);
            steps.add(new Step.Window(window, current));
            at += 2;
        }
        return current;
    }
}
