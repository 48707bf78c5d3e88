package dev.ein4j.nn;

import dev.ein4j.tensor.Generator;
import dev.ein4j.tensor.Tensor;

/**
 * The functions of PyTorch's {@code torch.nn.functional}, each a few pattern strings and
 * elementwise math; the layer modules wrap them.
 *
 * <pre>{@code
 * Tensor logits = Functional.linear(x, w, b);                         // "b ... i, o i -> b ... o"
 * Tensor loss = Functional.crossEntropy(logits, labels);              // int32 labels, mean over the batch
 * Tensor y = Functional.layerNorm(x, new int[] {512}, gamma, beta, 1e-5);
 * Tensor z = Functional.conv2d(images, kernels, ConvolutionOptions.defaults().stride(2).padding(1));
 *     // "b c (2*h + kh) (2*w + kw), o c kh kw -> b o h w" after a zero pad
 * Tensor p = Functional.maxPool2d(z, 2);                             // "... (2*h + kh) (2*w + kw) -> ... h w", max
 * Tensor n = Functional.rmsNorm(hidden, new int[] {512}, gamma, 1e-6);  // x·rsqrt(mean(x²) + eps)·gamma
 * }</pre>
 *
 * <p>Every function checks its arguments at the call: a null is a {@link NullPointerException}
 * naming the parameter, a shape that does not fit is a {@link dev.ein4j.error.ShapeException}
 * naming the function and the shapes. Optional tensors (a bias, running statistics) are left out
 * by calling the overload without them.
 */
public final class Functional {

    private Functional() {
    }

    // ------------------------------------------------------------------ losses

    /**
     * Cross-entropy of logits against class indices, PyTorch's {@code cross_entropy}: −log softmax
     * of the target class, averaged over the batch. Stable for huge logits.
     *
     * @param logits [N, C] (or [C] for one example)
     * @param target int32 class indices, [N] (or [])
     * @return the mean loss, a scalar
     */
    public static Tensor crossEntropy(Tensor logits, Tensor target) {
        return Losses.crossEntropy(logits, target, LossReduction.MEAN, 0.0);
    }

    /**
     * @param logits [N, C] (or [C])
     * @param target int32 class indices, [N] (or [])
     * @param reduction mean, sum or none (then one loss per example)
     * @param labelSmoothing ε in [0, 1]: the target is (1 − ε) on the class plus ε/C on every class
     * @return the loss
     */
    public static Tensor crossEntropy(Tensor logits, Tensor target, LossReduction reduction, double labelSmoothing) {
        return Losses.crossEntropy(logits, target, reduction, labelSmoothing);
    }

    /**
     * @param input predictions
     * @param target targets, broadcast against the predictions
     * @return the mean squared error
     */
    public static Tensor mseLoss(Tensor input, Tensor target) {
        return Losses.mseLoss(input, target, LossReduction.MEAN);
    }

    /**
     * @param input predictions
     * @param target targets, broadcast against the predictions
     * @param reduction mean, sum or none
     * @return the squared errors, combined
     */
    public static Tensor mseLoss(Tensor input, Tensor target, LossReduction reduction) {
        return Losses.mseLoss(input, target, reduction);
    }

    // ------------------------------------------------------------------ normalization

    /**
     * Layer normalization over the trailing dimensions, PyTorch's {@code layer_norm}:
     * (x − mean) / √(var + eps) · weight + bias, the variance biased.
     *
     * @param x [..., *normalizedShape]
     * @param normalizedShape the trailing shape normalized over
     * @param weight scale, of the normalized shape
     * @param bias shift, of the normalized shape
     * @param eps added to the variance
     * @return the normalized tensor, x's shape
     */
    public static Tensor layerNorm(Tensor x, int[] normalizedShape, Tensor weight, Tensor bias, double eps) {
        Checks.notNull(weight, "weight");
        Checks.notNull(bias, "bias");
        return Normalization.layerNorm(x, normalizedShape, weight, bias, eps);
    }

    /**
     * Layer normalization without the affine part: (x − mean) / √(var + eps).
     *
     * @param x [..., *normalizedShape]
     * @param normalizedShape the trailing shape normalized over
     * @param eps added to the variance
     * @return the normalized tensor, x's shape
     */
    public static Tensor layerNorm(Tensor x, int[] normalizedShape, double eps) {
        return Normalization.layerNorm(x, normalizedShape, null, null, eps);
    }

