package dev.ein4j.models.bert;

import dev.ein4j.models.SelfAttention;
import dev.ein4j.nn.Module;
import dev.ein4j.tensor.Tensor;
import java.util.Objects;

/** A BERT layer's attention half: {@code self} (the attention core) and {@code output} (dense, residual, LayerNorm). */
public final class BertAttention extends Module {

    private final SelfAttention self;
    private final BertResidualOutput output;

    /** @param config the options */
    public BertAttention(BertConfig config) {
        Objects.requireNonNull(config, "config");
        this.self = registerModule("self", new SelfAttention(config.hiddenSize(), config.numAttentionHeads(),
                config.headDim(), true, config.attentionProbsDropoutProb()));
        this.output = registerModule("output", new BertResidualOutput(config, config.hiddenSize()));
    }

    /** @return the attention core */
    public SelfAttention self() {
        return self;
    }

    /**
     * @param x [b, t, H]
     * @param keep bool broadcastable to [b, heads, t, t], or null
     * @return [b, t, H]
     */
    public Tensor forward(Tensor x, Tensor keep) {
        Objects.requireNonNull(x, "x");
        return output.forward(self.forward(x, keep), x);
    }

    @Override
    public Tensor forward(Tensor x) {
        Objects.requireNonNull(x, "x");
        return forward(x, null);
    }
}
