package dev.ein4j.models.llama;

import dev.ein4j.models.ModelConfig;
import dev.ein4j.nn.RotaryEmbedding;
import java.util.List;
import java.util.Objects;

/**
 * Llama's rotary position embedding parameters and the inverse frequencies they give, as
 * transformers' {@code modeling_rope_utils} computes them for the rope types implemented here:
 *
 * <ul>
 *   <li>{@code default}: inv_freq[i] = θ^(−2i/d);</li>
 *   <li>{@code linear}: the default divided by {@code factor} (positions stretched);</li>
 *   <li>{@code dynamic}: the default with θ·((factor·L/L₀) − (factor − 1))^(d/(d−2)) for sequences
 *       of L &gt; L₀ = max_position_embeddings tokens (NTK scaling), the default up to L₀;</li>
 *   <li>{@code llama3}: wavelengths 2π/inv_freq above original_max_position_embeddings /
 *       low_freq_factor divided by {@code factor}, below original / high_freq_factor kept, and
 *       interpolated smoothly between.</li>
 * </ul>
 *
 * <p>The parameters come from {@code rope_parameters} (transformers 5) or, in older configs, from
 * {@code rope_scaling} (which wins, as in transformers) and the top-level {@code rope_theta}.
 *
 * @param type the rope type
 * @param theta the base θ
 * @param factor the scaling factor (1 for the default type)
 * @param lowFrequencyFactor llama3's low_freq_factor
 * @param highFrequencyFactor llama3's high_freq_factor
 * @param originalMaxPositions llama3's original_max_position_embeddings
 * @param maxPositions max_position_embeddings, L₀ of the dynamic type
 * @param dimension the rotated features, the head width
 */
public record LlamaRope(String type, double theta, double factor, double lowFrequencyFactor,
        double highFrequencyFactor, int originalMaxPositions, int maxPositions, int dimension) {

    /** The rope types implemented. */
    public static final List<String> TYPES = List.of("default", "linear", "dynamic", "llama3");

    /**
     * @param config the model's config.json
     * @param headDim the rotated dimension
     * @param maxPositions max_position_embeddings
     * @return the parameters
     * @throws dev.ein4j.models.ModelLoadException for a rope type or value that is not supported
     */
    public static LlamaRope from(ModelConfig config, int headDim, int maxPositions) {
        Objects.requireNonNull(config, "config");
        String key = config.has("rope_scaling") ? "rope_scaling" : "rope_parameters";
        ModelConfig parameters = config.object(key);
        double topTheta = config.number("rope_theta", 10000.0);
        if (parameters == null) {
            return new LlamaRope("default", positive(config, "rope_theta", topTheta), 1, 1, 1, maxPositions, maxPositions,
                    headDim);
        }
        String legacyType = parameters.string("type", "default");
        String type = parameters.has("rope_type") ? parameters.choice("rope_type", "default", TYPES)
                : parameters.choice("type", legacyType, TYPES);
        double theta = positive(parameters, "rope_theta", parameters.number("rope_theta", topTheta));
        if (!type.equals("default") && parameters.number("partial_rotary_factor", 1.0) != 1.0) {
            throw parameters.unsupported("partial_rotary_factor", "but Llama rotates whole heads");
        }
        double factor = type.equals("default") ? 1.0 : positive(parameters, "factor", parameters.number("factor", Double.NaN));
        if (type.equals("llama3")) {
            double low = parameters.number("low_freq_factor", Double.NaN);
            double high = parameters.number("high_freq_factor", Double.NaN);
            if (!(low > 0) || !(high > low)) {
                throw parameters.unsupported("high_freq_factor", "but llama3 rope needs 0 < low_freq_factor < high_freq_factor");
            }
            int original = parameters.positiveInteger("original_max_position_embeddings", maxPositions);
            return new LlamaRope(type, theta, factor, low, high, original, maxPositions, headDim);
        }
        return new LlamaRope(type, theta, factor, 1, 1, maxPositions, maxPositions, headDim);
    }

    private static double positive(ModelConfig config, String key, double value) {
        if (!(value > 0) || Double.isInfinite(value)) {
            throw config.unsupported(key, "but it must be a finite positive number");
        }
        return value;
    }

    /**
     * @param sequenceLength the positions in use (their largest plus one), which only the dynamic type reads
     * @return the rotary embedding for them
     */
    public RotaryEmbedding embedding(int sequenceLength) {
        if (type.equals("default")) {
            return new RotaryEmbedding(dimension, theta); // float32 arithmetic, as transformers'
        }
        double base = theta;
        if (type.equals("dynamic")) {
            int length = Math.max(sequenceLength, maxPositions);
            base = theta * Math.pow(factor * length / maxPositions - (factor - 1), dimension / (dimension - 2.0));
        }
        double[] inverse = new double[dimension / 2];
        for (int i = 0; i < inverse.length; i++) {
            inverse[i] = 1.0 / Math.pow(base, (double) (2 * i) / dimension);
        }
        if (type.equals("linear")) {
            for (int i = 0; i < inverse.length; i++) {
                inverse[i] /= factor;
            }
        } else if (type.equals("llama3")) {
            llama3(inverse);
        }
        return new RotaryEmbedding(inverse, 1.0);
    }

    /** @return whether {@link #embedding} depends on the sequence length */
    public boolean dependsOnLength() {
        return type.equals("dynamic");
    }

    private void llama3(double[] inverse) {
        double lowWavelength = originalMaxPositions / lowFrequencyFactor;
        double highWavelength = originalMaxPositions / highFrequencyFactor;
        for (int i = 0; i < inverse.length; i++) {
            double wavelength = 2 * Math.PI / inverse[i];
            if (wavelength > lowWavelength) {
                inverse[i] /= factor;
            } else if (wavelength >= highWavelength) {
                double smooth = (originalMaxPositions / wavelength - lowFrequencyFactor)
                        / (highFrequencyFactor - lowFrequencyFactor);
                inverse[i] = (1 - smooth) * inverse[i] / factor + smooth * inverse[i];
            }
        }
    }
}
