package dev.ein4j.nn;

import dev.ein4j.tensor.Generator;

/**
 * 2-d convolution, PyTorch's {@code nn.Conv2d}: {@link Functional#conv2d} with learned
 * {@code weight} and {@code bias}, over inputs [N, C, H, W].
 *
 * <pre>{@code
 * Conv2d conv = new Conv2d(3, 16, 3, ConvolutionOptions.defaults().padding(1));
 * }</pre>
 */
public class Conv2d extends ConvolutionLayer {

    /**
     * @param inChannels input channels
     * @param outChannels output channels
     * @param kernelSize the kernel length in every spatial dimension
     */
    public Conv2d(int inChannels, int outChannels, int kernelSize) {
        super(2, inChannels, outChannels, new int[] {kernelSize}, ConvolutionOptions.defaults(), true, Generator.global());
    }

    /**
     * @param inChannels input channels
     * @param outChannels output channels
     * @param kernelSize the kernel length in every spatial dimension
     * @param options stride, padding, dilation and groups
     */
    public Conv2d(int inChannels, int outChannels, int kernelSize, ConvolutionOptions options) {
        super(2, inChannels, outChannels, new int[] {kernelSize}, options, true, Generator.global());
    }

    /**
     * @param inChannels input channels
     * @param outChannels output channels
     * @param kernelSize the kernel lengths (one, or one per spatial dimension)
     * @param options stride, padding, dilation and groups
     * @param bias whether to add a learned bias
     * @param generator the random stream of the initial weights
     */
    public Conv2d(int inChannels, int outChannels, int[] kernelSize, ConvolutionOptions options, boolean bias,
            Generator generator) {
        super(2, inChannels, outChannels, kernelSize, options, bias, generator);
    }
}
