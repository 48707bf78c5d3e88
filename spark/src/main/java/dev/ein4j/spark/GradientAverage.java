package dev.ein4j.spark;

import dev.ein4j.ir.DType;
import dev.ein4j.tensor.Tensor;
import dev.ein4j.tensor.TensorScope;
import dev.ein4j.tensor.internal.TensorInternals;
import java.io.IOException;
import java.util.Arrays;
import java.util.List;

/**
 * Turns each worker's gradients into the global batch's: with worker w holding n_w of the batch's n
 * examples and its loss the mean over them, the gradient of the mean loss over the whole batch is
 * Σ_w (n_w / n)·∇_w. One vector per step carries, in order, every parameter's weighted gradient, one
 * flag per parameter (1 where this worker has a gradient for it), and the model's floating buffers
 * (batch-norm running statistics) weighted the same way, so that buffers stay equal on every worker
 * too; the vector is summed over the workers and written back: gradients as each parameter's new
 * accumulated gradient (none where no worker had one, so an optimizer skips the parameter as it
 * would in one process), buffers in place.
 */
final class GradientAverage {

    private final List<Tensor> parameters;
    private final List<Tensor> buffers;
    private final boolean singlePrecision;
    private final int length;

    /**
     * @param parameters the replica's parameters
     * @param buffers its floating buffers, updated by training (running statistics)
     */
    GradientAverage(List<Tensor> parameters, List<Tensor> buffers) {
        this.parameters = parameters;
        this.buffers = buffers;
        this.singlePrecision = parameters.stream().allMatch(t -> t.dtype() == DType.FLOAT32)
                && buffers.stream().allMatch(t -> t.dtype() == DType.FLOAT32);
        long total = parameters.size();
        for (Tensor tensor : parameters) {
            total += tensor.size();
        }
        for (Tensor tensor : buffers) {
            total += tensor.size();
        }
        this.length = Math.toIntExact(total);
    }

    /** @return the numbers one step exchanges */
    int length() {
        return length;
    }

    /**
     * Replaces this worker's gradients and buffers by the weighted sums over all workers.
     *
     * @param weight n_w / n, this worker's share of the global batch
     * @param ring the workers' ring
     * @throws IOException if a peer is lost
     */
    void apply(double weight, RingAllReduce ring) throws IOException {
        double[] vector = new double[length];
        int at = 0;
        for (Tensor parameter : parameters) {
            if (parameter.hasGrad()) {
                scaled(parameter.grad(), weight, vector, at);
            }
            at += (int) parameter.size();
        }
        int flags = at;
        for (int i = 0; i < parameters.size(); i++) {
            vector[flags + i] = parameters.get(i).hasGrad() ? 1 : 0;
        }
        at += parameters.size();
        for (Tensor buffer : buffers) {
            scaled(buffer, weight, vector, at);
            at += (int) buffer.size();
        }
        ring.sum(vector, singlePrecision);
        writeBack(vector, flags);
    }

    private void writeBack(double[] vector, int flags) {
        int at = 0;
        for (int i = 0; i < parameters.size(); i++) {
            Tensor parameter = parameters.get(i);
            int size = (int) parameter.size();
            parameter.zeroGrad();
            if (vector[flags + i] > 0) {
                double[] sum = Arrays.copyOfRange(vector, at, at + size);
                // the gradient belongs to its parameter, not to the step's scope: zeroGrad releases it
                Tensor gradient = TensorScope.unscoped(() -> Tensor.of(sum, parameter.dtype(), parameter.shape()).realize());
                TensorInternals.setGradient(parameter, gradient);
            }
            at += size;
        }
        at += parameters.size();
        for (Tensor buffer : buffers) {
            int size = (int) buffer.size();
            buffer.assign(Tensor.of(Arrays.copyOfRange(vector, at, at + size), buffer.dtype(), buffer.shape()));
            at += size;
        }
    }

    private static void scaled(Tensor tensor, double weight, double[] vector, int at) {
        if (tensor.dtype() == DType.FLOAT64) {
            double[] values = tensor.toDoubleArray();
            for (int i = 0; i < values.length; i++) {
                vector[at + i] = values[i] * weight;
            }
        } else {
            float[] values = tensor.toFloatArray();
            for (int i = 0; i < values.length; i++) {
                vector[at + i] = values[i] * weight;
            }
        }
    }
}
