package dev.ein4j.autograd;

import dev.ein4j.error.EinopsException;
import dev.ein4j.tensor.GradientMode;
import dev.ein4j.tensor.Tensor;
import dev.ein4j.tensor.internal.TensorInternals;
import java.util.List;
import java.util.function.Supplier;

/**
 * Gradients of tensors with respect to other tensors, derived on the IR: every pattern, layer and
 * backend gets them without writing any derivative by hand. Gradients are lazy tensors like any
 * other, so they can be differentiated again (Hessian-vector products, meta-learning).
 *
 * <pre>{@code
 * Tensor w = Tensor.randn(1, DType.FLOAT64, 3, 4);
 * Tensor loss = Ein.einsum("i j, j -> i", w, x).tanh().sum();
 * Tensor dw = Autograd.grad(loss, List.of(w)).get(0);                   // [3, 4]
 * Tensor hvp = Autograd.grad(dw.mul(v).sum(), List.of(w)).get(0);       // second order
 * }</pre>
 *
 * <p>For training loops, the PyTorch-like flow is on {@link Tensor}: {@code requireGrad()},
 * {@code backward()}, {@code grad()}, {@code zeroGrad()}; {@link #noGrad} turns tracking off.
 */
public final class Autograd {

    private Autograd() {
    }

    /**
     * ∂output/∂input for a one-element output.
     *
     * @param output a tensor of one element
     * @param inputs tensors the output depends on (they need not require gradients)
     * @return one gradient per input, each of the input's shape (zeros if the output does not depend on it)
     */
    public static List<Tensor> grad(Tensor output, List<Tensor> inputs) {
        java.util.Objects.requireNonNull(output, "output");
        requireNoNulls(inputs, "inputs");
        if (output.size() != 1) {
            throw new EinopsException("grad without a seed needs an output of one element, got shape "
                    + java.util.Arrays.toString(output.shape()) + "; pass a seed of the output's shape");
        }
        return grad(output, inputs, Tensor.ones(output.dtype(), output.shape()));
    }

    /**
     * The vector-Jacobian product ∂(Σ output·seed)/∂input.
     *
     * @param output any tensor
     * @param inputs tensors it depends on
     * @param seed the upstream gradient, the output's shape
     * @return one gradient per input
     */
    public static List<Tensor> grad(Tensor output, List<Tensor> inputs, Tensor seed) {
        java.util.Objects.requireNonNull(output, "output");
        java.util.Objects.requireNonNull(seed, "seed");
        return grad(List.of(output), inputs, List.of(seed));
    }

    /**
     * The vector-Jacobian product of several outputs: ∂(Σₖ Σ outputₖ·seedₖ)/∂input.
     *
     * @param outputs the tensors to differentiate
     * @param inputs tensors they depend on; treated as independent variables
     * @param seeds one upstream gradient per output, of its shape
     * @return one gradient per input
     */
    public static List<Tensor> grad(List<Tensor> outputs, List<Tensor> inputs, List<Tensor> seeds) {
        requireNoNulls(outputs, "outputs");
        requireNoNulls(inputs, "inputs");
        requireNoNulls(seeds, "seeds");
        if (outputs.size() != seeds.size()) {
            throw new EinopsException("grad needs one seed per output: " + outputs.size() + " outputs, " + seeds.size() + " seeds");
        }
        return GradientWalk.gradients(outputs.stream().map(TensorInternals::node).toList(), seeds,
                inputs.stream().map(TensorInternals::node).toList());
    }

    private static void requireNoNulls(List<Tensor> tensors, String name) {
        java.util.Objects.requireNonNull(tensors, name);
        for (int i = 0; i < tensors.size(); i++) {
            java.util.Objects.requireNonNull(tensors.get(i), name + "[" + i + "]");
        }
    }

    /**
     * Runs code without gradient tracking: tensors made inside are detached from the graph.
     *
     * @param body the code
     * @param <T> its result type
     * @return its result
     */
    public static <T> T noGrad(Supplier<T> body) {
        return GradientMode.noGrad(body);
    }

    /**
     * Runs code without gradient tracking.
     *
     * @param body the code
     */
    public static void noGrad(Runnable body) {
        GradientMode.noGrad(body);
    }
}
