package dev.ein4j.nn;

import dev.ein4j.tensor.Tensor;

/**
 * Adaptive 2-d average pooling, PyTorch's {@code nn.AdaptiveAvgPool2d}: any [H, W] to a fixed
 * [outHeight, outWidth], {@link Functional#adaptiveAvgPool2d}.
 *
 * <pre>{@code
 * Module pool = new AdaptiveAvgPool2d(1, 1);          // global average pooling: [b, c, h, w] -> [b, c, 1, 1]
 * }</pre>
 */
public class AdaptiveAvgPool2d extends Module {

    private final int outHeight;
    private final int outWidth;

    /** @param outputSize the output height and width */
    public AdaptiveAvgPool2d(int outputSize) {
        this(outputSize, outputSize);
    }

    /**
     * @param outHeight the output height, at least 1
     * @param outWidth the output width, at least 1
     */
    public AdaptiveAvgPool2d(int outHeight, int outWidth) {
        this.outHeight = Checks.positive(outHeight, "outHeight");
        this.outWidth = Checks.positive(outWidth, "outWidth");
    }

    /**
     * @param x [N, C, H, W] (or [C, H, W])
     * @return [N, C, outHeight, outWidth]
     */
    @Override
    public Tensor forward(Tensor x) {
        return Resampling.adaptiveAvgPool2d(x, outHeight, outWidth);
    }

    @Override
    protected String extraRepresentation() {
        return "output_size=(" + outHeight + ", " + outWidth + ")";
    }
}
