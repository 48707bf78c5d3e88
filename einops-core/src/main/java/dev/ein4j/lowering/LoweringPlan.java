package dev.ein4j.lowering;

import dev.ein4j.pattern.Operation;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * The concrete plan of a rearrange, reduce or repeat for one input shape and set of axis lengths:
 * at most reshape → reduce → permute → reshape + expand → reshape, each step present only if it
 * changes something. Plans are immutable and cached.
 */
public final class LoweringPlan {

    private final Operation operation;
    private final String pattern;
    private final int[] inputShape;
    private final List<Step> steps;
    private final Map<String, Integer> axisLengths;

    LoweringPlan(Operation operation, String pattern, int[] inputShape, List<Step> steps, Map<String, Integer> axisLengths) {
        this.operation = operation;
        this.pattern = pattern;
        this.inputShape = inputShape.clone();
        this.steps = List.copyOf(steps);
        this.axisLengths = Map.copyOf(axisLengths);
    }

    /** @return the steps in order; empty when the operation is the identity */
    public List<Step> steps() {
        return steps;
    }

    /** @return the input shape the plan was made for */
    public int[] inputShape() {
        return inputShape.clone();
    }

    /** @return the shape of the result */
    public int[] outputShape() {
        return steps.isEmpty() ? inputShape.clone() : steps.get(steps.size() - 1).shapeAfter();
    }

    /** @return the length of every named axis, as solved from the shape and the given lengths */
    public Map<String, Integer> axisLengths() {
        return axisLengths;
    }

    /**
     * @return the plan as text: the call, then one numbered line per IR step with its shapes
     */
    public String explain() {
        StringBuilder text = new StringBuilder(operation.displayName()).append(" \"").append(pattern).append("\" on ")
                .append(Arrays.toString(inputShape));
        if (!axisLengths.isEmpty()) {
            text.append(" with ").append(new java.util.TreeMap<>(axisLengths));
        }
        if (steps.isEmpty()) {
            return text.append("\n  (no steps: the result is the input)").toString();
        }
        int number = 1;
        for (Step step : steps) {
            text.append("\n  ").append(number++).append(". ").append(step);
        }
        return text.toString();
    }

    @Override
    public String toString() {
        return explain();
    }
}
