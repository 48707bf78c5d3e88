package dev.ein4j.autograd;

import static dev.ein4j.autograd.GradTesting.assertValues;
import static dev.ein4j.autograd.GradTesting.input;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ein4j.error.EinopsException;
import dev.ein4j.ir.DType;
import dev.ein4j.ir.Op;
import dev.ein4j.tensor.Ein;
import dev.ein4j.tensor.GradientMode;
import dev.ein4j.tensor.Tensor;
import dev.ein4j.tensor.internal.TensorInternals;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The PyTorch-like flow on Tensor (requireGrad, backward, grad, zeroGrad, detach, noGrad). */
class GradientFlowTest {

    private static Tensor leaf(long seed, int... shape) {
        return GradCheck.randomInput(seed, GradCheck.Domain.ANY, shape).requireGrad();
    }

    private static Tensor loss(Tensor w, Tensor x) {
        return Ein.einsum("i j, j -> i", w, x).tanh().square().sum();
    }

    private static double[] scaled(double[] values, double factor) {
        return Arrays.stream(values).map(v -> v * factor).toArray();
    }

    @Test
    void backwardMatchesFunctionalGrad() {
        Tensor w = leaf(1, 3, 4);
        Tensor x = input(2, 4);
        assertThat(w.requiresGrad()).isTrue();
        assertThat(x.requiresGrad()).isFalse();
        Tensor loss = loss(w, x);
        assertThat(loss.requiresGrad()).isTrue();
        double[] expected = Autograd.grad(loss, List.of(w)).get(0).toDoubleArray();
        loss.backward();
        assertThat(w.hasGrad()).isTrue();
        assertThat(w.grad().shape()).containsExactly(3, 4);
        assertValues("w.grad() vs Autograd.grad", w.grad(), expected, 1e-15);
        assertThat(x.hasGrad()).as("a tensor that does not require gradients collects none").isFalse();
    }

    @Test
    void backwardFillsEveryLeafOnAPath() {
        Tensor a = leaf(3, 2, 3);
        Tensor b = leaf(4, 3);
        Tensor unused = leaf(5, 4);
        Tensor loss = a.mul(b).sin().sum().add(b.exp().sum());
        List<Tensor> expected = Autograd.grad(loss, List.of(a, b));
        loss.backward();
        assertValues("a.grad()", a.grad(), expected.get(0).toDoubleArray(), 1e-15);
        assertValues("b.grad()", b.grad(), expected.get(1).toDoubleArray(), 1e-15);
        assertThat(unused.hasGrad()).isFalse();
        assertThatThrownBy(unused::grad).isInstanceOf(EinopsException.class);
    }

    @Test
    void backwardTwiceAccumulates() {
        Tensor w = leaf(6, 3, 4);
        Tensor x = input(7, 4);
        Tensor loss = loss(w, x);
        loss.backward();
        double[] once = w.grad().toDoubleArray();
        loss.backward();
        assertValues("after two backward() calls", w.grad(), scaled(once, 2.0), 1e-14);
        loss(w, x).mul(3.0).backward();
        assertValues("after a third call with 3·loss", w.grad(), scaled(once, 5.0), 1e-14);
    }

    @Test
    void zeroGradClears() {
        Tensor w = leaf(8, 2, 2);
        w.square().sum().backward();
        assertThat(w.hasGrad()).isTrue();
        w.zeroGrad();
        assertThat(w.hasGrad()).isFalse();
        assertThatThrownBy(w::grad).isInstanceOf(EinopsException.class);
        // and accumulation restarts from zero
        w.square().sum().backward();
        assertValues("grad after zeroGrad and one backward", w.grad(), scaled(w.toDoubleArray(), 2.0), 1e-15);
    }

    @Test
    void gradOfANonLeafThrows() {
        Tensor w = leaf(9, 3);
        Tensor y = w.mul(2.0);
        y.sum().backward();
        assertThat(y.hasGrad()).isFalse();
        assertThatThrownBy(y::grad).isInstanceOf(EinopsException.class);
    }

    @Test
    void detachBlocksTheGradient() {
        Tensor w = leaf(10, 3, 2);
        Tensor detached = w.detach();
        assertThat(detached.requiresGrad()).isFalse();
        // loss = Σ w · detach(w)²: only the first factor carries a gradient
        Tensor loss = w.mul(detached.square()).sum();
        loss.backward();
        double[] values = w.toDoubleArray();
        assertValues("d/dw of w·detach(w)²", w.grad(), Arrays.stream(values).map(v -> v * v).toArray(), 1e-15);
        assertValues("functional grad through detach only",
                Autograd.grad(detached.mul(3.0).sum(), List.of(w)).get(0), new double[6], 0.0);
    }

