package dev.ein4j.models.bert;

import dev.ein4j.nn.Embedding;
import dev.ein4j.nn.Functional;
import dev.ein4j.nn.LayerNorm;
import dev.ein4j.nn.Module;
import dev.ein4j.tensor.Generator;
import dev.ein4j.tensor.Tensor;
import java.util.Objects;

/**
 * BERT's input embeddings: word + token type + learned position, then {@code LayerNorm} (and
 * dropout when training).
 */
public final class BertEmbeddings extends Module {

    private final Embedding words;
    private final double dropout;

    /** @param config the options */
    public BertEmbeddings(BertConfig config) {
        Objects.requireNonNull(config, "config");
        int width = config.hiddenSize();
        this.words = registerModule("word_embeddings", config.padTokenId() == null ? new Embedding(config.vocabSize(), width)
                : new Embedding(config.vocabSize(), width, config.padTokenId(), Generator.global()));
        registerModule("position_embeddings", new Embedding(config.maxPositionEmbeddings(), width));
        registerModule("token_type_embeddings", new Embedding(config.typeVocabSize(), width));
        registerModule("LayerNorm", new LayerNorm(new int[] {width}, config.layerNormEps(), true));
        this.dropout = config.hiddenDropoutProb();
    }

    /** @return the word embedding table, which a tied decoder reads */
    public Embedding wordEmbeddings() {
        return words;
    }

    /**
     * @param inputIds int32 [b, t]
     * @param tokenTypeIds int32 [b, t]
     * @param positionIds int32 [t] or [b, t]
     * @return [b, t, H]
     */
    public Tensor forward(Tensor inputIds, Tensor tokenTypeIds, Tensor positionIds) {
        Objects.requireNonNull(inputIds, "inputIds");
        Objects.requireNonNull(tokenTypeIds, "tokenTypeIds");
        Objects.requireNonNull(positionIds, "positionIds");
        Tensor sum = words.forward(inputIds).add(children().get("token_type_embeddings").forward(tokenTypeIds))
                .add(children().get("position_embeddings").forward(positionIds));
        return Functional.dropout(children().get("LayerNorm").forward(sum), dropout, isTraining());
    }

    /** @return the embeddings of int32 ids [b, t], token type 0, positions 0..t-1 */
    @Override
    public Tensor forward(Tensor inputIds) {
        Objects.requireNonNull(inputIds, "inputIds");
        return forward(inputIds, inputIds.zerosLike(), Tensor.arange(inputIds.length(1)));
    }
}
