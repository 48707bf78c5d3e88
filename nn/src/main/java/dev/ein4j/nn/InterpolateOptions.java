package dev.ein4j.nn;

import dev.ein4j.error.EinopsException;
import java.util.Arrays;

/**
 * The keyword arguments of PyTorch's {@code interpolate}: an output {@code size} or a
 * {@code scaleFactor} (one value for every spatial dimension, or one each), the {@code mode},
 * {@code alignCorners} (linear modes only) and {@code recomputeScaleFactor}. Immutable; a value out
 * of range is an {@link EinopsException} at once.
 *
 * <pre>{@code
 * Functional.interpolate(x, InterpolateOptions.scaleFactor(2));                             // nearest, 2x
 * Functional.interpolate(x, InterpolateOptions.size(7, 9).mode(InterpolationMode.BILINEAR).alignCorners(true));
 * }</pre>
 */
public final class InterpolateOptions {

    private final int[] size;
    private final double[] scaleFactor;
    private final InterpolationMode mode;
    private final Boolean alignCorners;
    private final boolean recomputeScaleFactor;

    private InterpolateOptions(int[] size, double[] scaleFactor, InterpolationMode mode, Boolean alignCorners,
            boolean recomputeScaleFactor) {
        this.size = size;
        this.scaleFactor = scaleFactor;
        this.mode = mode;
        this.alignCorners = alignCorners;
        this.recomputeScaleFactor = recomputeScaleFactor;
    }

    /**
     * @param size the output's spatial lengths, at least 1 (one value for every spatial dimension, or one each)
     * @return options with that size, mode nearest
     */
    public static InterpolateOptions size(int... size) {
        return new InterpolateOptions(ConvolutionOptions.positive(size, "size", 1), null, InterpolationMode.NEAREST,
                null, false);
    }

    /**
     * @param scaleFactor the factor of each spatial length, finite and positive (one value, or one
     *     each); the output length is ⌊length · factor⌋
     * @return options with that factor, mode nearest
     */
    public static InterpolateOptions scaleFactor(double... scaleFactor) {
        Checks.notNull(scaleFactor, "scaleFactor");
        if (scaleFactor.length == 0) {
            throw new EinopsException("scale_factor needs at least one value");
        }
        for (double factor : scaleFactor) {
            if (!(factor > 0) || Double.isInfinite(factor)) {
                throw new EinopsException("scale_factor must be finite and positive, got " + Arrays.toString(scaleFactor));
            }
        }
        return new InterpolateOptions(null, scaleFactor.clone(), InterpolationMode.NEAREST, null, false);
    }

    /**
     * @param mode how the input is read
     * @return these options with that mode
     */
    public InterpolateOptions mode(InterpolationMode mode) {
        return new InterpolateOptions(size, scaleFactor, Checks.notNull(mode, "mode"), alignCorners, recomputeScaleFactor);
    }

    /**
     * @param alignCorners linear modes: whether the corner pixels of input and output align (source
     *     index dst·(in − 1)/(out − 1)) rather than their edges (source (dst + ½)·scale − ½); the
     *     nearest modes reject the option, as PyTorch
     * @return these options with that rule
     */
    public InterpolateOptions alignCorners(boolean alignCorners) {
        return new InterpolateOptions(size, scaleFactor, mode, alignCorners, recomputeScaleFactor);
    }

    /**
     * @param recompute with a scale factor: whether the source indices use in/out of the computed
     *     output size instead of 1/factor (PyTorch's {@code recompute_scale_factor})
     * @return these options with that rule
     */
    public InterpolateOptions recomputeScaleFactor(boolean recompute) {
        return new InterpolateOptions(size, scaleFactor, mode, alignCorners, recompute);
    }

    InterpolationMode mode() {
        return mode;
    }

    /** @return align_corners, false when unset */
    boolean alignsCorners() {
        return alignCorners != null && alignCorners;
    }

    boolean alignCornersGiven() {
        return alignCorners != null;
    }

    /** @return per spatial dimension the output length */
    int[] outputSize(int[] spatial, String operation) {
        int dimensions = spatial.length;
        if (size != null) {
            return ConvolutionOptions.expand(size, dimensions, "size", operation);
        }
        double[] factors = factors(dimensions, operation);
        int[] lengths = new int[dimensions];
        for (int i = 0; i < dimensions; i++) {
            double length = Math.floor(spatial[i] * factors[i]);
            if (length < 1 || length > Integer.MAX_VALUE) {
                throw new EinopsException(operation + ": scale factor " + factors[i] + " makes spatial length "
                        + spatial[i] + " into " + length + "; output lengths must be between 1 and " + Integer.MAX_VALUE);
            }
            lengths[i] = (int) length;
        }
        return lengths;
    }

    /** @return per spatial dimension the factor the source indices use, or null when they use in/out */
    double[] sourceScales(int dimensions, String operation) {
        return scaleFactor == null || recomputeScaleFactor ? null : factors(dimensions, operation);
    }

    private double[] factors(int dimensions, String operation) {
        if (scaleFactor.length == dimensions) {
            return scaleFactor.clone();
        }
        if (scaleFactor.length == 1) {
            double[] all = new double[dimensions];
            Arrays.fill(all, scaleFactor[0]);
            return all;
        }
        throw new EinopsException(operation + ": scale_factor needs 1 or " + dimensions + " values, got "
                + Arrays.toString(scaleFactor));
    }

    @Override
    public String toString() {
        String target = size != null ? "size=" + Arrays.toString(size) : "scale_factor=" + Arrays.toString(scaleFactor);
        return target + ", mode='" + mode.label() + "'" + (alignCorners != null ? ", align_corners=" + alignCorners : "")
                + (recomputeScaleFactor ? ", recompute_scale_factor=true" : "");
    }
}
