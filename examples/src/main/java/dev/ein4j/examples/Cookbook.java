package dev.ein4j.examples;

import dev.ein4j.tensor.Axes;
import dev.ein4j.tensor.Ein;
import dev.ein4j.tensor.Packed;
import dev.ein4j.tensor.Reduction;
import dev.ein4j.tensor.Tensor;
import java.util.List;

/**
 * The pattern cookbook: each recipe is one short method whose body is the snippet shown in
 * {@code docs/cookbook.md} (a test checks that every snippet there appears here verbatim, and
 * {@code CookbookTest} checks each recipe's result against an independent computation).
 */
public final class Cookbook {

    private Cookbook() {
    }

    /** Images from channels-last to channels-first: [b, h, w, c] to [b, c, h, w] (a view). */
    static Tensor channelsFirst(Tensor images) {
        return images.rearrange("b h w c -> b c h w");
    }

    /** Flatten everything but the batch: [b, c, h, w] to [b, c·h·w] (a view). */
    static Tensor flatten(Tensor images) {
        return images.rearrange("b c h w -> b (c h w)");
    }

    /** Space to depth: [b, c, 2h, 2w] to [b, 4c, h, w]. */
    static Tensor spaceToDepth(Tensor images) {
        return images.rearrange("b c (h h2) (w w2) -> b (h2 w2 c) h w", Axes.of("h2", 2, "w2", 2));
    }

    /** Patches of a vision transformer: [b, c, h, w] to [b, patches, 16·16·c]. */
    static Tensor patches(Tensor images) {
        return images.rearrange("b c (h p1) (w p2) -> b (h w) (p1 p2 c)", Axes.of("p1", 16, "p2", 16));
    }

    /** Global average pooling: [b, c, h, w] to [b, c]. */
    static Tensor globalAveragePool(Tensor images) {
        return images.reduce("b c h w -> b c", Reduction.MEAN);
    }

    /** 2×2 max pooling: [b, c, 2h, 2w] to [b, c, h, w]. */
    static Tensor maxPool(Tensor images) {
        return images.reduce("b c (h 2) (w 2) -> b c h w", Reduction.MAX);
    }

    /** 3×3 max pooling with stride 2, a window axis in reduce: [b, c, h, w] to [b, c, h', w']. */
    static Tensor overlappingMaxPool(Tensor images) {
        return images.reduce("b c (2*h + kh) (2*w + kw) -> b c h w", Reduction.MAX, Axes.of("kh", 3, "kw", 3));
    }

    /** Nearest-neighbour upsampling by 2 (a broadcast view until computed). */
    static Tensor upsample(Tensor images) {
        return images.repeat("b c h w -> b c (h 2) (w 2)");
    }

    /** Batched matrix product. */
    static Tensor batchedMatmul(Tensor a, Tensor b) {
        return Ein.einsum("b i k, b k j -> b i j", a, b);
    }

    /** Multi-head attention scores: q [b, t, (h d)] against k, heads split inside the einsum. */
    static Tensor attentionScores(Tensor q, Tensor k, int heads) {
        Tensor qh = q.rearrange("b t (h d) -> b h t d", Axes.of("h", heads));
        Tensor kh = k.rearrange("b s (h d) -> b h s d", Axes.of("h", heads));
        return Ein.einsum("b h t d, b h s d -> b h t s", qh, kh);
    }

    /** A 3×3 convolution with stride 2 and padding 1, one einsum over windows. */
    static Tensor convolution(Tensor images, Tensor kernels) {
        Tensor padded = images.pad(new int[] {0, 0, 1, 1}, new int[] {0, 0, 1, 1}, 0.0);
        return Ein.einsum("b c (2*h + kh) (2*w + kw), o c kh kw -> b o h w", padded, kernels);
    }

    /** A depthwise convolution: every channel its own 3×3 kernel, the groups in a composition. */
    static Tensor depthwiseConvolution(Tensor images, Tensor kernels) {
        return Ein.einsum("b (g c) (h + kh) (w + kw), (g o) c kh kw -> b (g o) h w", images, kernels);
    }

    /** im2col (unfold): every 3×3 window as a column, [b, c·9, positions] (not reversible). */
    static Tensor unfold(Tensor images) {
        return images.rearrange("b c (h + kh) (w + kw) -> b (c kh kw) (h w)", Axes.of("kh", 3, "kw", 3));
    }

    /** A trace and a diagonal: repeated axes in einsum. */
    static List<Tensor> traceAndDiagonal(Tensor square) {
        return List.of(Ein.einsum("i i ->", square), Ein.einsum("i i -> i", square));
    }

    /** Pack a class token with patch tokens, then split them again. */
    static List<Tensor> packAndUnpack(Tensor classToken, Tensor patchTokens) {
        Packed packed = Ein.pack("b * d", classToken, patchTokens);        // [b, 1 + n, d]
        Tensor mixed = packed.tensor().mul(2);
        return Ein.unpack(mixed, packed.packedShapes(), "b * d");
    }

    /** The gradient of a pattern program: every pattern is differentiable. */
    static Tensor gradientOfASum(Tensor weights, Tensor inputs) {
        Tensor w = weights.requireGrad();
        Ein.einsum("b i, o i -> b o", inputs, w).tanh().sum().backward();
        return w.grad();
    }
}