    /**
     * Root-mean-square normalization, PyTorch's {@code rms_norm} and Hugging Face's LlamaRMSNorm:
     * y = x · rsqrt(mean(x²) + eps) · weight, the mean over the trailing {@code normalizedShape}.
     *
     * <pre>{@code
     * Functional.rmsNorm(Tensor.of(new double[] {3, 4}), new int[] {2}, null, 0.0);   // [3, 4] / √12.5 = [0.8485, 1.1314]
     * }</pre>
     *
     * @param x [..., *normalizedShape]
     * @param normalizedShape the trailing shape normalized over
     * @param weight scale, of the normalized shape, or null for none
     * @param eps added to the mean of squares
     * @return the normalized tensor, x's shape
     */
    public static Tensor rmsNorm(Tensor x, int[] normalizedShape, Tensor weight, double eps) {
        return Normalization.rmsNorm(x, normalizedShape, weight, eps);
    }

    /**
     * @param x [..., *normalizedShape]
     * @param normalizedShape the trailing shape normalized over
     * @param weight scale, of the normalized shape, or null for none
     * @return {@link #rmsNorm(Tensor, int[], Tensor, double)} with eps the machine epsilon of x's dtype
     *     (PyTorch's default: 1.19e-7 for float32, 2.2e-16 for float64)
     */
    public static Tensor rmsNorm(Tensor x, int[] normalizedShape, Tensor weight) {
        return Normalization.rmsNorm(x, normalizedShape, weight, Double.NaN);
    }

    /**
     * Group normalization, PyTorch's {@code group_norm}: the C channels of x split into numGroups
     * groups, {@code "n (g c) ... -> n g c ..."}; each sample's group is normalized by its mean and
     * biased variance over its channels and positions, then weight·y + bias per channel.
     *
     * <pre>{@code
     * Functional.groupNorm(x, 2, gamma, beta, 1e-5);      // x [N, 6, H, W]: channels 0-2 and 3-5 each normalized
     * }</pre>
     *
     * @param x [N, C, *]
     * @param numGroups G, dividing C
     * @param weight [C]
     * @param bias [C]
     * @param eps added to the variance
     * @return x's shape
     */
    public static Tensor groupNorm(Tensor x, int numGroups, Tensor weight, Tensor bias, double eps) {
        checkAll(x, "x", weight, "weight", bias, "bias");
        return Normalization.groupNorm(x, numGroups, weight, bias, eps);
    }

    /**
     * @param x [N, C, *]
     * @param numGroups G, dividing C
     * @param eps added to the variance
     * @return {@link #groupNorm(Tensor, int, Tensor, Tensor, double)} without the affine part
     */
    public static Tensor groupNorm(Tensor x, int numGroups, double eps) {
        return Normalization.groupNorm(x, numGroups, null, null, eps);
    }

    /**
     * Layer normalization over the channel dimension, Hugging Face's ConvNextLayerNorm with
     * {@code data_format="channels_first"}: at every position of x [N, C, *] the C values are
     * normalized, (x − mean) / √(var + eps) (biased variance), then weight·y + bias per channel.
     *
     * @param x [N, C, *]
     * @param weight [C]
     * @param bias [C]
     * @param eps added to the variance
     * @return x's shape
     */
    public static Tensor layerNormChannels(Tensor x, Tensor weight, Tensor bias, double eps) {
        checkAll(x, "x", weight, "weight", bias, "bias");
        return Normalization.layerNormChannels(x, weight, bias, eps);
    }

    /**
     * @param x [N, C, *]
     * @param eps added to the variance
     * @return {@link #layerNormChannels(Tensor, Tensor, Tensor, double)} without the affine part
     */
    public static Tensor layerNormChannels(Tensor x, double eps) {
        return Normalization.layerNormChannels(x, null, null, eps);
    }

    /**
     * Layer scale over the last dimension, as in ConvNeXt blocks (channels last there):
     * y[..., c] = x[..., c] · scale[c]. Hugging Face names the parameter
     * {@code layer_scale_parameter}.
     *
     * @param x [..., C]
     * @param scale [C]
     * @return x's shape
     */
    public static Tensor layerScale(Tensor x, Tensor scale) {
        return Normalization.layerScale(x, scale, -1);
    }

    /**
     * @param x any tensor
     * @param scale [x.length(dimension)]
     * @param dimension the channel dimension (negative counts from the end), e.g. 1 for [N, C, H, W]
     * @return x · scale along that dimension
     */
    public static Tensor layerScale(Tensor x, Tensor scale, int dimension) {
        return Normalization.layerScale(x, scale, dimension);
    }

    // ------------------------------------------------------------------ linear

    /**
     * x·Wᵀ as one pattern: {@code einsum("... i, o i -> ... o")}, PyTorch's {@code linear} without bias.
     *
     * @param x [..., in]
     * @param weight [out, in]
     * @return [..., out]
     */
    public static Tensor linear(Tensor x, Tensor weight) {
        return linearWithOptionalBias(x, weight, null);
    }

