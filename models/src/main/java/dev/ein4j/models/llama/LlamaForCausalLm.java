package dev.ein4j.models.llama;

import dev.ein4j.models.AttentionHeads;
import dev.ein4j.models.LanguageModel;
import dev.ein4j.models.ModelConfig;
import dev.ein4j.models.generation.CausalLanguageModel;
import dev.ein4j.models.generation.DecodeStep;
import dev.ein4j.models.generation.KeyValueCache;
import dev.ein4j.nn.Linear;
import dev.ein4j.tensor.Generator;
import dev.ein4j.tensor.Tensor;
import java.util.Objects;

/**
 * transformers' {@code LlamaForCausalLM}: {@link LlamaModel} ({@code model.*}) and {@code lm_head},
 * or with tied embeddings {@code einsum("b t h, v h -> b t v")} against {@code embed_tokens}.
 * Multi-head, grouped-query and multi-query attention follow {@code num_key_value_heads};
 * {@code head_dim} may differ from hidden_size / heads; rotary embeddings follow
 * {@code rope_theta} and the rope types of {@link LlamaRope}.
 *
 * <pre>{@code
 * LlamaForCausalLm model = (LlamaForCausalLm) AutoModel.load(Path.of("TinyLlama"));
 * Tensor logits = model.logits(Tensor.of(new int[] {1, 450, 4996}, 1, 3));   // [1, 3, 32000]
 * }</pre>
 */
public final class LlamaForCausalLm extends LanguageModel implements CausalLanguageModel {

    /** The name in {@code architectures}. */
    public static final String ARCHITECTURE = "LlamaForCausalLM";

    private final LlamaConfig config;
    private final LlamaModel model;
    private final Linear head;

    /** @param config the options (parameters are zeros until a checkpoint is loaded) */
    public LlamaForCausalLm(LlamaConfig config) {
        super(ARCHITECTURE, Objects.requireNonNull(config, "config").vocabSize(), Integer.MAX_VALUE);
        this.config = config;
        this.model = registerModule("model", new LlamaModel(config));
        this.head = config.tieWordEmbeddings() ? null
                : registerModule("lm_head", new Linear(config.hiddenSize(), config.vocabSize(), false, Generator.global()));
    }

    /**
     * @param config a config.json of this architecture
     * @return the model, with zeros for parameters
     */
    public static LlamaForCausalLm fromConfig(ModelConfig config) {
        Objects.requireNonNull(config, "config");
        return new LlamaForCausalLm(LlamaConfig.from(config));
    }

    /** @return the options */
    public LlamaConfig config() {
        return config;
    }

    /** @return the body, {@code model} */
    public LlamaModel model() {
        return model;
    }

    /** Older checkpoints hold the rotary inverse frequencies; a tied head's weight is the embeddings'. */
    @Override
    protected boolean ignoresCheckpointTensor(String name) {
        return name.endsWith("rotary_emb.inv_freq") || config.tieWordEmbeddings() && name.equals("lm_head.weight");
    }

    @Override
    protected Tensor computeLogits(Tensor inputIds, Tensor kept) {
        int length = inputIds.length(1);
        Tensor positions = AttentionHeads.positions(length);
        Tensor hidden = model.forward(inputIds, model.angles(positions, length),
                AttentionHeads.causal(positions, positions, kept));
        return head(hidden);
    }

    @Override
    public KeyValueCache allocateCache(int batch, int maxLength) {
        return KeyValueCache.allocate(config.numHiddenLayers(), batch, config.numKeyValueHeads(), config.headDim(), maxLength);
    }

    @Override
    public Tensor hiddenStates(Tensor inputIds, DecodeStep step) {
        Objects.requireNonNull(inputIds, "inputIds");
        Objects.requireNonNull(step, "step");
        return model.forward(inputIds, step);
    }

    /**
     * @param hidden [b, t, H], the body's output
     * @return [b, t, V]
     */
    @Override
    public Tensor head(Tensor hidden) {
        Objects.requireNonNull(hidden, "hidden");
        return vocabularyLogits(hidden, head, model.tokenEmbedding());
    }
}
