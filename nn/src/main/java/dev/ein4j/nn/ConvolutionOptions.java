package dev.ein4j.nn;

import dev.ein4j.error.EinopsException;
import java.util.Arrays;

/**
 * Stride, padding, dilation and groups of a convolution, as PyTorch's {@code conv2d} keyword
 * arguments. Immutable: every method returns a new options object, and a value out of range is
 * an {@link EinopsException} at once. A single value applies to every spatial dimension;
 * otherwise give one per spatial dimension (checked when the convolution is called).
 *
 * <pre>{@code
 * Functional.conv2d(x, w, b, ConvolutionOptions.defaults().stride(2).padding(1));
 * Functional.conv1d(x, w, null, ConvolutionOptions.defaults().samePadding().dilation(2));
 * }</pre>
 */
public final class ConvolutionOptions {

    private static final ConvolutionOptions DEFAULTS = new ConvolutionOptions(new int[] {1}, new int[] {0}, false, new int[] {1}, 1);

    private final int[] stride;
    private final int[] padding;
    private final boolean samePadding;
    private final int[] dilation;
    private final int groups;

    private ConvolutionOptions(int[] stride, int[] padding, boolean samePadding, int[] dilation, int groups) {
        this.stride = stride;
        this.padding = padding;
        this.samePadding = samePadding;
        this.dilation = dilation;
        this.groups = groups;
    }

    /** @return stride 1, no padding, dilation 1, one group */
    public static ConvolutionOptions defaults() {
        return DEFAULTS;
    }

    /**
     * @param stride step between output positions, at least 1 (one value, or one per spatial dimension)
     * @return these options with that stride
     */
    public ConvolutionOptions stride(int... stride) {
        return new ConvolutionOptions(positive(stride, "stride", 1), padding, samePadding, dilation, groups);
    }

    /**
     * @param padding zeros added before and after each spatial dimension (one value, or one per dimension)
     * @return these options with that padding
     */
    public ConvolutionOptions padding(int... padding) {
        return new ConvolutionOptions(stride, positive(padding, "padding", 0), false, dilation, groups);
    }

    /**
     * PyTorch's {@code padding="same"}: the output has the input's length (stride must be 1); an
     * odd total padding puts the extra zero after.
     *
     * @return these options with "same" padding
     */
    public ConvolutionOptions samePadding() {
        return new ConvolutionOptions(stride, new int[] {0}, true, dilation, groups);
    }

    /**
     * @param dilation spacing between kernel elements, at least 1 (one value, or one per dimension)
     * @return these options with that dilation
     */
    public ConvolutionOptions dilation(int... dilation) {
        return new ConvolutionOptions(stride, padding, samePadding, positive(dilation, "dilation", 1), groups);
    }

    /**
     * @param groups number of channel groups, at least 1, dividing the input and output channels
     * @return these options with that many groups
     */
    public ConvolutionOptions groups(int groups) {
        if (groups < 1) {
            throw new EinopsException("groups must be at least 1, got " + groups);
        }
        return new ConvolutionOptions(stride, padding, samePadding, dilation, groups);
    }

    int[] stride(int dimensions, String operation) {
        return expand(stride, dimensions, "stride", operation);
    }

    int[] padding(int dimensions, String operation) {
        return expand(padding, dimensions, "padding", operation);
    }

    boolean isSamePadding() {
        return samePadding;
    }

    int[] dilation(int dimensions, String operation) {
        return expand(dilation, dimensions, "dilation", operation);
    }

    int groups() {
        return groups;
    }

    /** One value per spatial dimension, from one value or exactly that many. */
    static int[] expand(int[] values, int dimensions, String name, String operation) {
        if (values.length == dimensions) {
            return values.clone();
        }
        if (values.length == 1) {
            int[] all = new int[dimensions];
            Arrays.fill(all, values[0]);
            return all;
        }
        throw new EinopsException(operation + ": " + name + " needs 1 or " + dimensions + " values, got "
                + Arrays.toString(values));
    }

    static int[] positive(int[] values, String name, int minimum) {
        Checks.notNull(values, name);
        if (values.length == 0) {
            throw new EinopsException(name + " needs at least one value");
        }
        for (int value : values) {
            if (value < minimum) {
                throw new EinopsException(name + " must be at least " + minimum + ", got " + Arrays.toString(values));
            }
        }
        return values.clone();
    }

    @Override
    public String toString() {
        return "stride=" + Arrays.toString(stride) + ", padding=" + (samePadding ? "same" : Arrays.toString(padding))
                + ", dilation=" + Arrays.toString(dilation) + ", groups=" + groups;
    }
}
