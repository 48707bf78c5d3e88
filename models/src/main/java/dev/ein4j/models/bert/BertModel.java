package dev.ein4j.models.bert;

import dev.ein4j.models.ModuleList;
import dev.ein4j.models.Wrapper;
import dev.ein4j.nn.Module;
import dev.ein4j.tensor.Tensor;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * BERT's body as a masked language model holds it ({@code bert.*}, without the pooler):
 * {@code embeddings} and {@code encoder.layer.N}.
 */
public final class BertModel extends Module {

    private final BertEmbeddings embeddings;
    private final ModuleList<BertLayer> layers;

    /** @param config the options */
    public BertModel(BertConfig config) {
        Objects.requireNonNull(config, "config");
        this.embeddings = registerModule("embeddings", new BertEmbeddings(config));
        List<BertLayer> list = new ArrayList<>();
        for (int i = 0; i < config.numHiddenLayers(); i++) {
            list.add(new BertLayer(config));
        }
        this.layers = new ModuleList<>(list);
        registerModule("encoder", new Wrapper("layer", layers));
    }

    /** @return the embeddings */
    public BertEmbeddings embeddings() {
        return embeddings;
    }

    /**
     * @param inputIds int32 [b, t]
     * @param tokenTypeIds int32 [b, t]
     * @param keep bool broadcastable to [b, heads, t, t], or null for full attention
     * @return the last hidden states [b, t, H]
     */
    public Tensor forward(Tensor inputIds, Tensor tokenTypeIds, Tensor keep) {
        Objects.requireNonNull(inputIds, "inputIds");
        Objects.requireNonNull(tokenTypeIds, "tokenTypeIds");
        Tensor hidden = embeddings.forward(inputIds, tokenTypeIds, Tensor.arange(inputIds.length(1)));
        for (BertLayer layer : layers.modules()) {
            hidden = layer.forward(hidden, keep);
        }
        return hidden;
    }

    @Override
    public Tensor forward(Tensor inputIds) {
        Objects.requireNonNull(inputIds, "inputIds");
        return forward(inputIds, inputIds.zerosLike(), null);
    }
}
