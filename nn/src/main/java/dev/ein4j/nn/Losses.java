package dev.ein4j.nn;

import dev.ein4j.error.EinopsException;
import dev.ein4j.ir.DType;
import dev.ein4j.tensor.Tensor;
import java.util.Arrays;

/** Loss functions, stable for huge logits (log-softmax never forms a softmax that could underflow to 0). */
final class Losses {

    private Losses() {
    }

    /** How per-element losses are combined, PyTorch's {@code reduction}. */
    static Tensor reduce(Tensor losses, LossReduction reduction) {
        return switch (reduction) {
            case MEAN -> losses.mean();
            case SUM -> losses.sum();
            case NONE -> losses;
        };
    }

    static Tensor crossEntropy(Tensor logits, Tensor target, LossReduction reduction, double labelSmoothing) {
        Checks.notNull(logits, "logits");
        Checks.notNull(target, "target");
        Checks.notNull(reduction, "reduction");
        if (!(labelSmoothing >= 0 && labelSmoothing <= 1)) {
            throw new EinopsException("label smoothing must lie in [0, 1], got " + labelSmoothing);
        }
        if (target.dtype() != DType.INT32) {
            throw new EinopsException("cross_entropy takes int32 class indices as target, got " + target.dtype().numpyName());
        }
        Checks.rank(logits, "cross_entropy", "logits", 1, 2);
        boolean batched = logits.rank() == 2;
        if (target.rank() != logits.rank() - 1 || batched && target.length(0) != logits.length(0)) {
            throw Checks.shapeError("cross_entropy", "target of shape " + Arrays.toString(target.shape())
                    + " does not match logits of shape " + Arrays.toString(logits.shape()) + ": one class index per row", logits, target);
        }
        int classes = logits.length(-1);
        target.checkIndices(classes, "cross_entropy");
        Tensor logProbabilities = logits.logSoftmax(-1);
        Tensor isTarget = target.unsqueeze(-1).eq(Tensor.arange(classes));
        Tensor picked = Tensor.where(isTarget, logProbabilities,
                Tensor.zeros(logProbabilities.dtype()));
        Tensor loss = picked.sum(-1).neg();
        if (labelSmoothing > 0) {
            Tensor uniform = logProbabilities.mean(-1).neg();
            loss = loss.mul(1 - labelSmoothing).add(uniform.mul(labelSmoothing));
        }
        return reduce(loss, reduction);
    }

    static Tensor mseLoss(Tensor input, Tensor target, LossReduction reduction) {
        Checks.notNull(input, "input");
        Checks.notNull(target, "target");
        Checks.notNull(reduction, "reduction");
        Tensor difference = input.sub(target);
        return reduce(difference.mul(difference), reduction);
    }
}
