package dev.ein4j.models.gpt2;

import dev.ein4j.models.AttentionHeads;
import dev.ein4j.models.generation.DecodeStep;
import dev.ein4j.nn.LayerNorm;
import dev.ein4j.nn.Module;
import dev.ein4j.tensor.Tensor;
import java.util.Objects;

/**
 * One GPT-2 block, pre-norm: x + attn(ln_1(x)), then + mlp(ln_2(·)). With
 * {@code add_cross_attention} it also holds {@code crossattention} and {@code ln_cross_attn}, which
 * only an encoder's states would use.
 */
public final class Gpt2Block extends Module {

    private final Gpt2Attention attention;

    /**
     * @param config the options
     * @param layerIndex the block's index
     */
    public Gpt2Block(Gpt2Config config, int layerIndex) {
        Objects.requireNonNull(config, "config");
        int[] width = {config.nEmbd()};
        registerModule("ln_1", new LayerNorm(width, config.layerNormEpsilon(), true));
        this.attention = registerModule("attn", new Gpt2Attention(config, layerIndex, false));
        registerModule("ln_2", new LayerNorm(width, config.layerNormEpsilon(), true));
        if (config.addCrossAttention()) {
            registerModule("crossattention", new Gpt2Attention(config, layerIndex, true));
            registerModule("ln_cross_attn", new LayerNorm(width, config.layerNormEpsilon(), true));
        }
        registerModule("mlp", new Gpt2Mlp(config));
    }

    /** @return the self-attention, for callers that cache its keys and values */
    public Gpt2Attention attention() {
        return attention;
    }

    /**
     * @param x [b, t, E]
     * @param keep bool broadcastable to [b, h, t, t], or null
     * @return [b, t, E]
     */
    public Tensor forward(Tensor x, Tensor keep) {
        Objects.requireNonNull(x, "x");
        Tensor hidden = x.add(attention.forward(children().get("ln_1").forward(x), keep));
        return hidden.add(children().get("mlp").forward(children().get("ln_2").forward(hidden)));
    }

    /**
     * The block over a step's tokens with a key/value cache: their keys and values are written into
     * the cache at the step's positions, and the queries attend to every position cached so far.
     *
     * @param x [b, t, E], the step's hidden states
     * @param step the positions, mask and cache
     * @param layerIndex this block's index, its slot in the cache
     * @return [b, t, E]
     */
    public Tensor forward(Tensor x, DecodeStep step, int layerIndex) {
        Objects.requireNonNull(x, "x");
        Objects.requireNonNull(step, "step");
        Tensor[] qkv = attention.project(children().get("ln_1").forward(x));
        Tensor[] cached = step.write(layerIndex, qkv[1], qkv[2], qkv[0], x); // x: the residual, read again below
        Tensor hidden = x.add(attention.attend(qkv[0], cached[0], cached[1], step.mask()));
        return hidden.add(children().get("mlp").forward(children().get("ln_2").forward(hidden)));
    }

    @Override
    public Tensor forward(Tensor x) {
        Objects.requireNonNull(x, "x");
        Tensor positions = AttentionHeads.positions(x.length(1));
        return forward(x, AttentionHeads.causal(positions, positions, null));
    }
}
