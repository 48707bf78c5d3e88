package dev.ein4j.nn;

import dev.ein4j.error.EinopsException;
import dev.ein4j.tensor.Generator;
import dev.ein4j.tensor.Tensor;
import java.util.Arrays;

/**
 * 2-d transposed convolution, PyTorch's {@code nn.ConvTranspose2d}: {@link Functional#convTranspose2d}
 * with learned {@code weight} [in, out / groups, kh, kw] and {@code bias} [out], initialized as
 * PyTorch does (Kaiming uniform with a = √5, fan_in = out / groups · kh · kw; bias U(±1/√fan_in)).
 *
 * <pre>{@code
 * ConvTranspose2d up = new ConvTranspose2d(64, 32, 2, ConvTransposeOptions.defaults().stride(2));
 * Tensor y = up.forward(x);                                    // [b, 64, 16, 16] -> [b, 32, 32, 32]
 * }</pre>
 */
public class ConvTranspose2d extends Module {

    private final int inChannels;
    private final int outChannels;
    private final int[] kernelSize;
    private final ConvTransposeOptions options;

    /**
     * @param inChannels input channels
     * @param outChannels output channels
     * @param kernelSize the kernel length in both spatial dimensions
     * @param options stride, padding, output padding, dilation and groups
     */
    public ConvTranspose2d(int inChannels, int outChannels, int kernelSize, ConvTransposeOptions options) {
        this(inChannels, outChannels, new int[] {kernelSize}, options, true, Generator.global());
    }

    /**
     * @param inChannels input channels
     * @param outChannels output channels
     * @param kernelSize the kernel lengths (one, or one per spatial dimension)
     * @param options stride, padding, output padding, dilation and groups
     * @param bias whether to add a learned bias
     * @param generator the random stream of the initial weights
     */
    public ConvTranspose2d(int inChannels, int outChannels, int[] kernelSize, ConvTransposeOptions options, boolean bias,
            Generator generator) {
        Checks.notNull(kernelSize, "kernelSize");
        Checks.notNull(options, "options");
        Checks.notNull(generator, "generator");
        this.inChannels = Checks.positive(inChannels, "inChannels");
        this.outChannels = Checks.positive(outChannels, "outChannels");
        this.kernelSize = ConvolutionOptions.expand(ConvolutionOptions.positive(kernelSize, "kernelSize", 1), 2,
                "kernel_size", "conv_transpose2d");
        int groups = options.groups();
        if (inChannels % groups != 0 || outChannels % groups != 0) {
            throw new EinopsException(groups + " groups must divide the input channels (" + inChannels
                    + ") and the output channels (" + outChannels + ")");
        }
        this.options = options;
        int[] shape = {inChannels, outChannels / groups, this.kernelSize[0], this.kernelSize[1]};
        registerParameter("weight", Init.kaimingUniform(generator, Math.sqrt(5), shape));
        if (bias) {
            double bound = 1 / Math.sqrt(Init.fanIn(shape));
            registerParameter("bias", Init.uniform(generator, -bound, bound, outChannels));
        }
    }

    /**
     * @param x [N, in, H, W] (or [in, H, W])
     * @return [N, out, H_out, W_out], H_out = (H − 1)·stride − 2·padding + dilation·(kh − 1) + output_padding + 1
     */
    @Override
    public Tensor forward(Tensor x) {
        Tensor bias = hasParameter("bias") ? parameter("bias") : null;
        return ConvTranspose.convolve(Checks.notNull(x, "x"), parameter("weight"), bias, options, 2);
    }

    /** @return the weight [in, out / groups, kh, kw] */
    public Tensor weight() {
        return parameter("weight");
    }

    @Override
    protected String extraRepresentation() {
        return inChannels + ", " + outChannels + ", kernel_size=" + Arrays.toString(kernelSize) + ", " + options;
    }
}
