package dev.ein4j.examples;

import dev.ein4j.tensor.Reduction;
import dev.ein4j.tensor.Axes;
import dev.ein4j.tensor.Ein;
import dev.ein4j.tensor.GradientMode;
import dev.ein4j.tensor.Generator;
import dev.ein4j.tensor.Tensor;
import java.util.ArrayList;
import java.util.List;

/**
 * A one-block vision transformer in a dozen patterns: images are cut into patches with rearrange,
 * embedded with einsum (then tanh), attended with einsum, pooled with reduce. No layer code and no derivative is
 * written by hand: {@code backward()} differentiates the IR.
 */
final class TinyAttentionClassifier {

    private static final int PATCH = 4;
    private static final int WIDTH = 16;

    private final List<Tensor> parameters = new ArrayList<>();

    TinyAttentionClassifier(long seed) {
        int patchSize = PATCH * PATCH;
        int tokens = (BarsDataset.SIDE / PATCH) * (BarsDataset.SIDE / PATCH);
        parameters.add(init(seed, 1.0 / Math.sqrt(patchSize), patchSize, WIDTH));        // embed
        parameters.add(init(seed + 1, 0.1, tokens, WIDTH));                              // position
        parameters.add(init(seed + 2, 1.0 / Math.sqrt(WIDTH), 3, WIDTH, WIDTH));          // q k v
        parameters.add(init(seed + 3, 1.0 / Math.sqrt(WIDTH), WIDTH, BarsDataset.CLASSES)); // head
    }

    private static Tensor init(long seed, double scale, int... shape) {
        return Tensor.randn(new Generator(seed), shape).mul(scale).requireGrad();
    }

    List<Tensor> parameters() {
        return parameters;
    }

    /**
     * @param images [b, 1, 8, 8]
     * @return logits [b, 3]
     */
    Tensor logits(Tensor images) {
        Tensor embed = parameters.get(0);
        Tensor position = parameters.get(1);
        Tensor qkv = parameters.get(2);
        Tensor head = parameters.get(3);

        Tensor patches = images.rearrange("b c (h p1) (w p2) -> b (h w) (p1 p2 c)", Axes.of("p1", PATCH, "p2", PATCH));
        Tensor tokens = Ein.einsum("b t p, p d -> b t d", patches, embed).add(position).tanh();
        Tensor q = Ein.einsum("b t d, d e -> b t e", tokens, qkv.slice(0, 0, 1).squeeze(0));
        Tensor k = Ein.einsum("b t d, d e -> b t e", tokens, qkv.slice(0, 1, 2).squeeze(0));
        Tensor v = Ein.einsum("b t d, d e -> b t e", tokens, qkv.slice(0, 2, 3).squeeze(0));
        Tensor scores = Ein.einsum("b i e, b j e -> b i j", q, k).div(Math.sqrt(WIDTH));
        Tensor attended = Ein.einsum("b i j, b j e -> b i e", scores.softmax(-1), v);
        Tensor pooled = tokens.add(attended).reduce("b t d -> b d", Reduction.MEAN);
        return Ein.einsum("b d, d k -> b k", pooled, head);
    }

    /** Mean cross-entropy of the logits against one-hot labels. */
    static Tensor crossEntropy(Tensor logits, Tensor oneHot) {
        return logits.logSoftmax(-1).mul(oneHot).reduce("b k ->", Reduction.SUM).neg().div(logits.length(0));
    }

    /** Plain gradient descent: every parameter becomes a new leaf p − rate·∂L/∂p. */
    void step(double rate) {
        GradientMode.noGrad(() -> {
            for (int i = 0; i < parameters.size(); i++) {
                Tensor parameter = parameters.get(i);
                parameters.set(i, parameter.sub(parameter.grad().mul(rate)).requireGrad());
            }
        });
    }
}
