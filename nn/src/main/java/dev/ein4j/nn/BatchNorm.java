package dev.ein4j.nn;

import dev.ein4j.ir.DType;
import dev.ein4j.tensor.Tensor;
import java.util.Arrays;

/**
 * Batch normalization with running statistics, the base of {@link BatchNorm1d} and
 * {@link BatchNorm2d} (PyTorch's {@code nn.BatchNorm*}). Parameters {@code weight} (ones) and
 * {@code bias} (zeros); buffers {@code running_mean} (zeros), {@code running_var} (ones) and
 * {@code num_batches_tracked} (int32). In training mode each forward normalizes by the batch's
 * statistics and updates the running ones in place; in evaluation mode it uses the running ones.
 */
public abstract class BatchNorm extends Module {

    private final int features;
    private final double eps;
    private final double momentum;
    private final int[] ranks;

    BatchNorm(int features, double eps, double momentum, boolean affine, int... ranks) {
        this.features = Checks.positive(features, "numFeatures");
        this.eps = eps;
        this.momentum = momentum;
        this.ranks = ranks;
        if (affine) {
            registerParameter("weight", Tensor.ones(features));
            registerParameter("bias", Tensor.zeros(features));
        }
        registerBuffer("running_mean", Tensor.zeros(features));
        registerBuffer("running_var", Tensor.ones(features));
        registerBuffer("num_batches_tracked", Tensor.zeros(DType.INT32));
    }

    @Override
    public Tensor forward(Tensor x) {
        Checks.notNull(x, "x");
        Checks.rank(x, getClass().getSimpleName(), "input", ranks);
        Tensor mean = buffer("running_mean");
        Tensor variance = buffer("running_var");
        if (isTraining()) {
            Tensor count = buffer("num_batches_tracked");
            count.assign(count.add(Tensor.scalar(1, DType.INT32)));
        }
        if (hasParameter("weight")) {
            return Functional.batchNorm(x, mean, variance, parameter("weight"), parameter("bias"), isTraining(), momentum, eps);
        }
        return Functional.batchNorm(x, mean, variance, isTraining(), momentum, eps);
    }

    /** @return the running mean [C] (updated in place while training) */
    public Tensor runningMean() {
        return buffer("running_mean");
    }

    /** @return the running variance [C] (unbiased, updated in place while training) */
    public Tensor runningVar() {
        return buffer("running_var");
    }

    @Override
    protected String extraRepresentation() {
        return features + ", eps=" + eps + ", momentum=" + momentum + ", affine=" + hasParameter("weight")
                + ", input ranks " + Arrays.toString(ranks);
    }
}
