package dev.ein4j.models.gpt2;

import dev.ein4j.models.AttentionHeads;
import dev.ein4j.nn.Functional;
import dev.ein4j.nn.Module;
import dev.ein4j.tensor.Axes;
import dev.ein4j.tensor.Tensor;
import java.util.Objects;

/**
 * GPT-2's causal self-attention: one projection {@code c_attn} [E, 3E] read as
 * {@code "b t (three h d) -> three b h t d"}, the attention core, and {@code c_proj}. The
 * projection and the core are separate steps ({@link #project}, {@link #attend}) so that a key/value
 * cache can hold the keys and values between them.
 */
public final class Gpt2Attention extends Module {

    private final int heads;
    private final double scale;
    private final double attentionDropout;
    private final double residualDropout;

    /**
     * @param config the options
     * @param layerIndex the block's index, for {@code scale_attn_by_inverse_layer_idx}
     * @param crossAttention whether this is a cross-attention (keys and values from {@code c_attn}
     *     [E, 2E], queries from {@code q_attn}), held for the weights only
     */
    public Gpt2Attention(Gpt2Config config, int layerIndex, boolean crossAttention) {
        Objects.requireNonNull(config, "config");
        int width = config.nEmbd();
        registerModule("c_attn", new Conv1D(width, (crossAttention ? 2 : 3) * width));
        if (crossAttention) {
            registerModule("q_attn", new Conv1D(width, width));
        }
        registerModule("c_proj", new Conv1D(width, width));
        this.heads = config.nHead();
        double scaled = config.scaleAttnWeights() ? 1 / Math.sqrt(config.headDim()) : 1.0;
        this.scale = config.scaleAttnByInverseLayerIdx() ? scaled / (layerIndex + 1) : scaled;
        this.attentionDropout = config.attnPdrop();
        this.residualDropout = config.residPdrop();
    }

    /**
     * @param x [b, t, E]
     * @return {q, k, v}, each [b, h, t, d]
     */
    public Tensor[] project(Tensor x) {
        Objects.requireNonNull(x, "x");
        Tensor qkv = children().get("c_attn").forward(x)
                .rearrange("b t (three h d) -> three b h t d", Axes.of("three", 3, "h", heads));
        return new Tensor[] {part(qkv, 0), part(qkv, 1), part(qkv, 2)};
    }

    /**
     * @param q [b, h, t, d]
     * @param k [b, h, s, d]
     * @param v [b, h, s, d]
     * @param keep bool broadcastable to [b, h, t, s], or null
     * @return [b, t, E], after {@code c_proj}
     */
    public Tensor attend(Tensor q, Tensor k, Tensor v, Tensor keep) {
        Objects.requireNonNull(q, "q");
        Objects.requireNonNull(k, "k");
        Objects.requireNonNull(v, "v");
        Tensor heads = AttentionHeads.attend(q, k, v, keep, scale, isTraining() ? attentionDropout : 0);
        Tensor output = children().get("c_proj").forward(AttentionHeads.merge(heads));
        return Functional.dropout(output, residualDropout, isTraining());
    }

    /**
     * @param x [b, t, E]
     * @param keep bool broadcastable to [b, h, t, t], or null
     * @return [b, t, E]
     */
    public Tensor forward(Tensor x, Tensor keep) {
        Objects.requireNonNull(x, "x");
        Tensor[] qkv = project(x);
        return attend(qkv[0], qkv[1], qkv[2], keep);
    }

    /** @return causal self-attention over x by positions 0..t-1 */
    @Override
    public Tensor forward(Tensor x) {
        Objects.requireNonNull(x, "x");
        Tensor positions = AttentionHeads.positions(x.length(1));
        return forward(x, AttentionHeads.causal(positions, positions, null));
    }

    private static Tensor part(Tensor stacked, int index) {
        return stacked.slice(0, index, index + 1).squeeze(0);
    }
}