    @Test
    void noGradScopeMakesTensorsThatDoNotRequireGradients() {
        Tensor w = leaf(11, 2, 3);
        assertThat(GradientMode.isEnabled()).isTrue();
        Tensor inside = Autograd.noGrad(() -> {
            assertThat(GradientMode.isEnabled()).isFalse();
            return w.mul(2.0).exp();
        });
        assertThat(GradientMode.isEnabled()).isTrue();
        assertThat(inside.requiresGrad()).isFalse();
        Tensor nested = GradientMode.noGrad(() -> GradientMode.noGrad(() -> w.sin()));
        assertThat(nested.requiresGrad()).isFalse();
        assertThat(GradientMode.isEnabled()).isTrue();

        assertValues("functional grad through a no-grad tensor",
                Autograd.grad(inside.sum(), List.of(w)).get(0), new double[6], 0.0);
        // mixed: only the part made outside the scope carries a gradient
        Tensor mixed = w.sum().add(inside.sum());
        assertValues("grad of w.sum() + noGrad(...)", Autograd.grad(mixed, List.of(w)).get(0),
                new double[] {1, 1, 1, 1, 1, 1}, 0.0);
        mixed.backward();
        assertValues("backward through a mix", w.grad(), new double[] {1, 1, 1, 1, 1, 1}, 0.0);
        // the values are still computed
        assertValues("noGrad values", inside, Arrays.stream(w.toDoubleArray()).map(v -> Math.exp(2 * v)).toArray(), 1e-15);
    }

    @Test
    void noGradRunnableAndExceptionsRestoreTheMode() {
        Autograd.noGrad(() -> assertThat(GradientMode.isEnabled()).isFalse());
        assertThat(GradientMode.isEnabled()).isTrue();
        assertThatThrownBy(() -> Autograd.noGrad((java.util.function.Supplier<Object>) () -> {
            throw new IllegalStateException("boom");
        })).isInstanceOf(IllegalStateException.class);
        assertThat(GradientMode.isEnabled()).isTrue();
    }

    @Test
    void optimizerStepInsideNoGradThenRequireGradTrainsAQuadratic() {
        // minimise Σ (w − target)² by gradient descent; w* = target
        Tensor target = Tensor.of(new double[] {1.0, -2.0, 0.5}, 3);
        Tensor w = Tensor.zeros(DType.FLOAT64, 3).requireGrad();
        for (int step = 0; step < 60; step++) {
            w.sub(target).square().sum().backward();
            Tensor current = w;
            w = Autograd.noGrad(() -> current.sub(current.grad().mul(0.1))).requireGrad();
            assertThat(w.requiresGrad()).isTrue();
            assertThat(w.hasGrad()).isFalse();
        }
        assertValues("trained weights", w, new double[] {1.0, -2.0, 0.5}, 1e-5);
    }

    @Test
    void backwardOnANonScalarWithoutSeedThrows() {
        Tensor w = leaf(12, 2, 3);
        Tensor y = w.mul(2.0);
        assertThatThrownBy(y::backward).isInstanceOf(EinopsException.class);
        assertThatThrownBy(() -> Autograd.grad(y, List.of(w))).isInstanceOf(EinopsException.class);
        assertThat(w.hasGrad()).isFalse();
    }

    @Test
    void backwardWithASeed() {
        Tensor w = leaf(13, 2, 3);
        Tensor seed = input(14, 2, 3);
        w.sin().backward(seed);
        double[] values = w.toDoubleArray();
        double[] s = seed.toDoubleArray();
        double[] expected = new double[6];
        for (int i = 0; i < 6; i++) {
            expected[i] = s[i] * Math.cos(values[i]);
        }
        assertValues("vjp of sin with a seed", w.grad(), expected, 1e-14);
    }

    @Test
    void seedOfTheWrongShapeIsRejected() {
        Tensor w = input(15, 2, 3);
        assertThatThrownBy(() -> Autograd.grad(w.sin(), List.of(w), input(16, 3, 2)))
                .isInstanceOf(EinopsException.class);
        assertThatThrownBy(() -> Autograd.grad(List.of(w.sin()), List.of(w), List.of()))
                .isInstanceOf(EinopsException.class);
    }

