package dev.ein4j.models.llama;

import dev.ein4j.models.AttentionHeads;
import dev.ein4j.models.ModuleList;
import dev.ein4j.models.generation.DecodeStep;
import dev.ein4j.nn.Embedding;
import dev.ein4j.nn.Module;
import dev.ein4j.nn.RmsNorm;
import dev.ein4j.nn.RotaryEmbedding;
import dev.ein4j.tensor.Generator;
import dev.ein4j.tensor.Tensor;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Llama's body (transformers' {@code LlamaModel}, {@code model.*}): {@code embed_tokens}, the
 * decoder {@code layers}, the final RMS {@code norm}; positions enter only through the rotary
 * angles of q and k.
 */
public final class LlamaModel extends Module {

    private final LlamaConfig config;
    private final Embedding tokens;
    private final ModuleList<LlamaDecoderLayer> layers;
    private final RotaryEmbedding rotary;

    /** @param config the options */
    public LlamaModel(LlamaConfig config) {
        Objects.requireNonNull(config, "config");
        this.config = config;
        this.tokens = registerModule("embed_tokens", config.padTokenId() == null
                ? new Embedding(config.vocabSize(), config.hiddenSize())
                : new Embedding(config.vocabSize(), config.hiddenSize(), config.padTokenId(), Generator.global()));
        List<LlamaDecoderLayer> list = new ArrayList<>();
        for (int i = 0; i < config.numHiddenLayers(); i++) {
            list.add(new LlamaDecoderLayer(config));
        }
        this.layers = registerModule("layers", new ModuleList<>(list));
        registerModule("norm", new RmsNorm(new int[] {config.hiddenSize()}, config.rmsNormEps(), true));
        this.rotary = config.rope().embedding(config.maxPositionEmbeddings());
    }

    /** @return the token embedding table [V, H] */
    public Embedding tokenEmbedding() {
        return tokens;
    }

    /** @return the decoder layers, for callers that cache keys and values */
    public ModuleList<LlamaDecoderLayer> layers() {
        return layers;
    }

    /**
     * @param positionIds int32 [t] or [b, t]
     * @param length the largest position plus one (the dynamic rope type scales by it)
     * @return the rotary angles of those positions
     */
    public RotaryEmbedding.CosSin angles(Tensor positionIds, int length) {
        Objects.requireNonNull(positionIds, "positionIds");
        RotaryEmbedding embedding = config.rope().dependsOnLength() ? config.rope().embedding(length) : rotary;
        return embedding.cosSin(positionIds);
    }

    /**
     * @param inputIds int32 [b, t]
     * @param angles the rotary angles of the tokens' positions, from {@link #angles}
     * @param keep bool broadcastable to [b, heads, t, t], or null
     * @return the final hidden states [b, t, H], after {@code norm}
     */
    public Tensor forward(Tensor inputIds, RotaryEmbedding.CosSin angles, Tensor keep) {
        Objects.requireNonNull(inputIds, "inputIds");
        Objects.requireNonNull(angles, "angles");
        Tensor hidden = tokens.forward(inputIds);
        for (LlamaDecoderLayer layer : layers.modules()) {
            hidden = layer.forward(hidden, angles, keep);
        }
        return children().get("norm").forward(hidden);
    }

    /**
     * @param inputIds int32 [b, t], the step's tokens
     * @param step their positions and the key/value cache, which this writes
     * @return the final hidden states [b, t, H], after {@code norm}
     */
    public Tensor forward(Tensor inputIds, DecodeStep step) {
        Objects.requireNonNull(inputIds, "inputIds");
        Objects.requireNonNull(step, "step");
        // the dynamic rope type scales by the longest sequence so far, as transformers' dynamic_rope_update
        RotaryEmbedding.CosSin angles = angles(step.positions(), step.end());
        Tensor hidden = tokens.forward(inputIds);
        List<LlamaDecoderLayer> list = layers.modules();
        for (int layer = 0; layer < list.size(); layer++) {
            hidden = list.get(layer).forward(hidden, angles, step, layer);
        }
        return children().get("norm").forward(hidden);
    }

    /** @return the hidden states of int32 ids [b, t] at positions 0..t-1, causally */
    @Override
    public Tensor forward(Tensor inputIds) {
        Objects.requireNonNull(inputIds, "inputIds");
        int length = inputIds.length(1);
        Tensor positions = AttentionHeads.positions(length);
        return forward(inputIds, angles(positions, length),
                AttentionHeads.causal(positions, positions, null));
    }
}
