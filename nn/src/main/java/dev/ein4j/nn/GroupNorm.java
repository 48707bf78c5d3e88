package dev.ein4j.nn;

import dev.ein4j.error.EinopsException;
import dev.ein4j.tensor.Tensor;

/**
 * Group normalization, PyTorch's {@code nn.GroupNorm}: {@link Functional#groupNorm} over inputs
 * [N, C, *] with a learned per-channel {@code weight} (ones) and {@code bias} (zeros).
 *
 * <pre>{@code
 * GroupNorm norm = new GroupNorm(8, 64);        // 8 groups of 8 channels, eps 1e-5
 * }</pre>
 */
public class GroupNorm extends Module {

    private final int groups;
    private final int channels;
    private final double eps;

    /**
     * @param numGroups the number of groups, dividing the channels
     * @param numChannels C
     */
    public GroupNorm(int numGroups, int numChannels) {
        this(numGroups, numChannels, 1e-5, true);
    }

    /**
     * @param numGroups the number of groups, dividing the channels
     * @param numChannels C
     * @param eps added to the variance
     * @param affine whether to learn a weight and a bias per channel
     */
    public GroupNorm(int numGroups, int numChannels, double eps, boolean affine) {
        this.groups = Checks.positive(numGroups, "numGroups");
        this.channels = Checks.positive(numChannels, "numChannels");
        if (numChannels % numGroups != 0) {
            throw new EinopsException("numGroups " + numGroups + " must divide numChannels " + numChannels);
        }
        this.eps = eps;
        if (affine) {
            registerParameter("weight", Tensor.ones(numChannels));
            registerParameter("bias", Tensor.zeros(numChannels));
        }
    }

    /**
     * @param x [N, C, *]
     * @return x's shape
     */
    @Override
    public Tensor forward(Tensor x) {
        Checks.notNull(x, "x");
        if (x.rank() >= 2 && x.length(1) != channels) {
            throw Checks.shapeError("group_norm", "expected " + channels + " channels in dimension 1", x);
        }
        Tensor weight = hasParameter("weight") ? parameter("weight") : null;
        Tensor bias = hasParameter("bias") ? parameter("bias") : null;
        return Normalization.groupNorm(x, groups, weight, bias, eps);
    }

    @Override
    protected String extraRepresentation() {
        return groups + ", " + channels + ", eps=" + eps + ", affine=" + hasParameter("weight");
    }
}
