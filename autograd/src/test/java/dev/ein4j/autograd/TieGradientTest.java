package dev.ein4j.autograd;

import static dev.ein4j.autograd.GradTesting.assertValues;
import static org.assertj.core.api.Assertions.assertThat;

import dev.ein4j.ir.Op;
import dev.ein4j.tensor.Tensor;
import dev.ein4j.tensor.internal.TensorInternals;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Gradients at points where the function is not differentiable: the subgradient conventions (ties
 * split evenly, as PyTorch's amax/maximum; relu'(0) = 0).
 */
class TieGradientTest {

    @Test
    void elementwiseMaxOfEqualOperandsSplitsEvenly() {
        Tensor x = Tensor.of(new double[] {1.0, 2.0, -3.0, 0.0}, 4);
        Tensor y = Tensor.of(new double[] {1.0, 5.0, -3.0, -1.0}, 4);
        List<Tensor> gradients = Autograd.grad(x.maximum(y).sum(), List.of(x, y));
        assertValues("d max/dx", gradients.get(0), new double[] {0.5, 0.0, 0.5, 1.0}, 0.0);
        assertValues("d max/dy", gradients.get(1), new double[] {0.5, 1.0, 0.5, 0.0}, 0.0);
    }

    @Test
    void elementwiseMaxTieWithUpstream() {
        Tensor x = Tensor.of(new double[] {2.0, 2.0}, 2);
        Tensor y = Tensor.of(new double[] {2.0, 1.0}, 2);
        Tensor seed = Tensor.of(new double[] {3.0, 7.0}, 2);
        List<Tensor> gradients = Autograd.grad(x.maximum(y), List.of(x, y), seed);
        assertValues("d max/dx", gradients.get(0), new double[] {1.5, 7.0}, 0.0);
        assertValues("d max/dy", gradients.get(1), new double[] {1.5, 0.0}, 0.0);
    }

    @Test
    void maxOfATensorWithItselfHasGradientOne() {
        Tensor x = Tensor.of(new double[] {1.0, -2.0, 0.0}, 3);
        assertValues("d max(x, x)/dx", GradTesting.gradient(x.maximum(x).sum(), x), new double[] {1, 1, 1}, 0.0);
    }

    @Test
    void elementwiseMinTieSplitsEvenly() {
        Tensor x = Tensor.of(new double[] {1.0, 2.0}, 2);
        Tensor y = Tensor.of(new double[] {1.0, 0.0}, 2);
        List<Tensor> gradients = Autograd.grad(x.minimum(y).sum(), List.of(x, y));
        assertValues("d min/dx", gradients.get(0), new double[] {0.5, 0.0}, 0.0);
        assertValues("d min/dy", gradients.get(1), new double[] {0.5, 1.0}, 0.0);
    }

    @Test
    void absAtZeroHasGradientZero() {
        Tensor x = Tensor.of(new double[] {-2.0, 0.0, 3.0}, 3);
        assertValues("d|x|/dx", GradTesting.gradient(x.abs().sum(), x), new double[] {-1.0, 0.0, 1.0}, 0.0);
    }

    @Test
    void reduceMaxWithATieOfTwoGivesHalfEach() {
        Tensor x = Tensor.of(new double[] {1.0, 3.0, 3.0, 2.0}, 4);
        assertValues("d amax/dx", GradTesting.gradient(x.max(), x), new double[] {0.0, 0.5, 0.5, 0.0}, 0.0);
    }

    @Test
    void reduceMaxTiesPerGroup() {
        // rows: one winner, a tie of two, a tie of three, all equal (four)
        Tensor x = Tensor.of(new double[] {
            1, 4, 2, 0,
            5, 1, 5, 0,
            -1, -1, -2, -1,
            7, 7, 7, 7,
        }, 4, 4);
        Tensor seed = Tensor.of(new double[] {1, 2, 3, 4}, 4);
        Tensor gradient = Autograd.grad(x.max(1), List.of(x), seed).get(0);
        assertValues("d max over rows/dx", gradient, new double[] {
            0, 1, 0, 0,
            1, 0, 1, 0,
            1, 1, 0, 1,
            1, 1, 1, 1,
        }, 1e-15);
        Tensor primitive = TensorInternals.reduce(x, Op.REDUCE_MAX, new int[] {0});
        Tensor columns = GradTesting.gradient(primitive.sum(), x);
        assertValues("d max over columns/dx", columns, new double[] {
            0, 0, 0, 0,
            0, 0, 0, 0,
            0, 0, 0, 0,
            1, 1, 1, 1,
        }, 0.0);
    }

    @Test
    void reduceMinWithATieOfTwoGivesHalfEach() {
        Tensor x = Tensor.of(new double[] {1.0, -3.0, 2.0, -3.0}, 4);
        assertValues("d amin/dx", GradTesting.gradient(x.min(), x), new double[] {0.0, 0.5, 0.0, 0.5}, 0.0);
    }

    @Test
    void reluAtZeroHasGradientZero() {
        Tensor x = Tensor.of(new double[] {-1.0, 0.0, 2.0, -0.0}, 4);
        Tensor gradient = GradTesting.gradient(x.relu().sum(), x);
        assertValues("d relu/dx", gradient, new double[] {0.0, 0.0, 1.0, 0.0}, 0.0);
        assertThat(x.relu().toDoubleArray()).containsExactly(0.0, 0.0, 2.0, 0.0);
    }
}
