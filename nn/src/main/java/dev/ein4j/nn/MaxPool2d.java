package dev.ein4j.nn;

import dev.ein4j.tensor.Tensor;

/**
 * 2-d max pooling, PyTorch's {@code nn.MaxPool2d}: the maximum of each window, {@link Functional#maxPool2d}.
 *
 * <pre>{@code
 * Module pool = new MaxPool2d(2);                                  // [b, c, 28, 28] -> [b, c, 14, 14]
 * Module overlapping = new MaxPool2d(PoolingOptions.kernel(3).stride(2).padding(1));
 * }</pre>
 */
public class MaxPool2d extends Module {

    private final PoolingOptions options;

    /** @param kernelSize the window size and stride */
    public MaxPool2d(int kernelSize) {
        this(PoolingOptions.kernel(kernelSize));
    }

    /** @param options kernel, stride, padding and the rest */
    public MaxPool2d(PoolingOptions options) {
        this.options = Checks.notNull(options, "options");
    }

    /**
     * @param x [N, C, H, W] (or without N)
     * @return [N, C, H_out, W_out]
     */
    @Override
    public Tensor forward(Tensor x) {
        return Functional.maxPool2d(x, options);
    }

    @Override
    protected String extraRepresentation() {
        return options.toString();
    }
}
