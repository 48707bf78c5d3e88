package dev.ein4j.models.llama;

import dev.ein4j.error.EinopsException;
import dev.ein4j.models.AttentionHeads;
import dev.ein4j.nn.Functional;
import dev.ein4j.nn.Linear;
import dev.ein4j.nn.Module;
import dev.ein4j.nn.RotaryEmbedding;
import dev.ein4j.tensor.Generator;
import dev.ein4j.tensor.Tensor;
import java.util.Objects;

/**
 * Llama's self-attention: {@code q_proj} to the query heads, {@code k_proj} and {@code v_proj} to
 * the (fewer, for grouped-query attention) key/value heads, rotary embeddings by position on q and
 * k, the attention core, {@code o_proj}. {@link #project} returns rotated q, k and v, so that a
 * key/value cache can extend k and v before {@link #attend}.
 */
public final class LlamaAttention extends Module {

    private final int heads;
    private final int keyValueHeads;
    private final double scale;
    private final double dropout;

    /** @param config the options */
    public LlamaAttention(LlamaConfig config) {
        Objects.requireNonNull(config, "config");
        int width = config.hiddenSize();
        int headDim = config.headDim();
        boolean bias = config.attentionBias();
        this.heads = config.numAttentionHeads();
        this.keyValueHeads = config.numKeyValueHeads();
        registerModule("q_proj", new Linear(width, heads * headDim, bias, Generator.global()));
        registerModule("k_proj", new Linear(width, keyValueHeads * headDim, bias, Generator.global()));
        registerModule("v_proj", new Linear(width, keyValueHeads * headDim, bias, Generator.global()));
        registerModule("o_proj", new Linear(heads * headDim, width, bias, Generator.global()));
        this.scale = 1 / Math.sqrt(headDim);
        this.dropout = config.attentionDropout();
    }

    /**
     * @param x [b, t, H]
     * @param angles cos and sin of the tokens' positions, [b or 1, t, d]
     * @return {q [b, heads, t, d], k [b, kv heads, t, d], v [b, kv heads, t, d]}, q and k rotated
     */
    public Tensor[] project(Tensor x, RotaryEmbedding.CosSin angles) {
        Objects.requireNonNull(x, "x");
        Objects.requireNonNull(angles, "angles");
        Tensor q = AttentionHeads.split(children().get("q_proj").forward(x), heads);
        Tensor k = AttentionHeads.split(children().get("k_proj").forward(x), keyValueHeads);
        Tensor v = AttentionHeads.split(children().get("v_proj").forward(x), keyValueHeads);
        return new Tensor[] {Functional.applyRotaryEmbedding(q, angles.cos(), angles.sin()),
            Functional.applyRotaryEmbedding(k, angles.cos(), angles.sin()), v};
    }

    /**
     * @param q [b, heads, t, d]
     * @param k [b, kv heads, s, d]
     * @param v [b, kv heads, s, d]
     * @param keep bool broadcastable to [b, heads, t, s], or null
     * @return [b, t, H], after {@code o_proj}
     */
    public Tensor attend(Tensor q, Tensor k, Tensor v, Tensor keep) {
        Objects.requireNonNull(q, "q");
        Objects.requireNonNull(k, "k");
        Objects.requireNonNull(v, "v");
        Tensor attended = AttentionHeads.attend(q, k, v, keep, scale, isTraining() ? dropout : 0);
        return children().get("o_proj").forward(AttentionHeads.merge(attended));
    }

    /**
     * @param x [b, t, H]
     * @param angles cos and sin of the tokens' positions
     * @param keep bool broadcastable to [b, heads, t, t], or null
     * @return [b, t, H]
     */
    public Tensor forward(Tensor x, RotaryEmbedding.CosSin angles, Tensor keep) {
        Objects.requireNonNull(x, "x");
        Objects.requireNonNull(angles, "angles");
        Tensor[] qkv = project(x, angles);
        return attend(qkv[0], qkv[1], qkv[2], keep);
    }

    /** Attention needs positions: call {@link #forward(Tensor, RotaryEmbedding.CosSin, Tensor)}. */
    @Override
    public Tensor forward(Tensor x) {
        Objects.requireNonNull(x, "x");
        throw new EinopsException("LlamaAttention needs the tokens' rotary angles: call forward(x, angles, keep)");
    }
}