    @Test
    void gradOfAnUnusedInputIsZerosOfItsShape() {
        Tensor used = input(17, 3);
        Tensor unused = input(18, 2, 5);
        List<Tensor> gradients = Autograd.grad(used.exp().sum(), List.of(used, unused));
        assertThat(gradients.get(1).shape()).containsExactly(2, 5);
        assertThat(gradients.get(1).dtype()).isEqualTo(DType.FLOAT64);
        assertValues("unused", gradients.get(1), new double[10], 0.0);
        // an input reached only through a non-differentiable comparison is also zeros
        Tensor compared = Autograd.grad(used.lt(Tensor.scalar(0.0, DType.FLOAT64)).mul(used).sum(), List.of(used)).get(0);
        assertValues("through CMPLT only the multiplied path counts", compared,
                Arrays.stream(used.toDoubleArray()).map(v -> v < 0 ? 1.0 : 0.0).toArray(), 0.0);
    }

    @Test
    void gradOfTheOutputWithRespectToItself() {
        Tensor x = input(19, 1);
        Tensor y = x.sin();
        assertValues("dy/dy", Autograd.grad(y.sum(), List.of(y)).get(0), new double[] {1.0}, 0.0);
        assertValues("dy/dx", Autograd.grad(y.sum(), List.of(x)).get(0), new double[] {Math.cos(x.item())}, 1e-15);
        // both at once: the inputs are independent variables, so y blocks the path to x (documented)
        List<Tensor> both = Autograd.grad(y.sum(), List.of(y, x));
        assertValues("dy/dy with x also an input", both.get(0), new double[] {1.0}, 0.0);
        assertValues("dy/dx with y held fixed", both.get(1), new double[] {0.0}, 0.0);
    }

    @Test
    void inputsAreTreatedAsIndependent() {
        // y = 2x is an input too: the walk stops there, so x gets only the direct term
        Tensor x = input(20, 3);
        Tensor y = x.mul(2.0);
        Tensor out = y.mul(y).add(x).sum();
        List<Tensor> gradients = Autograd.grad(out, List.of(x, y));
        assertValues("d/dx, y held fixed", gradients.get(0), new double[] {1, 1, 1}, 0.0);
        assertValues("d/dy", gradients.get(1), scaled(y.toDoubleArray(), 2.0), 1e-15);
    }