    /**
     * x·Wᵀ + b as one pattern and a broadcast add, PyTorch's {@code linear}.
     *
     * @param x [..., in]
     * @param weight [out, in]
     * @param bias [out]
     * @return [..., out]
     */
    public static Tensor linear(Tensor x, Tensor weight, Tensor bias) {
        Checks.notNull(bias, "bias");
        return linearWithOptionalBias(x, weight, bias);
    }

    private static Tensor linearWithOptionalBias(Tensor x, Tensor weight, Tensor bias) {
        Checks.notNull(x, "x");
        Checks.notNull(weight, "weight");
        Checks.rank(weight, "linear", "weight", 2);
        if (x.rank() == 0 || x.length(-1) != weight.length(1)) {
            throw Checks.shapeError("linear", "input features " + (x.rank() == 0 ? "none" : x.length(-1))
                    + " do not match the weight's " + weight.length(1), x, weight);
        }
        Tensor y = dev.ein4j.tensor.Ein.einsum("... i, o i -> ... o", x, weight);
        if (bias != null) {
            if (bias.rank() != 1 || bias.length(0) != weight.length(0)) {
                throw Checks.shapeError("linear", "bias must have shape [" + weight.length(0) + "]", weight, bias);
            }
            y = y.add(bias);
        }
        return y;
    }

    // ------------------------------------------------------------------ convolution

    /**
     * 1-d cross-correlation, PyTorch's {@code conv1d}: y[b, o, …] = Σ_c Σ_k x[b, c, s·… + d·k] · w[o, c, k]
     * (+ bias[o]), one einsum with window axes after zero padding; groups split the channels as
     * {@code (g c)} and {@code (g o)}. Its gradients are contractions over windows too (no
     * im2col-sized buffer).
     *
     * @param x [N, C_in, L] (or [C_in, L])
     * @param weight [C_out, C_in / groups, K]
     * @param bias [C_out]
     * @param options stride, padding, dilation and groups
     * @return [N, C_out, L_out] (or [C_out, L_out])
     */
    public static Tensor conv1d(Tensor x, Tensor weight, Tensor bias, ConvolutionOptions options) {
        Checks.notNull(bias, "bias");
        return Convolution.convolve(x, weight, bias, options, 1);
    }

    /**
     * @param x [N, C_in, L] (or [C_in, L])
     * @param weight [C_out, C_in / groups, K]
     * @param options stride, padding, dilation and groups
     * @return [N, C_out, L_out] (or [C_out, L_out]), without bias (see {@link #conv1d(Tensor, Tensor, Tensor, ConvolutionOptions)})
     */
    public static Tensor conv1d(Tensor x, Tensor weight, ConvolutionOptions options) {
        return Convolution.convolve(x, weight, null, options, 1);
    }

    /**
     * @param x [N, C_in, L] (or [C_in, L])
     * @param weight [C_out, C_in / groups, K]
     * @param bias [C_out]
     * @return [N, C_out, L_out] (or [C_out, L_out]): stride 1, no padding (see {@link #conv1d(Tensor, Tensor, Tensor, ConvolutionOptions)})
     */
    public static Tensor conv1d(Tensor x, Tensor weight, Tensor bias) {
        Checks.notNull(bias, "bias");
        return Convolution.convolve(x, weight, bias, ConvolutionOptions.defaults(), 1);
    }

    /**
     * @param x [N, C_in, L] (or [C_in, L])
     * @param weight [C_out, C_in / groups, K]
     * @return [N, C_out, L_out] (or [C_out, L_out]): stride 1, no padding, no bias
     */
    public static Tensor conv1d(Tensor x, Tensor weight) {
        return Convolution.convolve(x, weight, null, ConvolutionOptions.defaults(), 1);
    }

    /**
     * 2-d cross-correlation, PyTorch's {@code conv2d}: y[b, o, …] = Σ_c Σ_k x[b, c, s·… + d·k] · w[o, c, k]
     * (+ bias[o]), one einsum with window axes after zero padding; groups split the channels as
     * {@code (g c)} and {@code (g o)}. Its gradients are contractions over windows too (no
     * im2col-sized buffer).
     *
     * @param x [N, C_in, H, W] (or [C_in, H, W])
     * @param weight [C_out, C_in / groups, KH, KW]
     * @param bias [C_out]
     * @param options stride, padding, dilation and groups
     * @return [N, C_out, H_out, W_out] (or unbatched)
     */
    public static Tensor conv2d(Tensor x, Tensor weight, Tensor bias, ConvolutionOptions options) {
        Checks.notNull(bias, "bias");
        return Convolution.convolve(x, weight, bias, options, 2);
    }

