package dev.ein4j.nn;

import dev.ein4j.error.EinopsException;
import dev.ein4j.tensor.Axes;
import dev.ein4j.tensor.Ein;
import dev.ein4j.tensor.Generator;
import dev.ein4j.tensor.Tensor;

/**
 * Multi-head attention, PyTorch's {@code nn.MultiheadAttention} with {@code batch_first=True} and
 * the same parameter names ({@code in_proj_weight} [3E, E], {@code in_proj_bias} [3E],
 * {@code out_proj.weight} [E, E], {@code out_proj.bias} [E]), written as patterns:
 * <pre>{@code
 * q = einsum("b l e, (h d) e -> b h l d", query, W_q) + b_q     // project and split heads in one
 * o = scaled_dot_product_attention(q, k, v)                      // [b, h, l, d]
 * y = einsum("b h l d, o (h d) -> b l o", o, W_out) + b_out      // merge heads and project in one
 * }</pre>
 *
 * <pre>{@code
 * MultiHeadAttention attention = new MultiHeadAttention(64, 4);
 * Tensor y = attention.forward(x);                                             // self-attention, [b, t, 64]
 * Tensor z = attention.forward(x, memory, memory, AttentionOptions.defaults().causal(true));
 * }</pre>
 */
public class MultiHeadAttention extends Module {

    private final int embedDim;
    private final int heads;
    private final double dropout;
    private final Generator generator;
    private final Linear outProjection;

    /**
     * @param embedDim E, divisible by the number of heads
     * @param numHeads the number of heads
     */
    public MultiHeadAttention(int embedDim, int numHeads) {
        this(embedDim, numHeads, 0.0, Generator.global());
    }

    /**
     * @param embedDim E, divisible by the number of heads
     * @param numHeads the number of heads
     * @param dropout the dropout probability of the attention weights in training mode
     * @param generator the random stream of the initial weights and the dropout masks
     */
    public MultiHeadAttention(int embedDim, int numHeads, double dropout, Generator generator) {
        Checks.notNull(generator, "generator");
        Checks.positive(embedDim, "embedDim");
        Checks.positive(numHeads, "numHeads");
        if (embedDim % numHeads != 0) {
            throw new EinopsException("embedDim " + embedDim + " must be divisible by numHeads " + numHeads);
        }
        Dropouts.checkProbability(dropout);
        this.embedDim = embedDim;
        this.heads = numHeads;
        this.dropout = dropout;
        this.generator = generator;
        registerParameter("in_proj_weight", Init.xavierUniform(generator, 1.0, 3 * embedDim, embedDim));
        registerParameter("in_proj_bias", Tensor.zeros(3 * embedDim));
        outProjection = registerModule("out_proj", new Linear(embedDim, embedDim, true, generator));
        outProjection.bias().assign(Tensor.zeros(embedDim));
    }

    /**
     * Self-attention.
     *
     * @param x [b, l, E]
     * @return [b, l, E]
     */
    @Override
    public Tensor forward(Tensor x) {
        Checks.notNull(x, "x");
        return forward(x, x, x, AttentionOptions.defaults());
    }

    /**
     * @param query [b, l, E]
     * @param key [b, s, E]
     * @param value [b, s, E]
     * @return [b, l, E]
     */
    public Tensor forward(Tensor query, Tensor key, Tensor value) {
        return forward(query, key, value, AttentionOptions.defaults());
    }

    /**
     * @param query [b, l, E]
     * @param key [b, s, E]
     * @param value [b, s, E]
     * @param options a mask broadcastable to [b, h, l, s] or the causal rule, a scale; the layer's
     *     dropout applies in training mode
     * @return [b, l, E]
     */
    public Tensor forward(Tensor query, Tensor key, Tensor value, AttentionOptions options) {
        Checks.notNull(query, "query");
        Checks.notNull(key, "key");
        Checks.notNull(value, "value");
        Checks.notNull(options, "options");
        for (Tensor t : new Tensor[] {query, key, value}) {
            if (t.rank() != 3 || t.length(2) != embedDim) {
                throw Checks.shapeError("multi_head_attention", "query, key and value must be [batch, length, " + embedDim
                        + "]", query, key, value);
            }
        }
        Tensor q = project(query, 0);
        Tensor k = project(key, 1);
        Tensor v = project(value, 2);
        AttentionOptions effective = isTraining() && dropout > 0 ? options.dropout(dropout, generator) : options;
        Tensor attended = Functional.scaledDotProductAttention(q, k, v, effective);
        return Ein.einsum("b h l d, o (h d) -> b l o", Axes.of("h", heads), attended, outProjection.weight())
                .add(outProjection.bias());
    }

    /** The query (0), key (1) or value (2) projection, split into heads: [b, h, l, d]. */
    private Tensor project(Tensor x, int which) {
        int[] from = {which * embedDim, 0};
        int[] to = {(which + 1) * embedDim, embedDim};
        Tensor weight = parameter("in_proj_weight").shrink(from, to);
        Tensor bias = parameter("in_proj_bias").shrink(new int[] {which * embedDim}, new int[] {(which + 1) * embedDim});
        Axes axes = Axes.of("h", heads);
        return Ein.einsum("b l e, (h d) e -> b h l d", axes, x, weight).add(bias.rearrange("(h d) -> h 1 d", axes));
    }

    @Override
    protected String extraRepresentation() {
        return "embed_dim=" + embedDim + ", num_heads=" + heads + ", dropout=" + dropout;
    }
}