    @Test
    void noGradIsPerThread() throws Exception {
        Tensor w = leaf(26, 3);
        Tensor[] madeElsewhere = new Tensor[1];
        Autograd.noGrad(() -> {
            Thread other = new Thread(() -> madeElsewhere[0] = w.mul(2.0));
            other.start();
            try {
                other.join();
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
            assertThat(w.mul(2.0).requiresGrad()).as("made in the no-grad scope").isFalse();
        });
        assertThat(madeElsewhere[0].requiresGrad()).as("made on another thread meanwhile").isTrue();
    }

    @Test
    void backwardInsideNoGradStillComputesTheGradient() {
        Tensor w = leaf(27, 3);
        Tensor loss = w.sin().sum();
        Autograd.noGrad(() -> loss.backward()); // (a method reference is ambiguous between the Supplier and Runnable overloads)
        assertValues("grad computed in a no-grad scope", w.grad(), Arrays.stream(w.toDoubleArray()).map(Math::cos).toArray(), 1e-15);
    }

    @Test
    void backwardOnAScalarLeafGivesOne() {
        Tensor w = Tensor.of(new double[] {2.5}, new int[0]).requireGrad();
        w.backward();
        assertThat(w.grad().shape()).isEmpty();
        assertValues("dw/dw", w.grad(), new double[] {1.0}, 0.0);
    }

    @Test
    void gradWithRespectToTheOutputIsTheSeed() {
        Tensor x = input(28, 2, 2);
        Tensor seed = input(29, 2, 2);
        assertValues("d(Σ x·seed)/dx", Autograd.grad(x, List.of(x), seed).get(0), seed.toDoubleArray(), 0.0);
        assertValues("through detach", Autograd.grad(x.detach(), List.of(x), seed).get(0), new double[4], 0.0);
    }

    @Test
    void aChainOfOneHundredThousandOpsDifferentiatesWithoutStackOverflow() {
        int length = 100_000;
        double factor = 1.0000001;
        Tensor w = Tensor.of(new double[] {1.5, -2.0}, 2).requireGrad();
        Tensor x = w;
        for (int i = 0; i < length; i++) {
            x = i % 2 == 0 ? x.mul(factor) : x.add(1e-7);
        }
        Tensor y = x;
        double scale = Math.pow(factor, length / 2);
        assertThatCode(() -> y.sum().backward()).doesNotThrowAnyException();
        assertValues("gradient of the long chain", w.grad(), new double[] {scale, scale}, 1e-9);
        Tensor functional = Autograd.grad(y.sum(), List.of(w)).get(0);
        assertValues("functional gradient of the long chain", functional, new double[] {scale, scale}, 1e-9);
        double[] expected = new double[2];
        double[] start = {1.5, -2.0};
        for (int k = 0; k < 2; k++) {
            double value = start[k];
            for (int i = 0; i < length; i++) {
                value = i % 2 == 0 ? value * factor : value + 1e-7;
            }
            expected[k] = value;
        }
        assertValues("value of the long chain", y, expected, 1e-12);
    }

    @Test
    void theAccumulatedGradientIsAnInputNodeKeepingNoGraph() {
        Tensor w = leaf(21, 3, 4);
        Tensor x = input(22, 4);
        loss(w, x).backward();
        Tensor grad = w.grad();
        assertThat(TensorInternals.node(grad).op()).isEqualTo(Op.INPUT);
        assertThat(TensorInternals.node(grad).sourceCount()).isZero();
        assertThat(grad.requiresGrad()).isFalse();
        assertThat(dev.ein4j.runtime.Results.get(TensorInternals.node(grad))).as("computed already").isNotNull();
        // also after accumulation
        loss(w, x).backward();
        assertThat(TensorInternals.node(w.grad()).op()).isEqualTo(Op.INPUT);
        assertThat(TensorInternals.node(w.grad()).sourceCount()).isZero();
    }

    @Test
    void float32LeavesGetFloat32Gradients() {
        Tensor w = Tensor.of(new float[] {1f, 2f, 3f}, 3).requireGrad();
        w.square().sum().backward();
        assertThat(w.grad().dtype()).isEqualTo(DType.FLOAT32);
        assertValues("2w", w.grad(), new double[] {2, 4, 6}, 0.0);
        // promoted to float64 in the middle: still a float32 gradient
        Tensor v = Tensor.of(new float[] {1f, 2f}, 2).requireGrad();
        v.mul(input(23, 2)).sum().backward();
        assertThat(v.grad().dtype()).isEqualTo(DType.FLOAT32);
    }

    @Test
    void requireGradOfViewsAndConstantsMakesIndependentLeaves() {
        Tensor zeros = Tensor.zeros(DType.FLOAT64, 2, 3).requireGrad();
        zeros.add(1.0).square().sum().backward();
        assertValues("grad at a constant-initialised leaf", zeros.grad(), new double[] {2, 2, 2, 2, 2, 2}, 0.0);

        Tensor transposed = input(24, 2, 3).permute(1, 0).requireGrad();
        assertThat(transposed.shape()).containsExactly(3, 2);
        transposed.mul(Tensor.of(new double[] {1, 2, 3, 4, 5, 6}, 3, 2)).sum().backward();
        assertValues("grad of a leaf made from a permuted view", transposed.grad(), new double[] {1, 2, 3, 4, 5, 6}, 0.0);

        Tensor fromNoGrad = Autograd.noGrad(() -> input(25, 3).mul(2.0)).requireGrad();
        fromNoGrad.square().sum().backward();
        assertValues("grad of a leaf made from a no-grad tensor", fromNoGrad.grad(),
                scaled(fromNoGrad.toDoubleArray(), 2.0), 1e-15);
    }

    @Test
    void backwardWithoutAnyTrackedLeafIsAnError() {
        Tensor w = input(31, 4).requireGrad();
        Tensor mask = w.lt(Tensor.zeros(DType.FLOAT64, 4));
        assertThat(mask.requiresGrad()).as("comparisons are piecewise constant").isFalse();
        assertThatThrownBy(() -> mask.sum().backward()).isInstanceOf(dev.ein4j.error.EinopsException.class)
                .hasMessageContaining("does not require gradients");
        assertThatThrownBy(() -> input(32, 3).sum().backward()).isInstanceOf(dev.ein4j.error.EinopsException.class);
        assertThat(w.hasGrad()).isFalse();
    }
}
