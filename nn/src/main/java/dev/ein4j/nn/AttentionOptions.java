package dev.ein4j.nn;

import dev.ein4j.error.EinopsException;
import dev.ein4j.tensor.Generator;
import dev.ein4j.tensor.Tensor;

/**
 * The optional arguments of scaled dot-product attention, as PyTorch's
 * {@code scaled_dot_product_attention}: a mask or the causal rule, the score scale, dropout of
 * the attention weights, and grouped query heads. Immutable; a value out of range is an
 * {@link EinopsException} at once.
 *
 * <pre>{@code
 * Functional.scaledDotProductAttention(q, k, v, AttentionOptions.defaults().causal(true));
 * Functional.scaledDotProductAttention(q, k, v, AttentionOptions.defaults().mask(keep).scale(0.125));
 * Functional.scaledDotProductAttention(q, k, v, AttentionOptions.defaults().causal(true).enableGqa(true));
 *     // q [b, 8, t, 64], k and v [b, 2, t, 64]: query heads 0-3 read kv head 0, 4-7 kv head 1
 * }</pre>
 */
public final class AttentionOptions {

    private static final AttentionOptions DEFAULTS = new AttentionOptions(null, false, Double.NaN, 0.0, null, false);

    private final Tensor mask;
    private final boolean causal;
    private final double scale;
    private final double dropout;
    private final Generator generator;
    private final boolean enableGqa;

    private AttentionOptions(Tensor mask, boolean causal, double scale, double dropout, Generator generator,
            boolean enableGqa) {
        this.mask = mask;
        this.causal = causal;
        this.scale = scale;
        this.dropout = dropout;
        this.generator = generator;
        this.enableGqa = enableGqa;
    }

    /** @return no mask, not causal, scale 1/√E, no dropout, one key and value head per query head */
    public static AttentionOptions defaults() {
        return DEFAULTS;
    }

    /**
     * @param mask broadcastable to the scores [..., L, S]: a bool mask keeps the positions that are
     *     true (a query whose keys are all masked gets zeros, as in PyTorch), a floating mask is
     *     added to the scores
     * @return these options with that mask
     */
    public AttentionOptions mask(Tensor mask) {
        return new AttentionOptions(Checks.notNull(mask, "mask"), causal, scale, dropout, generator, enableGqa);
    }

    /**
     * @param causal whether query i attends only to keys j ≤ i (the top-left aligned lower triangle)
     * @return these options with that rule
     */
    public AttentionOptions causal(boolean causal) {
        return new AttentionOptions(mask, causal, scale, dropout, generator, enableGqa);
    }

    /**
     * @param scale the factor of the scores q·k, finite; the default is 1/√E
     * @return these options with that scale
     */
    public AttentionOptions scale(double scale) {
        if (!Double.isFinite(scale)) {
            throw new EinopsException("the attention scale must be finite, got " + scale);
        }
        return new AttentionOptions(mask, causal, scale, dropout, generator, enableGqa);
    }

    /**
     * @param probability the probability of zeroing each attention weight, in [0, 1)
     * @param generator the random stream of the dropout mask
     * @return these options with dropout of the attention weights
     */
    public AttentionOptions dropout(double probability, Generator generator) {
        Checks.notNull(generator, "generator");
        Dropouts.checkProbability(probability);
        return new AttentionOptions(mask, causal, scale, probability, generator, enableGqa);
    }

    /**
     * PyTorch's {@code enable_gqa}: q [..., Hq, L, E] with k [..., Hk, S, E] and v [..., Hv, S, Ev]
     * where Hk and Hv divide Hq; query head h reads key head h / (Hq/Hk) and value head h / (Hq/Hv)
     * (grouped-query attention; multi-query with one key and value head). The batch dimensions
     * before the heads broadcast; k and v are never copied per query head.
     *
     * @param enableGqa whether dimension −3 holds heads that k and v may have fewer of
     * @return these options with that rule
     */
    public AttentionOptions enableGqa(boolean enableGqa) {
        return new AttentionOptions(mask, causal, scale, dropout, generator, enableGqa);
    }

    boolean enableGqa() {
        return enableGqa;
    }

    Tensor mask() {
        return mask;
    }

    boolean causal() {
        return causal;
    }

    /** @return the scale, or NaN for the default */
    double scale() {
        return scale;
    }

    double dropout() {
        return dropout;
    }

    Generator generator() {
        return generator;
    }
}
