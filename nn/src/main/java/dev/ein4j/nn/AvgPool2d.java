package dev.ein4j.nn;

import dev.ein4j.tensor.Tensor;

/**
 * 2-d avg pooling, PyTorch's {@code nn.AvgPool2d}: the mean of each window, {@link Functional#avgPool2d}.
 *
 * <pre>{@code
 * Module pool = new AvgPool2d(2);                                  // [b, c, 28, 28] -> [b, c, 14, 14]
 * Module overlapping = new AvgPool2d(PoolingOptions.kernel(3).stride(2).padding(1));
 * }</pre>
 */
public class AvgPool2d extends Module {

    private final PoolingOptions options;

    /** @param kernelSize the window size and stride */
    public AvgPool2d(int kernelSize) {
        this(PoolingOptions.kernel(kernelSize));
    }

    /** @param options kernel, stride, padding and the rest */
    public AvgPool2d(PoolingOptions options) {
        this.options = Checks.notNull(options, "options");
    }

    /**
     * @param x [N, C, H, W] (or without N)
     * @return [N, C, H_out, W_out]
     */
    @Override
    public Tensor forward(Tensor x) {
        return Functional.avgPool2d(x, options);
    }

    @Override
    protected String extraRepresentation() {
        return options.toString();
    }
}
