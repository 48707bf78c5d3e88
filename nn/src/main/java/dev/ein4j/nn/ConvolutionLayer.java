package dev.ein4j.nn;

import dev.ein4j.tensor.Generator;
import dev.ein4j.tensor.Tensor;
import java.util.Arrays;

/**
 * The parameters and settings shared by {@link Conv1d} and {@link Conv2d}: {@code weight}
 * [out, in / groups, *kernel] and {@code bias} [out], initialized U(−1/√fan_in, 1/√fan_in) as in
 * PyTorch, fan_in = in / groups · Πkernel.
 */
public abstract class ConvolutionLayer extends Module {

    private final int inChannels;
    private final int outChannels;
    private final int[] kernelSize;
    private final ConvolutionOptions options;
    private final int dimensions;

    ConvolutionLayer(int dimensions, int inChannels, int outChannels, int[] kernelSize, ConvolutionOptions options,
            boolean bias, Generator generator) {
        Checks.notNull(kernelSize, "kernelSize");
        Checks.notNull(options, "options");
        Checks.notNull(generator, "generator");
        Checks.positive(inChannels, "inChannels");
        Checks.positive(outChannels, "outChannels");
        this.dimensions = dimensions;
        this.kernelSize = ConvolutionOptions.expand(ConvolutionOptions.positive(kernelSize, "kernelSize", 1), dimensions,
                "kernel_size", "conv" + dimensions + "d");
        int groups = options.groups();
        if (inChannels % groups != 0 || outChannels % groups != 0) {
            throw new dev.ein4j.error.EinopsException(groups + " groups must divide the input channels (" + inChannels
                    + ") and the output channels (" + outChannels + ")");
        }
        this.inChannels = inChannels;
        this.outChannels = outChannels;
        this.options = options;
        int[] shape = new int[dimensions + 2];
        shape[0] = outChannels;
        shape[1] = inChannels / groups;
        System.arraycopy(this.kernelSize, 0, shape, 2, dimensions);
        registerParameter("weight", initialWeight(generator, shape));
        if (bias) {
            registerParameter("bias", initialBias(generator, shape, outChannels));
        }
    }

    /** PyTorch's convolution weight initialization: Kaiming uniform with a = √5, U(±1/√fan_in). */
    static Tensor initialWeight(Generator generator, int[] shape) {
        return Init.kaimingUniform(generator, Math.sqrt(5), shape);
    }

    /** PyTorch's convolution bias initialization: U(±1/√fan_in), fan_in = shape[1]·Πkernel. */
    static Tensor initialBias(Generator generator, int[] shape, int outChannels) {
        double bound = 1 / Math.sqrt(Init.fanIn(shape));
        return Init.uniform(generator, -bound, bound, outChannels);
    }

    /**
     * @param x [N, in, *spatial] (or without N)
     * @return [N, out, *spatial_out]
     */
    @Override
    public Tensor forward(Tensor x) {
        Tensor bias = hasParameter("bias") ? bias() : null;
        return Convolution.convolve(Checks.notNull(x, "x"), weight(), bias, options, dimensions);
    }

    /** @return the weight [out, in / groups, *kernel] */
    public Tensor weight() {
        return parameter("weight");
    }

    /** @return the bias [out] (an error if the layer has none) */
    public Tensor bias() {
        return parameter("bias");
    }

    @Override
    protected String extraRepresentation() {
        return inChannels + ", " + outChannels + ", kernel_size=" + Arrays.toString(kernelSize) + ", " + options;
    }
}
