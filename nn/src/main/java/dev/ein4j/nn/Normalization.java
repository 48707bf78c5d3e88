package dev.ein4j.nn;

import dev.ein4j.ir.DType;
import dev.ein4j.tensor.Tensor;
import java.util.Arrays;
import java.util.List;

/**
 * Normalization over trailing dimensions (layer norm, RMS norm), over channel groups (group norm),
 * over the channel dimension (channels-first layer norm) and over batch statistics (batch norm).
 * Variances are two-pass (the mean subtracted first), so values offset by 1e4 keep their spread.
 */
final class Normalization {

    private Normalization() {
    }

    /**
     * (x − mean) / √(var + eps) · weight + bias over the trailing {@code normalizedShape}, with the
     * biased variance, as PyTorch's layer_norm.
     */
    static Tensor layerNorm(Tensor x, int[] normalizedShape, Tensor weight, Tensor bias, double eps) {
        int[] axes = trailingAxes("layer_norm", x, normalizedShape, weight, bias);
        Tensor normalized = standardize(x, axes, eps);
        if (weight != null) {
            normalized = normalized.mul(weight);
        }
        return bias == null ? normalized : normalized.add(bias);
    }

    /**
     * x · rsqrt(mean(x²) + eps) · weight over the trailing {@code normalizedShape}, as PyTorch's
     * rms_norm and Hugging Face's LlamaRMSNorm; eps NaN means the machine epsilon of x's dtype
     * (PyTorch's default). The mean of squares has no cancellation, and a float32 square overflows
     * only past 1.8e19.
     */
    static Tensor rmsNorm(Tensor x, int[] normalizedShape, Tensor weight, double eps) {
        int[] axes = trailingAxes("rms_norm", x, normalizedShape, weight, null);
        double epsilon = Double.isNaN(eps) ? machineEpsilon(x.dtype()) : eps;
        Tensor normalized = x.mul(x.square().mean(axes, true).add(epsilon).rsqrt());
        return weight == null ? normalized : normalized.mul(weight);
    }

    /** @return the distance from 1 to the next representable number of a floating dtype */
    static double machineEpsilon(DType dtype) {
        return dtype == DType.FLOAT64 ? Math.ulp(1.0) : Math.ulp(1.0f);
    }

    /**
     * PyTorch's group_norm: the channels of x [N, C, *] split into groups of C/G, each sample's group
     * normalized by its own mean and biased variance over the group's channels and every spatial
     * position, then weight and bias per channel.
     */
    static Tensor groupNorm(Tensor x, int groups, Tensor weight, Tensor bias, double eps) {
        Checks.notNull(x, "x");
        String operation = "group_norm";
        if (x.rank() < 2) {
            throw Checks.shapeError(operation, "the input needs a batch and a channel dimension [N, C, *], got shape "
                    + Arrays.toString(x.shape()), x);
        }
        int channels = x.length(1);
        if (groups < 1 || channels % groups != 0) {
            throw Checks.shapeError(operation, "the number of groups " + groups + " must be positive and divide the "
                    + channels + " channels", x);
        }
        checkPerChannel(operation, x, weight, bias);
        Tensor grouped = x.rearrange("n (g c) ... -> n g c ...", dev.ein4j.tensor.Axes.of("g", groups));
        int[] axes = Checks.range(2, grouped.rank());
        Tensor normalized = standardize(grouped, axes, eps).reshape(x.shape());
        return affinePerChannel(normalized, weight, bias);
    }

    /**
     * Layer normalization over the channel dimension of x [N, C, *], Hugging Face's ConvNextLayerNorm
     * with {@code data_format="channels_first"}: each position's C values normalized by their mean
     * and biased variance, then weight and bias per channel.
     */
    static Tensor layerNormChannels(Tensor x, Tensor weight, Tensor bias, double eps) {
        Checks.notNull(x, "x");
        String operation = "layer_norm_channels";
        if (x.rank() < 2) {
            throw Checks.shapeError(operation, "the input needs a batch and a channel dimension [N, C, *], got shape "
                    + Arrays.toString(x.shape()), x);
        }
        checkPerChannel(operation, x, weight, bias);
        return affinePerChannel(standardize(x, new int[] {1}, eps), weight, bias);
    }

    /**
     * x · scale along one dimension, the layer scale of ConvNeXt and CaiT blocks (a learned
     * per-channel multiplier).
     */
    static Tensor layerScale(Tensor x, Tensor scale, int dimension) {
        Checks.notNull(x, "x");
        Checks.notNull(scale, "scale");
        String operation = "layer_scale";
        int axis = dimension < 0 ? dimension + x.rank() : dimension;
        if (axis < 0 || axis >= x.rank()) {
            throw Checks.shapeError(operation, "dimension " + dimension + " is out of range for shape "
                    + Arrays.toString(x.shape()), x);
        }
        if (scale.rank() != 1 || scale.length(0) != x.length(axis)) {
            throw Checks.shapeError(operation, "the scale must have shape [" + x.length(axis) + "] (dimension " + dimension
                    + "), got " + Arrays.toString(scale.shape()), x, scale);
        }
        int[] shape = new int[x.rank() - axis];
        Arrays.fill(shape, 1);
        shape[0] = x.length(axis);
        return x.mul(scale.reshape(shape));
    }

