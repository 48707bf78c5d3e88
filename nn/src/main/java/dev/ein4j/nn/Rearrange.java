package dev.ein4j.nn;

import dev.ein4j.tensor.Axes;
import dev.ein4j.tensor.Tensor;

/**
 * A rearrange pattern as a layer, as einops' {@code layers.Rearrange}: no parameters.
 *
 * <pre>{@code
 * Module flatten = new Rearrange("b c h w -> b (c h w)");
 * Module patches = new Rearrange("b c (h p1) (w p2) -> b (h w) (p1 p2 c)", Axes.of("p1", 4, "p2", 4));
 * }</pre>
 */
public class Rearrange extends Module {

    private final String pattern;
    private final Axes axes;

    /** @param pattern the rearrange pattern */
    public Rearrange(String pattern) {
        this(pattern, Axes.none());
    }

    /**
     * @param pattern the rearrange pattern
     * @param axes lengths of axes the input shape does not determine
     */
    public Rearrange(String pattern, Axes axes) {
        this.pattern = Checks.notNull(pattern, "pattern");
        this.axes = Checks.notNull(axes, "axes");
    }

    @Override
    public Tensor forward(Tensor x) {
        return Checks.notNull(x, "x").rearrange(pattern, axes);
    }

    @Override
    protected String extraRepresentation() {
        return "'" + pattern + "'" + (axes.asMap().isEmpty() ? "" : ", " + axes);
    }
}