    /**
     * @param x [N, C_in, H, W] (or [C_in, H, W])
     * @param weight [C_out, C_in / groups, KH, KW]
     * @param options stride, padding, dilation and groups
     * @return [N, C_out, H_out, W_out] (or unbatched), without bias (see {@link #conv2d(Tensor, Tensor, Tensor, ConvolutionOptions)})
     */
    public static Tensor conv2d(Tensor x, Tensor weight, ConvolutionOptions options) {
        return Convolution.convolve(x, weight, null, options, 2);
    }

    /**
     * @param x [N, C_in, H, W] (or [C_in, H, W])
     * @param weight [C_out, C_in / groups, KH, KW]
     * @param bias [C_out]
     * @return [N, C_out, H_out, W_out] (or unbatched): stride 1, no padding (see {@link #conv2d(Tensor, Tensor, Tensor, ConvolutionOptions)})
     */
    public static Tensor conv2d(Tensor x, Tensor weight, Tensor bias) {
        Checks.notNull(bias, "bias");
        return Convolution.convolve(x, weight, bias, ConvolutionOptions.defaults(), 2);
    }

    /**
     * @param x [N, C_in, H, W] (or [C_in, H, W])
     * @param weight [C_out, C_in / groups, KH, KW]
     * @return [N, C_out, H_out, W_out] (or unbatched): stride 1, no padding, no bias
     */
    public static Tensor conv2d(Tensor x, Tensor weight) {
        return Convolution.convolve(x, weight, null, ConvolutionOptions.defaults(), 2);
    }

    /**
     * 3-d cross-correlation, PyTorch's {@code conv3d}: y[b, o, …] = Σ_c Σ_k x[b, c, s·… + d·k] · w[o, c, k]
     * (+ bias[o]), one einsum with window axes after zero padding; groups split the channels as
     * {@code (g c)} and {@code (g o)}. Its gradients are contractions over windows too (no
     * im2col-sized buffer).
     *
     * @param x [N, C_in, D, H, W] (or [C_in, D, H, W])
     * @param weight [C_out, C_in / groups, KD, KH, KW]
     * @param bias [C_out]
     * @param options stride, padding, dilation and groups
     * @return [N, C_out, D_out, H_out, W_out] (or unbatched)
     */
    public static Tensor conv3d(Tensor x, Tensor weight, Tensor bias, ConvolutionOptions options) {
        Checks.notNull(bias, "bias");
        return Convolution.convolve(x, weight, bias, options, 3);
    }

    /**
     * @param x [N, C_in, D, H, W] (or [C_in, D, H, W])
     * @param weight [C_out, C_in / groups, KD, KH, KW]
     * @param options stride, padding, dilation and groups
     * @return [N, C_out, D_out, H_out, W_out] (or unbatched), without bias (see {@link #conv3d(Tensor, Tensor, Tensor, ConvolutionOptions)})
     */
    public static Tensor conv3d(Tensor x, Tensor weight, ConvolutionOptions options) {
        return Convolution.convolve(x, weight, null, options, 3);
    }

    /**
     * @param x [N, C_in, D, H, W] (or [C_in, D, H, W])
     * @param weight [C_out, C_in / groups, KD, KH, KW]
     * @param bias [C_out]
     * @return [N, C_out, D_out, H_out, W_out] (or unbatched): stride 1, no padding (see {@link #conv3d(Tensor, Tensor, Tensor, ConvolutionOptions)})
     */
    public static Tensor conv3d(Tensor x, Tensor weight, Tensor bias) {
        Checks.notNull(bias, "bias");
        return Convolution.convolve(x, weight, bias, ConvolutionOptions.defaults(), 3);
    }

    /**
     * @param x [N, C_in, D, H, W] (or [C_in, D, H, W])
     * @param weight [C_out, C_in / groups, KD, KH, KW]
     * @return [N, C_out, D_out, H_out, W_out] (or unbatched): stride 1, no padding, no bias
     */
    public static Tensor conv3d(Tensor x, Tensor weight) {
        return Convolution.convolve(x, weight, null, ConvolutionOptions.defaults(), 3);
    }