    /** (x − mean) / √(var + eps) over the axes, the variance biased and computed from x − mean. */
    private static Tensor standardize(Tensor x, int[] axes, double eps) {
        Tensor centered = x.sub(x.mean(axes, true));
        Tensor variance = centered.square().mean(axes, true);
        return centered.mul(variance.add(eps).rsqrt());
    }

    private static void checkPerChannel(String operation, Tensor x, Tensor weight, Tensor bias) {
        int channels = x.length(1);
        for (Tensor affine : new Tensor[] {weight, bias}) {
            if (affine != null && (affine.rank() != 1 || affine.length(0) != channels)) {
                throw Checks.shapeError(operation, "weight and bias must have shape [" + channels + "] (the channels), got "
                        + Arrays.toString(affine.shape()), x, affine);
            }
        }
    }

    /** x · weight + bias along dimension 1 of x [N, C, *]; either may be null. */
    private static Tensor affinePerChannel(Tensor x, Tensor weight, Tensor bias) {
        int[] perChannel = new int[x.rank()];
        Arrays.fill(perChannel, 1);
        perChannel[1] = x.length(1);
        Tensor y = weight == null ? x : x.mul(weight.reshape(perChannel));
        return bias == null ? y : y.add(bias.reshape(perChannel));
    }

    /**
     * Checks that the normalized shape is x's trailing shape and that the affine tensors have it.
     *
     * @return the trailing axes
     */
    private static int[] trailingAxes(String operation, Tensor x, int[] normalizedShape, Tensor weight, Tensor bias) {
        Checks.notNull(x, "x");
        Checks.notNull(normalizedShape, "normalizedShape");
        int count = normalizedShape.length;
        int[] shape = x.shape();
        boolean fits = count <= shape.length
                && Arrays.equals(Arrays.copyOfRange(shape, shape.length - count, shape.length), normalizedShape);
        if (!fits) {
            throw Checks.shapeError(operation, "normalized shape " + Arrays.toString(normalizedShape)
                    + " is not the trailing shape of the input " + Arrays.toString(shape), x);
        }
        for (Tensor affine : new Tensor[] {weight, bias}) {
            if (affine != null && !Arrays.equals(affine.shape(), normalizedShape)) {
                throw Checks.shapeError(operation, "weight and bias must have the normalized shape "
                        + Arrays.toString(normalizedShape) + ", got " + Arrays.toString(affine.shape()), x, affine);
            }
        }
        return Checks.range(shape.length - count, shape.length);
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
        // y = (x − mean)·scale + offset, per channel scale = γ/√(var + eps) and offset = β. The batch's
        // gradient then takes one pass for the sums it needs, Σdy·(x − mean) (the scale's; γ's
        // follows from it) and Σdy (β's and the mean's): the mean is subtracted detached and its
        // gradient enters through the offset, (mean.detach() − mean)·scale, which is 0 in value and
        // gives −scale·Σdy where the subtraction would ask for a sum of its own, Σdy·scale. With γ
        // applied after the division γ had taken a further sum.
        Tensor scale = variance.add(eps).rsqrt();
        if (weight != null) {
            scale = scale.mul(weight.reshape(perChannelShape));
        }
        Tensor offset = mean.detach().sub(mean).mul(scale);
        if (bias != null) {
            offset = offset.add(bias.reshape(perChannelShape));
        }
        return x.sub(mean.detach()).mul(scale).add(offset);
    }

    /**
     * The per-channel mean and biased variance in one pass over x: with s a sample of each channel
     * (its first element) and d = x − s, mean = s + E[d] and var = E[d²] − E[d]². The two sums are
     * realized together (one kernel with two outputs, before anything that reads them is fused
     * onto either), and the shift keeps the difference of squares from cancelling: E[d²] is within
     * a few variances of var instead of holding mean² as well. The sums and their difference are
     * taken in float64 (d² is rounded to float32 first: a relative 6e-8 per term, while rounding the
     * sums before the difference would cost the variance its last bits). s is detached; the
     * gradients of both statistics are the exact ones, and elementwise in float32.
     */
    private static Tensor[] shiftedMoments(Tensor x, int[] axes) {
        int[] starts = new int[x.rank()];
        int[] ends = new int[x.rank()];
        Arrays.fill(ends, 1);
        ends[1] = x.length(1);
        Tensor shift = x.shrink(starts, ends).detach();
        Tensor deviation = x.sub(shift);
        Tensor first = deviation.cast(DType.FLOAT64).mean(axes, true);
        Tensor second = deviation.square().cast(DType.FLOAT64).mean(axes, true);
        Tensor.realizeAll(first, second);
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
