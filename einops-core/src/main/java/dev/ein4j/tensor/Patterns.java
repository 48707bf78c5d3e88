package dev.ein4j.tensor;

import dev.ein4j.ir.DType;
import dev.ein4j.ir.Op;
import dev.ein4j.ir.PermuteArgument;
import dev.ein4j.lowering.ArrowLowering;
import dev.ein4j.lowering.EinsumLowering;
import dev.ein4j.lowering.EinsumPlan;
import dev.ein4j.lowering.ShapeCheck;
import dev.ein4j.lowering.Step;
import dev.ein4j.pattern.Operation;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/** einops patterns on tensors: a cached plan of IR steps, applied. */
final class Patterns {

    private Patterns() {
    }

    static Tensor rearrange(Tensor x, String pattern, Axes axes) {
        Arguments.notNull(pattern, "pattern");
        Arguments.notNull(axes, "axes");
        return apply(x, ArrowLowering.plan(Operation.REARRANGE, pattern, axes.asMap(), x.shape()).steps(), Reduction.SUM);
    }

    static Tensor reduce(Tensor x, String pattern, Reduction reduction, Axes axes) {
        Arguments.notNull(pattern, "pattern");
        Arguments.notNull(reduction, "reduction");
        Arguments.notNull(axes, "axes");
        // the result type does not depend on which axes are reduced: bool sums count even over no axis
        Tensor input = reduction == Reduction.SUM || reduction == Reduction.PROD ? Reductions.countable(x)
                : reduction == Reduction.MEAN ? Ops.floating(x) : x;
        return apply(input, ArrowLowering.plan(Operation.REDUCE, pattern, axes.asMap(), x.shape()).steps(), reduction);
    }

    static Tensor repeat(Tensor x, String pattern, Axes axes) {
        Arguments.notNull(pattern, "pattern");
        Arguments.notNull(axes, "axes");
        return apply(x, ArrowLowering.plan(Operation.REPEAT, pattern, axes.asMap(), x.shape()).steps(), Reduction.SUM);
    }

    static Axes checkShape(Tensor x, String pattern, Axes axes) {
        Arguments.notNull(pattern, "pattern");
        Arguments.notNull(axes, "axes");
        return Axes.measured(ShapeCheck.lengths(pattern, x.shape(), axes.asMap()));
    }

    /** The steps of a lowering plan, applied in order; a Reduce step does {@code reduction}. */
    static Tensor apply(Tensor x, List<Step> steps, Reduction reduction) {
        Tensor result = x;
        for (Step step : steps) {
            result = apply(result, step, reduction);
        }
        return result;
    }

    private static Tensor apply(Tensor x, Step step, Reduction reduction) {
        if (step instanceof Step.Reshape reshape) {
            return x.reshape(reshape.shape());
        }
        if (step instanceof Step.Permute permute) {
            return Ops.apply(Op.PERMUTE, x.dtype(), permute.shape(), new PermuteArgument(permute.order()), x);
        }
        if (step instanceof Step.Expand expand) {
            return Ops.broadcastTo(x, expand.shape());
        }
        if (step instanceof Step.Window window) {
            return Ops.apply(Op.WINDOW, x.dtype(), window.shape(), window.window(), x);
        }
        if (step instanceof Step.Reduce reduce) {
            return Reductions.reduce(x, reduction, reduce.axes(), false);
        }
        Step.Diagonal diagonal = (Step.Diagonal) step;
        return takeDiagonal(x, diagonal.first(), diagonal.second());
    }

    /** Element (.., i, ..) = x(.., i, .., i, ..): a CONTRACT with the identity over the second axis. */
    private static Tensor takeDiagonal(Tensor x, int first, int second) {
        int rank = x.rank();
        int[] order = new int[rank];
        int next = 0;
        for (int k = 0; k < rank; k++) {
            if (k != first && k != second) {
                order[next++] = k;
            }
        }
        order[rank - 2] = first;
        order[rank - 1] = second;
        Tensor moved = x.permute(order);
        int length = x.length(first);
        if (x.length(second) != length) {
            throw Ops.error(x, "einsum", "a diagonal needs equal lengths, got " + length + " and " + x.length(second));
        }
        Tensor identity = Ops.broadcastTo(Creation.eye(length, x.dtype()), moved.shape());
        Tensor contracted = Ops.contract(moved, identity, new int[] {rank - 1});
        Tensor diagonal = contracted.reshape(Arrays.copyOf(contracted.shape(), rank - 1));
        int[] back = new int[rank - 1];
        for (int k = 0, j = 0; k < rank - 1; k++) {
            back[k] = k == first ? rank - 2 : j++;
        }
        return diagonal.permute(back);
    }

    /** Runs an einsum plan: per-operand steps, contractions in the planned order, output steps. */
    static Tensor einsum(Operation operation, String pattern, Axes axes, Tensor[] operands) {
        Arguments.notNull(pattern, "pattern");
        Arguments.notNull(axes, "axes");
        Arguments.noNulls(operands, "operands");
        EinsumPlan plan = EinsumLowering.plan(operation, pattern, Arrays.stream(operands).map(Tensor::shape).toList(), axes.asMap());
        List<Tensor> live = new ArrayList<>();
        for (int i = 0; i < operands.length; i++) {
            live.add(apply(operands[i], plan.operands().get(i).steps(), Reduction.SUM));
        }
        for (EinsumPlan.Contraction contraction : plan.contractions()) {
            // cast before aligning: a float32 x float64 product converts the operands, not their broadcast
            DType type = live.get(contraction.left()).dtype().promote(live.get(contraction.right()).dtype());
            Tensor left = apply(live.get(contraction.left()).cast(type), contraction.alignLeft(), Reduction.SUM);
            Tensor right = apply(live.get(contraction.right()).cast(type), contraction.alignRight(), Reduction.SUM);
            Tensor result = contraction.summedAxes().length == 0 ? left.mul(right)
                    : Ops.contract(left, right, contraction.summedAxes()).reshape(contraction.resultShape());
            live.remove(contraction.right());
            live.remove(contraction.left());
            live.add(result);
        }
        return apply(live.get(0), plan.finalSteps(), Reduction.SUM);
    }
}
