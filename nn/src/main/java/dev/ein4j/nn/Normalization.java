package dev.ein4j.nn;

import dev.ein4j.ir.DType;
import dev.ein4j.tensor.Tensor;
import java.util.Arrays;
import java.util.List;

/** Normalization over trailing dimensions (layer norm) and over batch statistics (batch norm). */
final class Normalization {

    private Normalization() {
    }

    /**
     * (x − mean) / √(var + eps) · weight + bias over the trailing {@code normalizedShape}, with the
     * biased variance, as PyTorch's layer_norm.
     */
    static Tensor layerNorm(Tensor x, int[] normalizedShape, Tensor weight, Tensor bias, double eps) {
        Checks.notNull(x, "x");
        Checks.notNull(normalizedShape, "normalizedShape");
        int count = normalizedShape.length;
        int[] shape = x.shape();
        boolean fits = count <= shape.length
                && Arrays.equals(Arrays.copyOfRange(shape, shape.length - count, shape.length), normalizedShape);
        if (!fits) {
            throw Checks.shapeError("layer_norm", "normalized shape " + Arrays.toString(normalizedShape)
                    + " is not the trailing shape of the input " + Arrays.toString(shape), x);
        }
        for (Tensor affine : new Tensor[] {weight, bias}) {
            if (affine != null && !Arrays.equals(affine.shape(), normalizedShape)) {
                throw Checks.shapeError("layer_norm", "weight and bias must have the normalized shape "
                        + Arrays.toString(normalizedShape) + ", got " + Arrays.toString(affine.shape()), x, affine);
            }
        }
        int[] axes = Checks.range(shape.length - count, shape.length);
        Tensor mean = x.mean(axes, true);
        Tensor centered = x.sub(mean);
        Tensor variance = centered.square().mean(axes, true);
        Tensor normalized = centered.mul(variance.add(eps).rsqrt());
        if (weight != null) {
            normalized = normalized.mul(weight);
        }
        return bias == null ? normalized : normalized.add(bias);
    }

    /**
     * Batch normalization over every dimension but the channels (dimension 1), as PyTorch's
     * batch_norm. Training normalizes by the batch's mean and biased variance and, when running
     * statistics are given, updates them in place: running ← (1 − momentum)·running + momentum·batch,
     * the variance unbiased. Evaluation normalizes by the running statistics.
     */
    static Tensor batchNorm(Tensor x, Tensor runningMean, Tensor runningVar, Tensor weight, Tensor bias,
            boolean training, double momentum, double eps) {
        String operation = "batch_norm";
        if (x.rank() < 2) {
            throw Checks.shapeError(operation, "the input needs a batch and a channel dimension, got shape "
                    + Arrays.toString(x.shape()), x);
        }
        int channels = x.length(1);
        for (Tensor perChannel : new Tensor[] {runningMean, runningVar, weight, bias}) {
            if (perChannel != null && (perChannel.rank() != 1 || perChannel.length(0) != channels)) {
                throw Checks.shapeError(operation, "running statistics, weight and bias must have shape [" + channels
                        + "] (the channels), got " + Arrays.toString(perChannel.shape()), x, perChannel);
            }
        }
        int[] axes = statisticsAxes(x.rank());
        int[] perChannelShape = new int[x.rank()];
        Arrays.fill(perChannelShape, 1);
        perChannelShape[1] = channels;
        Tensor mean;
        Tensor variance;
        if (training) {
            long count = x.size() / Math.max(channels, 1);
            if (count <= 1) {
                throw Checks.shapeError(operation, "training needs more than one value per channel, got input shape "
                        + Arrays.toString(x.shape()), x);
            }
            // The batch is computed once here: the statistics, the running update and the output all read it.
            x.realize();
            Tensor[] statistics = shiftedMoments(x, axes);
            mean = statistics[0];
            variance = statistics[1];
            if (runningMean != null && runningVar != null) {
                Tensor.realizeAll(mean, variance);
                double unbias = (double) count / (count - 1);
                Tensor.assign(List.of(runningMean, runningVar), List.of(
                        runningMean.mul(1 - momentum).add(mean.detach().reshape(channels).mul(momentum)),
                        runningVar.mul(1 - momentum).add(variance.detach().reshape(channels).mul(momentum * unbias))));
            }
        } else {
            if (runningMean == null || runningVar == null) {
                throw new dev.ein4j.error.EinopsException(operation + ": evaluation needs the running mean and variance");
            }
            mean = runningMean.reshape(perChannelShape);
            variance = runningVar.reshape(perChannelShape);
        }
        Tensor normalized = x.sub(mean).mul(variance.add(eps).rsqrt());
        if (weight != null) {
            normalized = normalized.mul(weight.reshape(perChannelShape));
        }
        return bias == null ? normalized : normalized.add(bias.reshape(perChannelShape));
    }

    /**
     * The per-channel mean and biased variance in one pass over x: with s a sample of each channel
     * (its first element) and d = x − s, mean = s + E[d] and var = E[d²] − E[d]². The two sums read x
     * together (one kernel with two outputs), and the shift keeps the difference of squares from
     * cancelling: E[d²] is within a few variances of var instead of holding mean² as well. The sums
     * and their difference are taken in float64 (float32 sums accumulate in double anyway; rounding
     * them before the difference would cost the variance its last bits). s is detached; the
     * gradients of both statistics are the exact ones.
     */
    private static Tensor[] shiftedMoments(Tensor x, int[] axes) {
        int[] starts = new int[x.rank()];
        int[] ends = new int[x.rank()];
        Arrays.fill(ends, 1);
        ends[1] = x.length(1);
        Tensor shift = x.shrink(starts, ends).detach();
        Tensor shifted = x.sub(shift).cast(DType.FLOAT64);
        Tensor first = shifted.mean(axes, true);
        Tensor second = shifted.square().mean(axes, true);
        Tensor variance = second.sub(first.square()).clampMin(0.0); // rounding can leave −ulp for a constant channel
        return new Tensor[] {shift.add(first.cast(x.dtype())), variance.cast(x.dtype())};
    }

    private static int[] statisticsAxes(int rank) {
        int[] axes = new int[rank - 1];
        axes[0] = 0;
        for (int i = 2; i < rank; i++) {
            axes[i - 1] = i;
        }
        return axes;
    }
}
