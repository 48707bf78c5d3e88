package dev.ein4j.models.bert;

import dev.ein4j.error.ShapeException;
import dev.ein4j.ir.DType;
import dev.ein4j.models.AttentionHeads;
import dev.ein4j.models.HfActivations;
import dev.ein4j.models.LanguageModel;
import dev.ein4j.models.ModelConfig;
import dev.ein4j.models.Wrapper;
import dev.ein4j.nn.Activation;
import dev.ein4j.nn.LayerNorm;
import dev.ein4j.nn.Linear;
import dev.ein4j.nn.Module;
import dev.ein4j.tensor.Ein;
import dev.ein4j.tensor.Generator;
import dev.ein4j.tensor.Tensor;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * transformers' {@code BertForMaskedLM}: {@link BertModel} ({@code bert.*}) and the prediction head
 * {@code cls.predictions}: dense, activation, LayerNorm, then the decoder, which with tied
 * embeddings (the default) is {@code einsum("b t h, v h -> b t v")} against
 * {@code word_embeddings} plus {@code cls.predictions.bias}, else {@code cls.predictions.decoder}
 * with its own bias.
 *
 * <pre>{@code
 * BertForMaskedLm model = (BertForMaskedLm) AutoModel.load(Path.of("bert"));
 * Tensor logits = model.logits(ids);                                  // token types 0, no padding
 * Tensor pair = model.logits(ids, tokenTypeIds, attentionMask);       // [b, t, V]
 * }</pre>
 */
public final class BertForMaskedLm extends LanguageModel {

    /** The name in {@code architectures}. */
    public static final String ARCHITECTURE = "BertForMaskedLM";

    private final BertConfig config;
    private final BertModel bert;
    private final Predictions predictions;

    /** @param config the options (parameters are zeros until a checkpoint is loaded) */
    public BertForMaskedLm(BertConfig config) {
        super(ARCHITECTURE, Objects.requireNonNull(config, "config").vocabSize(), config.maxPositionEmbeddings());
        this.config = config;
        this.bert = registerModule("bert", new BertModel(config));
        this.predictions = new Predictions(config, bert.embeddings());
        registerModule("cls", new Wrapper("predictions", predictions));
    }

    /**
     * @param config a config.json of this architecture
     * @return the model, with zeros for parameters
     */
    public static BertForMaskedLm fromConfig(ModelConfig config) {
        Objects.requireNonNull(config, "config");
        return new BertForMaskedLm(BertConfig.from(config));
    }

    /** @return the options */
    public BertConfig config() {
        return config;
    }

    /** @return the body, {@code bert} */
    public BertModel bert() {
        return bert;
    }

    /**
     * @param inputIds int32 [b, t]
     * @param tokenTypeIds int32 [b, t], each below type_vocab_size (the segment of each token)
     * @param attentionMask int32 or bool [b, t], 0 at padding
     * @return [b, t, V]
     */
    public Tensor logits(Tensor inputIds, Tensor tokenTypeIds, Tensor attentionMask) {
        Objects.requireNonNull(inputIds, "inputIds");
        Objects.requireNonNull(tokenTypeIds, "tokenTypeIds");
        Objects.requireNonNull(attentionMask, "attentionMask");
        checkInputIds(inputIds);
        if (tokenTypeIds.dtype() != DType.INT32 || !Arrays.equals(tokenTypeIds.shape(), inputIds.shape())) {
            throw new ShapeException(ARCHITECTURE + ".logits", List.of(longs(inputIds), longs(tokenTypeIds)),
                    "token_type_ids must be int32 of the ids' shape");
        }
        tokenTypeIds.checkIndices(config.typeVocabSize(), ARCHITECTURE + " token_type_ids");
        return logitsOf(inputIds, tokenTypeIds, keptTokens(inputIds, attentionMask));
    }

    /** Older checkpoints hold position ids and the pooler; a tied decoder's tensors are the embeddings'. */
    @Override
    protected boolean ignoresCheckpointTensor(String name) {
        return name.equals("bert.embeddings.position_ids") || name.equals("bert.embeddings.token_type_ids")
                || name.startsWith("bert.pooler.") || config.tieWordEmbeddings()
                        && (name.equals("cls.predictions.decoder.weight") || name.equals("cls.predictions.decoder.bias"));
    }

    @Override
    protected Tensor computeLogits(Tensor inputIds, Tensor kept) {
        return logitsOf(inputIds, inputIds.zerosLike(), kept);
    }

    private Tensor logitsOf(Tensor inputIds, Tensor tokenTypeIds, Tensor kept) {
        return predictions.forward(bert.forward(inputIds, tokenTypeIds, mask(inputIds.length(1), kept)));
    }

    private Tensor mask(int length, Tensor kept) {
        if (config.isDecoder()) {
            Tensor positions = AttentionHeads.positions(length);
            return AttentionHeads.causal(positions, positions, kept);
        }
        return kept == null ? null : AttentionHeads.padding(kept);
    }

    private static long[] longs(Tensor tensor) {
        return Arrays.stream(tensor.shape()).asLongStream().toArray();
    }

    /** {@code cls.predictions}: transform (dense, activation, LayerNorm), then the decoder. */
    static final class Predictions extends Module {

        private final BertEmbeddings embeddings;
        private final Linear decoder;

        Predictions(BertConfig config, BertEmbeddings embeddings) {
            this.embeddings = embeddings;
            registerParameter("bias", Tensor.zeros(config.vocabSize()));
            registerModule("transform", new Transform(config));
            this.decoder = config.tieWordEmbeddings() ? null
                    : registerModule("decoder", new Linear(config.hiddenSize(), config.vocabSize(), true, Generator.global()));
        }

        @Override
        public Tensor forward(Tensor hidden) {
            Tensor transformed = children().get("transform").forward(hidden);
            if (decoder != null) {
                return decoder.forward(transformed);
            }
            return Ein.einsum("b t h, v h -> b t v", transformed, embeddings.wordEmbeddings().weight()).add(parameter("bias"));
        }
    }

    /** {@code cls.predictions.transform}: LayerNorm(act(dense(x))). */
    static final class Transform extends Module {

        private final Activation activation;

        Transform(BertConfig config) {
            registerModule("dense", new Linear(config.hiddenSize(), config.hiddenSize(), true, Generator.global()));
            this.activation = HfActivations.named(config.hiddenAct());
            registerModule("LayerNorm", new LayerNorm(new int[] {config.hiddenSize()}, config.layerNormEps(), true));
        }

        @Override
        public Tensor forward(Tensor x) {
            return children().get("LayerNorm").forward(activation.forward(children().get("dense").forward(x)));
        }
    }
}
