package dev.ein4j.models.gpt2;

import dev.ein4j.models.AttentionHeads;
import dev.ein4j.models.ModuleList;
import dev.ein4j.models.generation.DecodeStep;
import dev.ein4j.nn.Embedding;
import dev.ein4j.nn.Functional;
import dev.ein4j.nn.LayerNorm;
import dev.ein4j.nn.Module;
import dev.ein4j.tensor.Tensor;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * GPT-2's body (transformers' {@code GPT2Model}): token embeddings {@code wte} plus learned
 * position embeddings {@code wpe}, the blocks {@code h}, and the final layer norm {@code ln_f}.
 */
public final class Gpt2Model extends Module {

    private final Gpt2Config config;
    private final Embedding tokens;
    private final Embedding positions;
    private final ModuleList<Gpt2Block> blocks;

    /** @param config the options */
    public Gpt2Model(Gpt2Config config) {
        Objects.requireNonNull(config, "config");
        this.config = config;
        this.tokens = registerModule("wte", new Embedding(config.vocabSize(), config.nEmbd()));
        this.positions = registerModule("wpe", new Embedding(config.nPositions(), config.nEmbd()));
        List<Gpt2Block> list = new ArrayList<>();
        for (int i = 0; i < config.nLayer(); i++) {
            list.add(new Gpt2Block(config, i));
        }
        this.blocks = registerModule("h", new ModuleList<>(list));
        registerModule("ln_f", new LayerNorm(new int[] {config.nEmbd()}, config.layerNormEpsilon(), true));
    }

    /** @return the token embedding table {@code wte} [V, E] */
    public Embedding tokenEmbedding() {
        return tokens;
    }

    /** @return the blocks, for callers that cache keys and values */
    public ModuleList<Gpt2Block> blocks() {
        return blocks;
    }

    /**
     * @param inputIds int32 [b, t]
     * @param positionIds int32 [t] or [b, t], each below n_positions
     * @param keep bool broadcastable to [b, h, t, t]: which keys each query attends
     * @return the final hidden states [b, t, E], after {@code ln_f}
     */
    public Tensor forward(Tensor inputIds, Tensor positionIds, Tensor keep) {
        Objects.requireNonNull(inputIds, "inputIds");
        Objects.requireNonNull(positionIds, "positionIds");
        Tensor hidden = tokens.forward(inputIds).add(positions.forward(positionIds));
        hidden = Functional.dropout(hidden, config.embdPdrop(), isTraining());
        for (Gpt2Block block : blocks.modules()) {
            hidden = block.forward(hidden, keep);
        }
        return children().get("ln_f").forward(hidden);
    }

    /**
     * @param inputIds int32 [b, t], the step's tokens
     * @param step their positions (below n_positions) and the key/value cache, which this writes
     * @return the final hidden states [b, t, E], after {@code ln_f}
     */
    public Tensor forward(Tensor inputIds, DecodeStep step) {
        Objects.requireNonNull(inputIds, "inputIds");
        Objects.requireNonNull(step, "step");
        Tensor hidden = tokens.forward(inputIds).add(positions.forward(step.positions()));
        hidden = Functional.dropout(hidden, config.embdPdrop(), isTraining());
        List<Gpt2Block> list = blocks.modules();
        for (int layer = 0; layer < list.size(); layer++) {
            hidden = list.get(layer).forward(hidden, step, layer);
        }
        return children().get("ln_f").forward(hidden);
    }

    /** @return the hidden states of int32 ids [b, t] at positions 0..t-1, causally */
    @Override
    public Tensor forward(Tensor inputIds) {
        Objects.requireNonNull(inputIds, "inputIds");
        Tensor ids = AttentionHeads.positions(inputIds.length(1));
        return forward(inputIds, ids, AttentionHeads.causal(ids, ids, null));
    }
}
