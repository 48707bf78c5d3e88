package dev.ein4j.nn;

import dev.ein4j.error.EinopsException;
import java.util.Arrays;

/**
 * Kernel, stride, padding and dilation of a pooling window, and how average pooling counts, as the
 * keyword arguments of PyTorch's {@code max_pool2d} and {@code avg_pool2d}. Immutable; a value out
 * of range is an {@link EinopsException} at once. A single value applies to both spatial
 * dimensions. The stride defaults to the kernel size.
 *
 * <pre>{@code
 * Functional.maxPool2d(x, PoolingOptions.kernel(2));                                 // 2×2, stride 2
 * Functional.avgPool2d(x, PoolingOptions.kernel(3).stride(1).padding(1).countIncludePad(false));
 * }</pre>
 */
public final class PoolingOptions {

    private final int[] kernel;
    private final int[] stride;
    private final int[] padding;
    private final int[] dilation;
    private final boolean countIncludePad;
    private final int divisorOverride;

    private PoolingOptions(int[] kernel, int[] stride, int[] padding, int[] dilation, boolean countIncludePad,
            int divisorOverride) {
        this.kernel = kernel;
        this.stride = stride;
        this.padding = padding;
        this.dilation = dilation;
        this.countIncludePad = countIncludePad;
        this.divisorOverride = divisorOverride;
    }

    /**
     * @param kernel the window size, at least 1 (one value, or one per spatial dimension)
     * @return options with that window, stride equal to it, no padding, dilation 1, padding counted
     */
    public static PoolingOptions kernel(int... kernel) {
        return new PoolingOptions(ConvolutionOptions.positive(kernel, "kernel", 1), null, new int[] {0},
                new int[] {1}, true, 0);
    }

    /**
     * @param stride step between windows, at least 1
     * @return these options with that stride
     */
    public PoolingOptions stride(int... stride) {
        return new PoolingOptions(kernel, ConvolutionOptions.positive(stride, "stride", 1), padding, dilation,
                countIncludePad, divisorOverride);
    }

    /**
     * @param padding implicit padding on both sides, at most half the (dilated) kernel: −∞ for max
     *     pooling, zeros for average pooling
     * @return these options with that padding
     */
    public PoolingOptions padding(int... padding) {
        return new PoolingOptions(kernel, stride, ConvolutionOptions.positive(padding, "padding", 0), dilation,
                countIncludePad, divisorOverride);
    }

    /**
     * @param dilation spacing between window elements, at least 1 (max pooling only)
     * @return these options with that dilation
     */
    public PoolingOptions dilation(int... dilation) {
        return new PoolingOptions(kernel, stride, padding, ConvolutionOptions.positive(dilation, "dilation", 1),
                countIncludePad, divisorOverride);
    }

    /**
     * @param countIncludePad average pooling: whether padded zeros count in the divisor (PyTorch's default true)
     * @return these options with that rule
     */
    public PoolingOptions countIncludePad(boolean countIncludePad) {
        return new PoolingOptions(kernel, stride, padding, dilation, countIncludePad, divisorOverride);
    }

    /**
     * @param divisor average pooling: divide every window's sum by this instead of its size, at least 1
     * @return these options with that divisor
     */
    public PoolingOptions divisorOverride(int divisor) {
        if (divisor < 1) {
            throw new EinopsException("divisor_override must be at least 1, got " + divisor);
        }
        return new PoolingOptions(kernel, stride, padding, dilation, countIncludePad, divisor);
    }

    int[] kernel(int dimensions, String operation) {
        return ConvolutionOptions.expand(kernel, dimensions, "kernel_size", operation);
    }

    int[] stride(int dimensions, String operation) {
        return stride == null ? kernel(dimensions, operation) : ConvolutionOptions.expand(stride, dimensions, "stride", operation);
    }

    int[] padding(int dimensions, String operation) {
        return ConvolutionOptions.expand(padding, dimensions, "padding", operation);
    }

    int[] dilation(int dimensions, String operation) {
        return ConvolutionOptions.expand(dilation, dimensions, "dilation", operation);
    }

    boolean countIncludePad() {
        return countIncludePad;
    }

    /** @return the divisor override, or 0 for none */
    int divisorOverride() {
        return divisorOverride;
    }

    @Override
    public String toString() {
        return "kernel_size=" + Arrays.toString(kernel) + ", stride=" + (stride == null ? Arrays.toString(kernel)
                : Arrays.toString(stride)) + ", padding=" + Arrays.toString(padding) + ", dilation="
                + Arrays.toString(dilation);
    }
}
