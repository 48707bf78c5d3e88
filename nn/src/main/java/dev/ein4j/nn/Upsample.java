package dev.ein4j.nn;

import dev.ein4j.tensor.Tensor;

/**
 * Upsampling, PyTorch's {@code nn.Upsample}: {@link Functional#interpolate} with fixed options.
 *
 * <pre>{@code
 * Module up = new Upsample(InterpolateOptions.scaleFactor(2).mode(InterpolationMode.BILINEAR));
 * }</pre>
 */
public class Upsample extends Module {

    private final InterpolateOptions options;

    /** @param options the size or scale factor, mode and corner rule */
    public Upsample(InterpolateOptions options) {
        this.options = Checks.notNull(options, "options");
    }

    /**
     * @param x [N, C, *spatial]
     * @return [N, C, *spatial_out]
     */
    @Override
    public Tensor forward(Tensor x) {
        return Resampling.interpolate(x, options);
    }

    @Override
    protected String extraRepresentation() {
        return options.toString();
    }
}
