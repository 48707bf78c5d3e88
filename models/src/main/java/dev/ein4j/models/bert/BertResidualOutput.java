package dev.ein4j.models.bert;

import dev.ein4j.error.EinopsException;
import dev.ein4j.nn.Functional;
import dev.ein4j.nn.LayerNorm;
import dev.ein4j.nn.Linear;
import dev.ein4j.nn.Module;
import dev.ein4j.tensor.Generator;
import dev.ein4j.tensor.Tensor;
import java.util.Objects;

/**
 * The post-norm residual step that ends both halves of a BERT layer ({@code attention.output} and
 * {@code output}): LayerNorm(dropout(dense(x)) + residual).
 */
public final class BertResidualOutput extends Module {

    private final double dropout;

    /**
     * @param config the options
     * @param inFeatures the width of x (H after attention, the intermediate size after the feed-forward layer)
     */
    public BertResidualOutput(BertConfig config, int inFeatures) {
        Objects.requireNonNull(config, "config");
        registerModule("dense", new Linear(inFeatures, config.hiddenSize(), true, Generator.global()));
        registerModule("LayerNorm", new LayerNorm(new int[] {config.hiddenSize()}, config.layerNormEps(), true));
        this.dropout = config.hiddenDropoutProb();
    }

    /**
     * @param x [b, t, in]
     * @param residual [b, t, H]
     * @return [b, t, H]
     */
    public Tensor forward(Tensor x, Tensor residual) {
        Objects.requireNonNull(x, "x");
        Objects.requireNonNull(residual, "residual");
        Tensor projected = Functional.dropout(children().get("dense").forward(x), dropout, isTraining());
        return children().get("LayerNorm").forward(projected.add(residual));
    }

    /** A residual step needs its residual: call {@link #forward(Tensor, Tensor)}. */
    @Override
    public Tensor forward(Tensor x) {
        Objects.requireNonNull(x, "x");
        throw new EinopsException("BertResidualOutput needs the residual: call forward(x, residual)");
    }
}
