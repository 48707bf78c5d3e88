package dev.ein4j.models.vit;

import dev.ein4j.models.HfActivations;
import dev.ein4j.models.SelfAttention;
import dev.ein4j.models.Wrapper;
import dev.ein4j.nn.Activation;
import dev.ein4j.nn.Functional;
import dev.ein4j.nn.LayerNorm;
import dev.ein4j.nn.Linear;
import dev.ein4j.nn.Module;
import dev.ein4j.tensor.Generator;
import dev.ein4j.tensor.Tensor;
import java.util.Objects;

/**
 * One pre-norm ViT encoder layer: x + attention(layernorm_before(x)), then
 * + output.dense(act(intermediate.dense(layernorm_after(·)))). The attention is
 * {@code attention.attention} (query, key, value) and {@code attention.output.dense}.
 */
public final class VitLayer extends Module {

    private final SelfAttention selfAttention;
    private final Activation activation;
    private final double dropout;

    /** @param config the options */
    public VitLayer(VitConfig config) {
        Objects.requireNonNull(config, "config");
        int width = config.hiddenSize();
        int inner = config.numAttentionHeads() * config.headDim();
        int[] normalized = {width};
        registerModule("layernorm_before", new LayerNorm(normalized, config.layerNormEps(), true));
        this.selfAttention = new SelfAttention(width, config.numAttentionHeads(), config.headDim(), config.qkvBias(),
                config.attentionProbsDropoutProb());
        registerModule("attention", new Attention(selfAttention, new Linear(inner, width, true, Generator.global())));
        registerModule("layernorm_after", new LayerNorm(normalized, config.layerNormEps(), true));
        registerModule("intermediate", new Wrapper("dense", new Linear(width, config.intermediateSize(), true, Generator.global())));
        registerModule("output", new Wrapper("dense", new Linear(config.intermediateSize(), width, true, Generator.global())));
        this.activation = HfActivations.named(config.hiddenAct());
        this.dropout = config.hiddenDropoutProb();
    }

    /** @return the attention core, {@code attention.attention} */
    public SelfAttention selfAttention() {
        return selfAttention;
    }

    /**
     * @param x [b, t, H]
     * @return [b, t, H]
     */
    @Override
    public Tensor forward(Tensor x) {
        Objects.requireNonNull(x, "x");
        Tensor attended = children().get("attention").forward(children().get("layernorm_before").forward(x));
        Tensor hidden = Functional.dropout(attended, dropout, isTraining()).add(x);
        Tensor inner = activation.forward(children().get("intermediate").forward(children().get("layernorm_after").forward(hidden)));
        return Functional.dropout(children().get("output").forward(inner), dropout, isTraining()).add(hidden);
    }

    /** {@code attention}: the core {@code attention} and {@code output.dense}. */
    static final class Attention extends Module {

        private final SelfAttention core;

        Attention(SelfAttention core, Linear output) {
            this.core = registerModule("attention", core);
            registerModule("output", new Wrapper("dense", output));
        }

        @Override
        public Tensor forward(Tensor x) {
            return children().get("output").forward(core.forward(x));
        }
    }
}