    /**
     * 2-d transposed convolution, PyTorch's {@code conv_transpose2d} (the input gradient of
     * conv2d): x spread by the stride (zeros between elements), padded by d·(k − 1) − padding
     * (plus output_padding after), then {@code "b (g c) (h + d*kh) (w + d*kw), (g c) o kh kw -> b (g o) h w"}
     * with the kernel flipped.
     *
     * <pre>{@code
     * Functional.convTranspose2d(x, w, b, ConvTransposeOptions.defaults().stride(2).padding(1).outputPadding(1));
     *     // x [1, 8, 5, 5], w [8, 4, 3, 3] -> [1, 4, 10, 10]: (5 − 1)·2 − 2 + 2 + 1 + 1
     * }</pre>
     *
     * @param x [N, C_in, H, W] (or [C_in, H, W])
     * @param weight [C_in, C_out / groups, KH, KW]
     * @param bias [C_out]
     * @param options stride, padding, output padding (below max(stride, dilation)), dilation and groups
     * @return [N, C_out, H_out, W_out], H_out = (H − 1)·stride − 2·padding + dilation·(KH − 1) + output_padding + 1
     */
    public static Tensor convTranspose2d(Tensor x, Tensor weight, Tensor bias, ConvTransposeOptions options) {
        Checks.notNull(bias, "bias");
        return ConvTranspose.convolve(x, weight, bias, options, 2);
    }

    /**
     * @param x [N, C_in, H, W] (or [C_in, H, W])
     * @param weight [C_in, C_out / groups, KH, KW]
     * @param options stride, padding, output padding, dilation and groups
     * @return {@link #convTranspose2d(Tensor, Tensor, Tensor, ConvTransposeOptions)} without bias
     */
    public static Tensor convTranspose2d(Tensor x, Tensor weight, ConvTransposeOptions options) {
        return ConvTranspose.convolve(x, weight, null, options, 2);
    }

    /**
     * 1-d transposed convolution, PyTorch's {@code conv_transpose1d} (see
     * {@link #convTranspose2d(Tensor, Tensor, Tensor, ConvTransposeOptions)}).
     *
     * @param x [N, C_in, L] (or [C_in, L])
     * @param weight [C_in, C_out / groups, K]
     * @param bias [C_out]
     * @param options stride, padding, output padding, dilation and groups
     * @return [N, C_out, L_out], L_out = (L − 1)·stride − 2·padding + dilation·(K − 1) + output_padding + 1
     */
    public static Tensor convTranspose1d(Tensor x, Tensor weight, Tensor bias, ConvTransposeOptions options) {
        Checks.notNull(bias, "bias");
        return ConvTranspose.convolve(x, weight, bias, options, 1);
    }

    /**
     * @param x [N, C_in, L] (or [C_in, L])
     * @param weight [C_in, C_out / groups, K]
     * @param options stride, padding, output padding, dilation and groups
     * @return {@link #convTranspose1d(Tensor, Tensor, Tensor, ConvTransposeOptions)} without bias
     */
    public static Tensor convTranspose1d(Tensor x, Tensor weight, ConvTransposeOptions options) {
        return ConvTranspose.convolve(x, weight, null, options, 1);
    }

    // ------------------------------------------------------------------ pooling

    /**
     * 1-d max pooling, PyTorch's {@code max_pool1d}: the maximum of each window, {@code reduce("... (s*l + d*kl) -> ... l", max)} over −∞ padding. NaN propagates; a tie sends the gradient to the first maximal element.
     *
     * @param x [N, C, L] (or without N)
     * @param options kernel size, stride (default: the kernel size), padding (at most half the kernel), dilation
     * @return [N, C, L_out], L_out = ⌊(L + 2·padding − dilation·(kernel − 1) − 1) / stride⌋ + 1
     */
    public static Tensor maxPool1d(Tensor x, PoolingOptions options) {
        return Pooling.maxPool(x, options, 1);
    }

    /**
     * @param x [N, C, L] (or without N)
     * @param kernelSize the window (and stride) length
     * @return the pooled tensor (see {@link #maxPool1d(Tensor, PoolingOptions)})
     */
    public static Tensor maxPool1d(Tensor x, int kernelSize) {
        return Pooling.maxPool(x, PoolingOptions.kernel(kernelSize), 1);
    }

    /**
     * 2-d max pooling, PyTorch's {@code max_pool2d}: the maximum of each window, {@code reduce("... (s*h + d*kh) (s*w + d*kw) -> ... h w", max)} over −∞ padding. NaN propagates; a tie sends the gradient to the first maximal element.
     *
     * @param x [N, C, H, W] (or without N)
     * @param options kernel size, stride (default: the kernel size), padding (at most half the kernel), dilation
     * @return [N, C, H_out, W_out], L_out = ⌊(L + 2·padding − dilation·(kernel − 1) − 1) / stride⌋ + 1
     */
    public static Tensor maxPool2d(Tensor x, PoolingOptions options) {
        return Pooling.maxPool(x, options, 2);
    }

    /**
     * @param x [N, C, H, W] (or without N)
     * @param kernelSize the window (and stride) length
     * @return the pooled tensor (see {@link #maxPool2d(Tensor, PoolingOptions)})
     */
    public static Tensor maxPool2d(Tensor x, int kernelSize) {
        return Pooling.maxPool(x, PoolingOptions.kernel(kernelSize), 2);
    }

