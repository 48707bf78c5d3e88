package dev.ein4j.nn;

/**
 * Batch normalization of [N, C] or [N, C, L] inputs, PyTorch's {@code nn.BatchNorm1d} (see {@link BatchNorm}).
 *
 * <pre>{@code
 * Module norm = new BatchNorm1d(128);
 * }</pre>
 */
public class BatchNorm1d extends BatchNorm {

    /** @param numFeatures C; eps 1e-5, momentum 0.1, learned affine */
    public BatchNorm1d(int numFeatures) {
        this(numFeatures, 1e-5, 0.1, true);
    }

    /**
     * @param numFeatures C
     * @param eps added to the variance
     * @param momentum the weight of each batch in the running statistics
     * @param affine whether to learn a weight and a bias
     */
    public BatchNorm1d(int numFeatures, double eps, double momentum, boolean affine) {
        super(numFeatures, eps, momentum, affine, 2, 3);
    }
}
