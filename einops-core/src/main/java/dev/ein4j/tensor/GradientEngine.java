package dev.ein4j.tensor;

import java.util.List;

/**
 * What {@link Tensor#backward()} delegates to; the {@code autograd} module provides it through
 * {@link java.util.ServiceLoader} ({@code META-INF/services/dev.ein4j.tensor.GradientEngine}).
 */
public interface GradientEngine {

    /**
     * Computes d(Σ output·seed)/d(leaf) for every leaf that requires gradients and lies on a path
     * to the output, and adds it to the leaf's accumulated gradient.
     *
     * @param output the tensor to differentiate
     * @param seed the upstream gradient, same shape as output
     * @return the leaves whose gradients were updated
     */
    List<Tensor> backward(Tensor output, Tensor seed);
}