    /**
     * 1-d average pooling, PyTorch's {@code avg_pool1d}: each window's sum over zero padding, {@code reduce("... (s*l + kl) -> ... l", sum)}, divided by the window size (or by the elements not padding, or the divisor override).
     *
     * @param x [N, C, L] (or without N)
     * @param options kernel size, stride (default: the kernel size), padding (at most half the kernel), whether padding counts, divisor override
     * @return [N, C, L_out], L_out = ⌊(L + 2·padding − dilation·(kernel − 1) − 1) / stride⌋ + 1
     */
    public static Tensor avgPool1d(Tensor x, PoolingOptions options) {
        return Pooling.avgPool(x, options, 1);
    }

    /**
     * @param x [N, C, L] (or without N)
     * @param kernelSize the window (and stride) length
     * @return the pooled tensor (see {@link #avgPool1d(Tensor, PoolingOptions)})
     */
    public static Tensor avgPool1d(Tensor x, int kernelSize) {
        return Pooling.avgPool(x, PoolingOptions.kernel(kernelSize), 1);
    }

    /**
     * 2-d average pooling, PyTorch's {@code avg_pool2d}: each window's sum over zero padding, {@code reduce("... (s*h + kh) (s*w + kw) -> ... h w", sum)}, divided by the window size (or by the elements not padding, or the divisor override).
     *
     * @param x [N, C, H, W] (or without N)
     * @param options kernel size, stride (default: the kernel size), padding (at most half the kernel), whether padding counts, divisor override
     * @return [N, C, H_out, W_out], L_out = ⌊(L + 2·padding − dilation·(kernel − 1) − 1) / stride⌋ + 1
     */
    public static Tensor avgPool2d(Tensor x, PoolingOptions options) {
        return Pooling.avgPool(x, options, 2);
    }

    /**
     * @param x [N, C, H, W] (or without N)
     * @param kernelSize the window (and stride) length
     * @return the pooled tensor (see {@link #avgPool2d(Tensor, PoolingOptions)})
     */
    public static Tensor avgPool2d(Tensor x, int kernelSize) {
        return Pooling.avgPool(x, PoolingOptions.kernel(kernelSize), 2);
    }

    /**
     * Adaptive 2-d average pooling, PyTorch's {@code adaptive_avg_pool2d}: output cell i of each
     * spatial axis averages the inputs [⌊i·in/out⌋, ⌈(i + 1)·in/out⌉) (bins overlap when out does not
     * divide in). A divisible axis is the pattern {@code reduce("... (o k) w -> ... o w", mean)}; any
     * other is contracted with a constant averaging matrix, {@code "... i w, o i -> ... o w"}.
     *
     * <pre>{@code
     * Functional.adaptiveAvgPool2d(x, 1, 1);    // global average pooling
     * Functional.adaptiveAvgPool2d(x, 3, 3);    // x [.., 5, 5]: bins [0, 2), [1, 4), [3, 5) per axis
     * }</pre>
     *
     * @param x [N, C, H, W] (or [C, H, W])
     * @param outHeight the output height, not negative (0 gives an empty tensor, as PyTorch)
     * @param outWidth the output width, not negative
     * @return [N, C, outHeight, outWidth]
     */
    public static Tensor adaptiveAvgPool2d(Tensor x, int outHeight, int outWidth) {
        return Resampling.adaptiveAvgPool2d(x, outHeight, outWidth);
    }

    /**
     * PyTorch's {@code interpolate}: resizing by a size or a scale factor, one spatial axis at a
     * time. Nearest by a whole factor is {@code repeat("... h w -> ... (h k) w")}; other sizes and
     * the linear modes contract the axis with a constant matrix of PyTorch's weights (source index
     * ⌊dst·scale⌋ for nearest; for the linear modes dst·(in − 1)/(out − 1) with align_corners, else
     * (dst + ½)·scale − ½ clamped at 0, with the last input repeated at the far edge). An infinite or
     * NaN input reaches its whole row of outputs on the matrix path.
     *
     * <pre>{@code
     * Functional.interpolate(x, InterpolateOptions.scaleFactor(2));                         // [1, 3, 4, 4] -> [1, 3, 8, 8]
     * Functional.interpolate(x, InterpolateOptions.size(7, 5).mode(InterpolationMode.BILINEAR));
     * }</pre>
     *
     * @param x [N, C, L], [N, C, H, W] or [N, C, D, H, W]
     * @param options size or scale factor, mode (nearest by default), align_corners
     * @return [N, C, *output size]
     */
    public static Tensor interpolate(Tensor x, InterpolateOptions options) {
        return Resampling.interpolate(x, options);
    }

    // ------------------------------------------------------------------ batch normalization

