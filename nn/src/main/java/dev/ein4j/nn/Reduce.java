package dev.ein4j.nn;

import dev.ein4j.tensor.Axes;
import dev.ein4j.tensor.Reduction;
import dev.ein4j.tensor.Tensor;

/**
 * A reduce pattern as a layer, as einops' {@code layers.Reduce}: no parameters.
 *
 * <pre>{@code
 * Module globalAveragePool = new Reduce("b c h w -> b c", Reduction.MEAN);
 * Module maxPool = new Reduce("b c (h 2) (w 2) -> b c h w", Reduction.MAX);
 * }</pre>
 */
public class Reduce extends Module {

    private final String pattern;
    private final Reduction reduction;
    private final Axes axes;

    /**
     * @param pattern the reduce pattern
     * @param reduction sum, mean, max, min or prod
     */
    public Reduce(String pattern, Reduction reduction) {
        this(pattern, reduction, Axes.none());
    }

    /**
     * @param pattern the reduce pattern
     * @param reduction sum, mean, max, min or prod
     * @param axes lengths of axes the input shape does not determine
     */
    public Reduce(String pattern, Reduction reduction, Axes axes) {
        this.pattern = Checks.notNull(pattern, "pattern");
        this.reduction = Checks.notNull(reduction, "reduction");
        this.axes = Checks.notNull(axes, "axes");
    }

    @Override
    public Tensor forward(Tensor x) {
        return Checks.notNull(x, "x").reduce(pattern, reduction, axes);
    }

    @Override
    protected String extraRepresentation() {
        return "'" + pattern + "', " + reduction.name().toLowerCase(java.util.Locale.ROOT)
                + (axes.asMap().isEmpty() ? "" : ", " + axes);
    }
}
