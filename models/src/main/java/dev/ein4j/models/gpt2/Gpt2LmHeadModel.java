package dev.ein4j.models.gpt2;

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
 * transformers' {@code GPT2LMHeadModel}: {@link Gpt2Model} ({@code transformer.*}) and a language
 * modelling head, {@code einsum("b t e, v e -> b t v")} against {@code wte} when the embeddings are
 * tied (the default; the checkpoint then has no {@code lm_head.weight}), else {@code lm_head}.
 *
 * <pre>{@code
 * Gpt2LmHeadModel model = (Gpt2LmHeadModel) AutoModel.load(Path.of("gpt2"));
 * Tensor logits = model.logits(Tensor.of(new int[] {15496, 995}, 1, 2));   // [1, 2, 50257]
 * }</pre>
 */
public final class Gpt2LmHeadModel extends LanguageModel implements CausalLanguageModel {

    /** The name in {@code architectures}. */
    public static final String ARCHITECTURE = "GPT2LMHeadModel";

    private final Gpt2Config config;
    private final Gpt2Model transformer;
    private final Linear head;

    /** @param config the options (parameters are zeros until a checkpoint is loaded) */
    public Gpt2LmHeadModel(Gpt2Config config) {
        super(ARCHITECTURE, Objects.requireNonNull(config, "config").vocabSize(), config.nPositions());
        this.config = config;
        this.transformer = registerModule("transformer", new Gpt2Model(config));
        this.head = config.tieWordEmbeddings() ? null
                : registerModule("lm_head", new Linear(config.nEmbd(), config.vocabSize(), false, Generator.global()));
    }

    /**
     * @param config a config.json of this architecture
     * @return the model, with zeros for parameters
     */
    public static Gpt2LmHeadModel fromConfig(ModelConfig config) {
        Objects.requireNonNull(config, "config");
        return new Gpt2LmHeadModel(Gpt2Config.from(config));
    }

    /** @return the options */
    public Gpt2Config config() {
        return config;
    }

    /** @return the body, {@code transformer} */
    public Gpt2Model transformer() {
        return transformer;
    }

    /** Older checkpoints hold the causal-mask buffers; a tied head's weight is {@code wte}'s. */
    @Override
    protected boolean ignoresCheckpointTensor(String name) {
        return name.endsWith(".attn.bias") || name.endsWith(".attn.masked_bias") || name.endsWith(".crossattention.bias")
                || name.endsWith(".crossattention.masked_bias") || config.tieWordEmbeddings() && name.equals("lm_head.weight");
    }

    @Override
    protected Tensor computeLogits(Tensor inputIds, Tensor kept) {
        Tensor positions = AttentionHeads.positions(inputIds.length(1));
        Tensor hidden = transformer.forward(inputIds, positions, AttentionHeads.causal(positions, positions, kept));
        return head(hidden);
    }

    @Override
    public KeyValueCache allocateCache(int batch, int maxLength) {
        return KeyValueCache.allocate(config.nLayer(), batch, config.nHead(), config.headDim(), maxLength);
    }

    @Override
    public Tensor hiddenStates(Tensor inputIds, DecodeStep step) {
        Objects.requireNonNull(inputIds, "inputIds");
        Objects.requireNonNull(step, "step");
        return transformer.forward(inputIds, step);
    }

    /**
     * @param hidden [b, t, E], the body's output
     * @return [b, t, V]
     */
    @Override
    public Tensor head(Tensor hidden) {
        Objects.requireNonNull(hidden, "hidden");
        return vocabularyLogits(hidden, head, transformer.tokenEmbedding());
    }
}
