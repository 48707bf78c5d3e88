package dev.ein4j.models.bert;

import dev.ein4j.models.HfActivations;
import dev.ein4j.models.Wrapper;
import dev.ein4j.nn.Activation;
import dev.ein4j.nn.Linear;
import dev.ein4j.nn.Module;
import dev.ein4j.tensor.Generator;
import dev.ein4j.tensor.Tensor;
import java.util.Objects;

/**
 * One post-norm BERT encoder layer: {@code attention}, then the feed-forward branch
 * {@code intermediate.dense} + activation and {@code output} (dense, residual, LayerNorm). With
 * {@code add_cross_attention} it holds {@code crossattention} weights, used only with an encoder.
 */
public final class BertLayer extends Module {

    private final BertAttention attention;
    private final Wrapper intermediate;
    private final Activation activation;
    private final BertResidualOutput output;

    /** @param config the options */
    public BertLayer(BertConfig config) {
        Objects.requireNonNull(config, "config");
        this.attention = registerModule("attention", new BertAttention(config));
        if (config.addCrossAttention()) {
            registerModule("crossattention", new BertAttention(config));
        }
        this.intermediate = registerModule("intermediate",
                new Wrapper("dense", new Linear(config.hiddenSize(), config.intermediateSize(), true, Generator.global())));
        this.activation = HfActivations.named(config.hiddenAct());
        this.output = registerModule("output", new BertResidualOutput(config, config.intermediateSize()));
    }

    /** @return the attention half */
    public BertAttention attention() {
        return attention;
    }

    /**
     * @param x [b, t, H]
     * @param keep bool broadcastable to [b, heads, t, t], or null
     * @return [b, t, H]
     */
    public Tensor forward(Tensor x, Tensor keep) {
        Objects.requireNonNull(x, "x");
        Tensor attended = attention.forward(x, keep);
        return output.forward(activation.forward(intermediate.forward(attended)), attended);
    }

    @Override
    public Tensor forward(Tensor x) {
        Objects.requireNonNull(x, "x");
        return forward(x, null);
    }
}
