package dev.ein4j.nn;

import dev.ein4j.error.EinopsException;
import dev.ein4j.ir.DType;
import dev.ein4j.tensor.Tensor;

/**
 * Rotary position embeddings, Hugging Face's {@code LlamaRotaryEmbedding}: the inverse frequencies
 * inv_freq[i] = 1/θ^(2i/d) (float32, as HF computes them), and for position ids p the angles
 * p·inv_freq repeated for both halves of the rotated features, whose cos and sin
 * {@link Functional#applyRotaryEmbedding} applies to queries and keys. {@code inv_freq} is not in the
 * state dict (HF registers it non-persistent); the module has no parameters.
 *
 * <pre>{@code
 * RotaryEmbedding rotary = new RotaryEmbedding(64, 10000.0);            // head_dim, rope_theta
 * RotaryEmbedding.CosSin angles = rotary.cosSin(positionIds);           // int32 [b, t] -> [b, t, 64] each
 * Tensor q = Functional.applyRotaryEmbedding(query, angles.cos(), angles.sin());   // [b, heads, t, 64]
 * }</pre>
 *
 * <p>Positions are read from the ids, so a decoder with a key-value cache passes t0, t0 + 1, ...
 * for its new tokens.
 */
public class RotaryEmbedding extends Module {

    private final int dimension;
    private final double theta;
    private final double attentionScaling;
    private final Tensor inverseFrequency;

    /** The cos and sin of the rotary angles, each [b, t, R]. */
    public record CosSin(Tensor cos, Tensor sin) {

        /**
         * @param cos the cosines
         * @param sin the sines, of cos's shape
         */
        public CosSin {
            Checks.notNull(cos, "cos");
            Checks.notNull(sin, "sin");
        }
    }

    /**
     * @param dimension the rotated features per head (HF's {@code head_dim}, or a partial rotary
     *     dimension), even
     * @param theta the base θ ({@code rope_theta}), positive
     */
    public RotaryEmbedding(int dimension, double theta) {
        Checks.positive(dimension, "dimension");
        if (dimension % 2 != 0 || !(theta > 0) || Double.isInfinite(theta)) {
            throw new EinopsException("rotary embedding needs an even dimension and a finite positive theta, got "
                    + dimension + " and " + theta);
        }
        this.dimension = dimension;
        this.theta = theta;
        this.attentionScaling = 1.0;
        float[] frequencies = new float[dimension / 2];
        for (int i = 0; i < frequencies.length; i++) {
            float exponent = (float) (2 * i) / dimension; // float32 arithmetic, as torch's arange(...).float() / dim
            frequencies[i] = 1.0f / (float) Math.pow(theta, exponent);
        }
        this.inverseFrequency = floatTensor(frequencies);
    }

    /**
     * Rotary angles from given inverse frequencies, for the scaled variants of Hugging Face's
     * {@code rope_scaling} (linear, dynamic, llama3, yarn), which model code computes.
     *
     * @param inverseFrequencies inv_freq, R/2 finite values (rounded to float32, as HF holds them)
     * @param attentionScaling the factor of cos and sin (HF's {@code attention_scaling}, 1 by default)
     */
    public RotaryEmbedding(double[] inverseFrequencies, double attentionScaling) {
        Checks.notNull(inverseFrequencies, "inverseFrequencies");
        if (inverseFrequencies.length == 0 || !Double.isFinite(attentionScaling)) {
            throw new EinopsException("rotary embedding needs at least one inverse frequency and a finite scaling, got "
                    + inverseFrequencies.length + " and " + attentionScaling);
        }
        float[] frequencies = new float[inverseFrequencies.length];
        for (int i = 0; i < frequencies.length; i++) {
            if (!Double.isFinite(inverseFrequencies[i])) {
                throw new EinopsException("inverse frequency " + i + " is not finite: " + inverseFrequencies[i]);
            }
            frequencies[i] = (float) inverseFrequencies[i];
        }
        this.dimension = 2 * frequencies.length;
        this.theta = Double.NaN;
        this.attentionScaling = attentionScaling;
        this.inverseFrequency = floatTensor(frequencies);
    }

    private static Tensor floatTensor(float[] values) {
        return Tensor.of(values).realize();
    }

    /** @return HF's {@code inv_freq}, float32 [R/2] */
    public Tensor inverseFrequency() {
        return inverseFrequency;
    }

    /**
     * @param positionIds int32 [b, t] (or [t], then b = 1), any positions
     * @return cos and sin, float32 [b, t, R]
     */
    public CosSin cosSin(Tensor positionIds) {
        return cosSin(positionIds, DType.FLOAT32);
    }

    /**
     * @param positionIds int32 [b, t] (or [t], then b = 1), any positions
     * @param dtype the type of the results; the angles are float32 in every case, as HF's (which
     *     casts float32 cos and sin to the model's dtype)
     * @return cos and sin, [b, t, R]
     */
    public CosSin cosSin(Tensor positionIds, DType dtype) {
        Checks.notNull(positionIds, "positionIds");
        Checks.notNull(dtype, "dtype");
        Tensor[] both = Rotary.cosSin(positionIds, inverseFrequency, attentionScaling, dtype);
        return new CosSin(both[0], both[1]);
    }

    /**
     * Rotates x by positions 0, 1, ..., t − 1.
     *
     * @param x [b, heads, t, D] (D ≥ R)
     * @return x rotated, its shape
     */
    @Override
    public Tensor forward(Tensor x) {
        Checks.notNull(x, "x");
        if (x.rank() < 3) {
            throw Checks.shapeError("rotary_embedding", "x must be [..., heads, t, headDim]", x);
        }
        return forward(x, Tensor.arange(x.length(-2)));
    }

    /**
     * @param x [b, heads, t, D] (D ≥ R)
     * @param positionIds int32 [b, t] (or [t])
     * @return x rotated by those positions, its shape
     */
    public Tensor forward(Tensor x, Tensor positionIds) {
        Checks.notNull(x, "x");
        Checks.notNull(positionIds, "positionIds");
        CosSin angles = cosSin(positionIds, x.dtype().isFloating() ? x.dtype() : DType.FLOAT32);
        return Rotary.apply(x, angles.cos(), angles.sin());
    }

    @Override
    protected String extraRepresentation() {
        return "dim=" + dimension + (Double.isNaN(theta) ? ", attention_scaling=" + attentionScaling : ", theta=" + theta);
    }
}
