package dev.ein4j.nn;

import dev.ein4j.error.EinopsException;
import java.util.Arrays;

/**
 * Stride, padding, output padding, dilation and groups of a transposed convolution, as PyTorch's
 * {@code conv_transpose2d} keyword arguments. Immutable: every method returns a new options object,
 * and a value out of range is an {@link EinopsException} at once. A single value applies to every
 * spatial dimension; otherwise give one per spatial dimension (checked at the call, as is
 * output_padding &lt; max(stride, dilation)).
 *
 * <pre>{@code
 * Functional.convTranspose2d(x, w, b, ConvTransposeOptions.defaults().stride(2).padding(1).outputPadding(1));
 * }</pre>
 */
public final class ConvTransposeOptions {

    private static final ConvTransposeOptions DEFAULTS = new ConvTransposeOptions(new int[] {1}, new int[] {0},
            new int[] {0}, new int[] {1}, 1);

    private final int[] stride;
    private final int[] padding;
    private final int[] outputPadding;
    private final int[] dilation;
    private final int groups;

    private ConvTransposeOptions(int[] stride, int[] padding, int[] outputPadding, int[] dilation, int groups) {
        this.stride = stride;
        this.padding = padding;
        this.outputPadding = outputPadding;
        this.dilation = dilation;
        this.groups = groups;
    }

    /** @return stride 1, no padding, no output padding, dilation 1, one group */
    public static ConvTransposeOptions defaults() {
        return DEFAULTS;
    }

    /**
     * @param stride the step between the input positions in the output, at least 1
     * @return these options with that stride
     */
    public ConvTransposeOptions stride(int... stride) {
        return new ConvTransposeOptions(ConvolutionOptions.positive(stride, "stride", 1), padding, outputPadding,
                dilation, groups);
    }

    /**
     * @param padding dilation·(kernel − 1) − padding zeros are added on each side of the spread
     *     input: the output loses padding elements at each end
     * @return these options with that padding
     */
    public ConvTransposeOptions padding(int... padding) {
        return new ConvTransposeOptions(stride, ConvolutionOptions.positive(padding, "padding", 0), outputPadding,
                dilation, groups);
    }

    /**
     * @param outputPadding extra length added at the end of each output dimension, below
     *     max(stride, dilation); it picks among the input lengths that a strided convolution maps
     *     to one length
     * @return these options with that output padding
     */
    public ConvTransposeOptions outputPadding(int... outputPadding) {
        return new ConvTransposeOptions(stride, padding, ConvolutionOptions.positive(outputPadding, "outputPadding", 0),
                dilation, groups);
    }

    /**
     * @param dilation spacing between kernel elements, at least 1
     * @return these options with that dilation
     */
    public ConvTransposeOptions dilation(int... dilation) {
        return new ConvTransposeOptions(stride, padding, outputPadding, ConvolutionOptions.positive(dilation, "dilation", 1),
                groups);
    }

    /**
     * @param groups number of channel groups, at least 1, dividing the input and output channels
     * @return these options with that many groups
     */
    public ConvTransposeOptions groups(int groups) {
        if (groups < 1) {
            throw new EinopsException("groups must be at least 1, got " + groups);
        }
        return new ConvTransposeOptions(stride, padding, outputPadding, dilation, groups);
    }

    int[] stride(int dimensions, String operation) {
        return ConvolutionOptions.expand(stride, dimensions, "stride", operation);
    }

    int[] padding(int dimensions, String operation) {
        return ConvolutionOptions.expand(padding, dimensions, "padding", operation);
    }

    int[] outputPadding(int dimensions, String operation) {
        return ConvolutionOptions.expand(outputPadding, dimensions, "output_padding", operation);
    }

    int[] dilation(int dimensions, String operation) {
        return ConvolutionOptions.expand(dilation, dimensions, "dilation", operation);
    }

    int groups() {
        return groups;
    }

    @Override
    public String toString() {
        return "stride=" + Arrays.toString(stride) + ", padding=" + Arrays.toString(padding) + ", output_padding="
                + Arrays.toString(outputPadding) + ", dilation=" + Arrays.toString(dilation) + ", groups=" + groups;
    }
}