    /**
     * Batch normalization, PyTorch's {@code batch_norm}: (x − mean) / √(var + eps) · weight + bias per
     * channel (dimension 1). Training uses the batch's mean and biased variance over every other
     * dimension and updates the running statistics in place
     * (running ← (1 − momentum)·running + momentum·batch, the variance unbiased); evaluation uses
     * the running statistics.
     *
     * @param x [N, C, ...]
     * @param runningMean [C], updated in place when training (a leaf, see {@link Tensor#assign})
     * @param runningVar [C], updated in place when training
     * @param weight [C]
     * @param bias [C]
     * @param training whether to use (and record) the batch's statistics
     * @param momentum the weight of the batch in the running update
     * @param eps added to the variance
     * @return the normalized tensor, x's shape
     * @throws dev.ein4j.error.ShapeException if a channel has a single value when training
     */
    public static Tensor batchNorm(Tensor x, Tensor runningMean, Tensor runningVar, Tensor weight, Tensor bias,
            boolean training, double momentum, double eps) {
        checkAll(x, "x", runningMean, "runningMean", runningVar, "runningVar", weight, "weight", bias, "bias");
        return Normalization.batchNorm(x, runningMean, runningVar, weight, bias, training, momentum, eps);
    }

    /**
     * Batch normalization without the affine part (see {@link #batchNorm(Tensor, Tensor, Tensor, Tensor, Tensor, boolean, double, double)}).
     *
     * @param x [N, C, ...]
     * @param runningMean [C], updated in place when training
     * @param runningVar [C], updated in place when training
     * @param training whether to use (and record) the batch's statistics
     * @param momentum the weight of the batch in the running update
     * @param eps added to the variance
     * @return the normalized tensor
     */
    public static Tensor batchNorm(Tensor x, Tensor runningMean, Tensor runningVar, boolean training, double momentum,
            double eps) {
        checkAll(x, "x", runningMean, "runningMean", runningVar, "runningVar");
        return Normalization.batchNorm(x, runningMean, runningVar, null, null, training, momentum, eps);
    }

    /**
     * Batch normalization by the batch's own statistics, with no running statistics kept.
     *
     * @param x [N, C, ...]
     * @param weight [C]
     * @param bias [C]
     * @param eps added to the variance
     * @return the normalized tensor
     */
    public static Tensor batchNorm(Tensor x, Tensor weight, Tensor bias, double eps) {
        checkAll(x, "x", weight, "weight", bias, "bias");
        return Normalization.batchNorm(x, null, null, weight, bias, true, 0.0, eps);
    }

    // ------------------------------------------------------------------ embedding, attention, dropout

    /**
     * Embedding lookup, PyTorch's {@code embedding}: y[..., :] = weight[indices[...], :], a gather of
     * the weight's rows ({@code weight.indexSelect(0, indices)}), O(indices · D) whatever the
     * vocabulary; the weight's gradient adds each row's cotangents. An index outside [0, V) is an
     * {@link dev.ein4j.error.IndexOutOfRangeException} when the lookup runs.
     *
     * @param indices int32, any shape
     * @param weight [V, D]
     * @return [*indices.shape, D]
     */
    public static Tensor embedding(Tensor indices, Tensor weight) {
        checkAll(indices, "indices", weight, "weight");
        return Embeddings.embedding(indices, weight, -1);
    }

    /**
     * @param indices int32, any shape
     * @param weight [V, D]
     * @param paddingIndex a row (negative counts from the end) that is looked up but gets no gradient
     * @return [*indices.shape, D]
     */
    public static Tensor embedding(Tensor indices, Tensor weight, int paddingIndex) {
        checkAll(indices, "indices", weight, "weight");
        Checks.rank(weight, "embedding", "weight", 2);
        return Embeddings.embedding(indices, weight, Embeddings.paddingRow(paddingIndex, weight));
    }

    /**
     * Scaled dot-product attention, PyTorch's {@code scaled_dot_product_attention}:
     * softmax(q·kᵀ·scale [masked]) · v, as {@code einsum("... l e, ... s e -> ... l s")}, a stable
     * softmax over s, and {@code einsum("... l s, ... s v -> ... l v")}. Batch dimensions broadcast.
     * With {@link AttentionOptions#enableGqa} the query heads at −3 are grouped over fewer key and
     * value heads, {@code "... (h g) l e, ... h s e -> ... (h g) l s"}.
     *
     * @param q [..., L, E]
     * @param k [..., S, E]
     * @param v [..., S, Ev]
     * @param options mask or causal rule, scale, dropout
     * @return [..., L, Ev]
     */
    public static Tensor scaledDotProductAttention(Tensor q, Tensor k, Tensor v, AttentionOptions options) {
        return Attention.scaledDotProduct(q, k, v, options);
    }

