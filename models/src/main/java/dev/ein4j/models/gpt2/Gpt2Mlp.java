package dev.ein4j.models.gpt2;

import dev.ein4j.models.HfActivations;
import dev.ein4j.nn.Activation;
import dev.ein4j.nn.Functional;
import dev.ein4j.nn.Module;
import dev.ein4j.tensor.Tensor;
import java.util.Objects;

/** GPT-2's feed-forward branch: {@code c_proj(act(c_fc(x)))}, E → n_inner → E. */
public final class Gpt2Mlp extends Module {

    private final Activation activation;
    private final double dropout;

    /** @param config the options */
    public Gpt2Mlp(Gpt2Config config) {
        Objects.requireNonNull(config, "config");
        registerModule("c_fc", new Conv1D(config.nEmbd(), config.nInner()));
        registerModule("c_proj", new Conv1D(config.nInner(), config.nEmbd()));
        this.activation = HfActivations.named(config.activationFunction());
        this.dropout = config.residPdrop();
    }

    /**
     * @param x [b, t, E]
     * @return [b, t, E]
     */
    @Override
    public Tensor forward(Tensor x) {
        Objects.requireNonNull(x, "x");
        Tensor hidden = activation.forward(children().get("c_fc").forward(x));
        return Functional.dropout(children().get("c_proj").forward(hidden), dropout, isTraining());
    }
}
