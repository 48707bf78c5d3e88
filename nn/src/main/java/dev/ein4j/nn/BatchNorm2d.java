package dev.ein4j.nn;

/**
 * Batch normalization of [N, C, H, W] inputs, PyTorch's {@code nn.BatchNorm2d} (see {@link BatchNorm}).
 *
 * <pre>{@code
 * Module block = new Sequential(new Conv2d(1, 32, 3), new BatchNorm2d(32), Activation.relu());
 * }</pre>
 */
public class BatchNorm2d extends BatchNorm {

    /** @param numFeatures C; eps 1e-5, momentum 0.1, learned affine */
    public BatchNorm2d(int numFeatures) {
        this(numFeatures, 1e-5, 0.1, true);
    }

    /**
     * @param numFeatures C
     * @param eps added to the variance
     * @param momentum the weight of each batch in the running statistics
     * @param affine whether to learn a weight and a bias
     */
    public BatchNorm2d(int numFeatures, double eps, double momentum, boolean affine) {
        super(numFeatures, eps, momentum, affine, 4);
    }
}