    /**
     * @param q [..., L, E]
     * @param k [..., S, E]
     * @param v [..., S, Ev]
     * @return softmax(q·kᵀ/√E)·v, [..., L, Ev]
     */
    public static Tensor scaledDotProductAttention(Tensor q, Tensor k, Tensor v) {
        return Attention.scaledDotProduct(q, k, v, AttentionOptions.defaults());
    }

    /**
     * Rotary position embedding as Hugging Face's Llama applies it ({@code apply_rotary_pos_emb}
     * with unsqueeze_dim = 1): x·cos + rotate_half(x)·sin, rotate_half([x₁, x₂]) = [−x₂, x₁] over the
     * halves of the last axis. cos and sin get the head axis at −3 and broadcast over it; when their
     * last length R is below x's, only the first R features rotate (partial rotary) and the rest pass.
     * Make cos and sin with {@link RotaryEmbedding#cosSin}.
     *
     * <pre>{@code
     * RotaryEmbedding.CosSin angles = new RotaryEmbedding(64, 1e4).cosSin(positionIds);   // [b, t, 64]
     * Tensor q = Functional.applyRotaryEmbedding(query, angles.cos(), angles.sin());      // [b, heads, t, 64]
     * }</pre>
     *
     * @param x [b, heads, t, D] (any rank ≥ 3: [..., heads, t, D])
     * @param cos [b, t, R] (x's rank minus one), R even and at most D, cast to x's dtype
     * @param sin like cos
     * @return x rotated, its shape
     */
    public static Tensor applyRotaryEmbedding(Tensor x, Tensor cos, Tensor sin) {
        return Rotary.apply(x, cos, sin);
    }

    /**
     * Dropout, PyTorch's {@code dropout}: when training, each element is zeroed with probability p
     * and the rest scaled by 1/(1 − p); otherwise x itself. The mask is counter-based random
     * numbers from the generator, the same on every backend.
     *
     * @param x any tensor
     * @param probability p in [0, 1)
     * @param training whether to drop
     * @param generator the random stream
     * @return the tensor with dropout applied
     */
    public static Tensor dropout(Tensor x, double probability, boolean training, Generator generator) {
        return Dropouts.dropout(x, probability, training, generator);
    }

    /**
     * @param x any tensor
     * @param probability p in [0, 1)
     * @param training whether to drop
     * @return the tensor with dropout applied, the mask from {@link Generator#global()}
     */
    public static Tensor dropout(Tensor x, double probability, boolean training) {
        return Dropouts.dropout(x, probability, training, Generator.global());
    }

    // ------------------------------------------------------------------ activations

    /**
     * PyTorch's {@code relu6}: min(max(x, 0), 6); NaN stays NaN; the gradient is 1 on (0, 6) and 0
     * elsewhere, also at 0 and 6.
     *
     * <pre>{@code
     * Functional.relu6(Tensor.of(new double[] {-1, 3, 7}));      // [0, 3, 6]
     * }</pre>
     *
     * @param x a floating tensor
     * @return x's shape
     */
    public static Tensor relu6(Tensor x) {
        return PiecewiseActivations.relu6(x);
    }

    /**
     * PyTorch's {@code hardswish}: x·min(max(x + 3, 0), 6)/6; gradient 0 up to −3 (included),
     * x/3 + ½ on (−3, 3), 1 from 3 on (included), as PyTorch's.
     *
     * <pre>{@code
     * Functional.hardswish(Tensor.of(new double[] {-4, 0, 1, 4}));    // [-0, 0, 0.6667, 4]
     * }</pre>
     *
     * @param x a floating tensor
     * @return x's shape
     */
    public static Tensor hardswish(Tensor x) {
        return PiecewiseActivations.hardswish(x);
    }

    /**
     * PyTorch's {@code hardsigmoid}: min(max(x + 3, 0), 6)/6; gradient 1/6 strictly inside
     * (−3, 3) and 0 elsewhere (PyTorch's float 1/6, 0.1666666716, in float64 too).
     *
     * <pre>{@code
     * Functional.hardsigmoid(Tensor.of(new double[] {-4, 0, 1.5, 4}));   // [0, 0.5, 0.75, 1]
     * }</pre>
     *
     * @param x a floating tensor
     * @return x's shape
     */
    public static Tensor hardsigmoid(Tensor x) {
        return PiecewiseActivations.hardsigmoid(x);
    }

    /** Checks (value, name) pairs for null in order, before anything else runs. */
    private static void checkAll(Object... valuesAndNames) {
        for (int i = 0; i < valuesAndNames.length; i += 2) {
            Checks.notNull(valuesAndNames[i], (String) valuesAndNames[i + 1]);
        }
    }
}
