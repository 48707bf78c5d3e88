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
     * Embedding lookup, PyTorch's {@code embedding}: y[..., :] = weight[indices[...], :], as the
     * contraction {@code einsum("... v, v d -> ... d", one_hot(indices), weight)}. The indices are
     * read to check that they lie in [0, V) (a synchronisation point).
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

    /** Checks (value, name) pairs for null in order, before anything else runs. */
    private static void checkAll(Object... valuesAndNames) {
        for (int i = 0; i < valuesAndNames.length; i += 2) {
            Checks.notNull(valuesAndNames[i], (String) valuesAndNames[i + 1]);
        }
    }
}
