package dev.ein4j.models.llama;

import dev.ein4j.error.EinopsException;
import dev.ein4j.models.HfActivations;
import dev.ein4j.models.generation.DecodeStep;
import dev.ein4j.nn.GatedMlp;
import dev.ein4j.nn.Module;
import dev.ein4j.nn.RmsNorm;
import dev.ein4j.nn.RotaryEmbedding;
import dev.ein4j.tensor.Generator;
import dev.ein4j.tensor.Tensor;
import java.util.Objects;

/**
 * One pre-norm Llama decoder layer: x + self_attn(input_layernorm(x)), then
 * + mlp(post_attention_layernorm(·)), the norms RMS norms and the MLP gated
 * (down_proj(act(gate_proj(x))·up_proj(x))).
 */
public final class LlamaDecoderLayer extends Module {

    private final LlamaAttention attention;

    /** @param config the options */
    public LlamaDecoderLayer(LlamaConfig config) {
        Objects.requireNonNull(config, "config");
        int[] width = {config.hiddenSize()};
        this.attention = registerModule("self_attn", new LlamaAttention(config));
        registerModule("mlp", new GatedMlp(config.hiddenSize(), config.intermediateSize(), config.mlpBias(),
                HfActivations.named(config.hiddenAct()), Generator.global()));
        registerModule("input_layernorm", new RmsNorm(width, config.rmsNormEps(), true));
        registerModule("post_attention_layernorm", new RmsNorm(width, config.rmsNormEps(), true));
    }

    /** @return the self-attention, for callers that cache its keys and values */
    public LlamaAttention attention() {
        return attention;
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
        Tensor hidden = x.add(attention.forward(children().get("input_layernorm").forward(x), angles, keep));
        return hidden.add(children().get("mlp").forward(children().get("post_attention_layernorm").forward(hidden)));
    }

    /**
     * The layer over a step's tokens with a key/value cache: their rotated keys and their values are
     * written into the cache at the step's positions, and the queries attend to every position cached
     * so far.
     *
     * @param x [b, t, H], the step's hidden states
     * @param angles cos and sin of the step's positions
     * @param step the positions, mask and cache
     * @param layerIndex this layer's index, its slot in the cache
     * @return [b, t, H]
     */
    public Tensor forward(Tensor x, RotaryEmbedding.CosSin angles, DecodeStep step, int layerIndex) {
        Objects.requireNonNull(x, "x");
        Objects.requireNonNull(angles, "angles");
        Objects.requireNonNull(step, "step");
        Tensor[] qkv = attention.project(children().get("input_layernorm").forward(x), angles);
        Tensor[] cached = step.write(layerIndex, qkv[1], qkv[2], qkv[0], x); // x: the residual, read again below
        Tensor hidden = x.add(attention.attend(qkv[0], cached[0], cached[1], step.mask()));
        return hidden.add(children().get("mlp").forward(children().get("post_attention_layernorm").forward(hidden)));
    }

    /** A layer needs positions: call {@link #forward(Tensor, RotaryEmbedding.CosSin, Tensor)}. */
    @Override
    public Tensor forward(Tensor x) {
        Objects.requireNonNull(x, "x");
        throw new EinopsException("LlamaDecoderLayer needs the tokens' rotary angles: call forward(x, angles, keep)");
    }
}
