package dev.ein4j.models;

import dev.ein4j.nn.Linear;
import dev.ein4j.nn.Module;
import dev.ein4j.tensor.Generator;
import dev.ein4j.tensor.Tensor;
import java.util.Objects;

/**
 * Self-attention with separate {@code query}, {@code key} and {@code value} projections, as BERT's
 * {@code attention.self} and ViT's {@code attention.attention} hold them: heads by
 * {@code "b t (h d) -> b h t d"}, softmax(q·kᵀ/√d)·v, heads merged by {@code "b h t d -> b t (h d)"}.
 * The output projection belongs to the caller. The projection ({@link #project}) and the core
 * ({@link #attend}) are separate steps, so that a cache can hold keys and values between them.
 */
public final class SelfAttention extends Module {

    private final int heads;
    private final double scale;
    private final double dropout;

    /**
     * @param width the input width
     * @param heads the number of heads
     * @param headDim the width of each head (heads · headDim is the output width)
     * @param bias whether the projections have biases
     * @param dropout the dropout of the attention weights when training
     */
    public SelfAttention(int width, int heads, int headDim, boolean bias, double dropout) {
        for (String name : new String[] {"query", "key", "value"}) {
            registerModule(name, new Linear(width, heads * headDim, bias, Generator.global()));
        }
        this.heads = heads;
        this.scale = 1 / Math.sqrt(headDim);
        this.dropout = dropout;
    }

    /**
     * @param x [b, t, width]
     * @return {q, k, v}, each [b, heads, t, d]
     */
    public Tensor[] project(Tensor x) {
        Objects.requireNonNull(x, "x");
        return new Tensor[] {AttentionHeads.split(children().get("query").forward(x), heads),
            AttentionHeads.split(children().get("key").forward(x), heads),
            AttentionHeads.split(children().get("value").forward(x), heads)};
    }

    /**
     * @param q [b, heads, t, d]
     * @param k [b, heads, s, d]
     * @param v [b, heads, s, d]
     * @param keep bool broadcastable to [b, heads, t, s], or null
     * @return [b, t, heads·d]
     */
    public Tensor attend(Tensor q, Tensor k, Tensor v, Tensor keep) {
        Objects.requireNonNull(q, "q");
        Objects.requireNonNull(k, "k");
        Objects.requireNonNull(v, "v");
        return AttentionHeads.merge(AttentionHeads.attend(q, k, v, keep, scale, isTraining() ? dropout : 0));
    }

    /**
     * @param x [b, t, width]
     * @param keep bool broadcastable to [b, heads, t, t], or null
     * @return [b, t, heads·d]
     */
    public Tensor forward(Tensor x, Tensor keep) {
        Objects.requireNonNull(x, "x");
        Tensor[] qkv = project(x);
        return attend(qkv[0], qkv[1], qkv[2], keep);
    }

    /** @return full (unmasked) self-attention over x */
    @Override
    public Tensor forward(Tensor x) {
        Objects.requireNonNull(x, "x");
        return forward(x, null);
    }
}
