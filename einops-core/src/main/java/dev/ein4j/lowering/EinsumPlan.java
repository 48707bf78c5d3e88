package dev.ein4j.lowering;

import java.util.Arrays;
import java.util.List;

/**
 * The concrete plan of an einsum: per operand, the steps that bring it to its elementary axes
 * (splitting compositions, taking diagonals, summing axes no one else needs); then pairwise
 * contractions in the order chosen greedily; then the steps to the output layout.
 *
 * <p>The contraction list works on a list of intermediates that starts as the prepared operands:
 * each contraction removes its two intermediates from the list and appends its result.
 */
public final class EinsumPlan {

    /**
     * How one operand is prepared.
     *
     * @param inputShape the operand's shape
     * @param steps the steps applied to it
     * @param axes the names of its axes after the steps
     */
    public record OperandPlan(int[] inputShape, List<Step> steps, List<String> axes) {

        /** Copies everything: plans are cached and shared. */
        public OperandPlan {
            inputShape = inputShape.clone();
            steps = List.copyOf(steps);
            axes = List.copyOf(axes);
        }

        @Override
        public int[] inputShape() {
            return inputShape.clone();
        }
    }

    /**
     * One pairwise contraction.
     *
     * @param left index of the first factor in the current list
     * @param right index of the second factor
     * @param alignLeft steps bringing the first factor to the union of both axis lists
     * @param alignRight steps bringing the second factor to it
     * @param summedAxes axes of the union summed by CONTRACT; empty means a plain product (MUL)
     * @param resultShape the shape after the summed axes are dropped
     * @param resultAxes the names of the result's axes
     * @param summedNames the names of the summed axes
     */
    public record Contraction(int left, int right, List<Step> alignLeft, List<Step> alignRight, int[] summedAxes,
                              int[] resultShape, List<String> resultAxes, List<String> summedNames) {

        /** Copies everything: plans are cached and shared. */
        public Contraction {
            alignLeft = List.copyOf(alignLeft);
            alignRight = List.copyOf(alignRight);
            summedAxes = summedAxes.clone();
            resultShape = resultShape.clone();
            resultAxes = List.copyOf(resultAxes);
            summedNames = List.copyOf(summedNames);
        }

        @Override
        public int[] summedAxes() {
            return summedAxes.clone();
        }

        @Override
        public int[] resultShape() {
            return resultShape.clone();
        }

        /** @return the number of elements of the result */
        public long resultSize() {
            return dev.ein4j.ir.Shapes.size(resultShape);
        }
    }

    private final String pattern;
    private final List<OperandPlan> operands;
    private final List<Contraction> contractions;
    private final List<Step> finalSteps;
    private final int[] outputShape;

    EinsumPlan(String pattern, List<OperandPlan> operands, List<Contraction> contractions, List<Step> finalSteps,
               int[] outputShape) {
        this.pattern = pattern;
        this.operands = List.copyOf(operands);
        this.contractions = List.copyOf(contractions);
        this.finalSteps = List.copyOf(finalSteps);
        this.outputShape = outputShape.clone();
    }

    /** @return one plan per operand */
    public List<OperandPlan> operands() {
        return operands;
    }

    /** @return the contractions in execution order */
    public List<Contraction> contractions() {
        return contractions;
    }

    /** @return the steps from the last intermediate to the output */
    public List<Step> finalSteps() {
        return finalSteps;
    }

    /** @return the output shape */
    public int[] outputShape() {
        return outputShape.clone();
    }

    /** @return the plan as text, with the contraction order and the size of every intermediate */
    public String explain() {
        StringBuilder text = new StringBuilder("einsum \"").append(pattern).append("\" on ");
        text.append(String.join(", ", operands.stream().map(o -> Arrays.toString(o.inputShape())).toList()));
        for (int i = 0; i < operands.size(); i++) {
            OperandPlan operand = operands.get(i);
            text.append("\n  operand ").append(i).append(' ').append(Arrays.toString(operand.inputShape()))
                    .append(" -> axes (").append(String.join(" ", operand.axes())).append(')');
            operand.steps().forEach(step -> text.append("\n      ").append(step));
        }
        int next = operands.size();
        for (Contraction contraction : contractions) {
            text.append("\n  contraction ").append(next - operands.size() + 1).append(": #").append(contraction.left())
                    .append(" x #").append(contraction.right())
                    .append(contraction.summedAxes().length == 0 ? " (product)" : " summing (" + String.join(" ", contraction.summedNames()) + ")")
                    .append(" -> (").append(String.join(" ", contraction.resultAxes())).append(") ")
                    .append(Arrays.toString(contraction.resultShape())).append(", ").append(contraction.resultSize())
                    .append(" elements");
            next++;
        }
        text.append("\n  output ").append(Arrays.toString(outputShape));
        finalSteps.forEach(step -> text.append("\n      ").append(step));
        return text.toString();
    }

    @Override
    public String toString() {
        return explain();
    }
}
