package dev.ein4j.autograd;

import static dev.ein4j.autograd.GradTesting.assertGradients;
import static dev.ein4j.autograd.GradTesting.input;
import static org.assertj.core.api.Assertions.assertThat;

import dev.ein4j.tensor.Ein;
import dev.ein4j.tensor.Tensor;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Gradients of gradients: the rules emit differentiable IR. */
class HigherOrderTest {

    private static final int IN = 3;
    private static final int HIDDEN = 4;
    private static final int OUT = 2;

    /** f(W1, W2) = Σ tanh(W2 · tanh(W1 · x)), x fixed. */
    private static Tensor network(Tensor w1, Tensor w2, Tensor x) {
        Tensor hidden = Ein.einsum("h i, i -> h", w1, x).tanh();
        return Ein.einsum("o h, h -> o", w2, hidden).tanh().sum();
    }

    private static List<Tensor> gradient(Tensor w1, Tensor w2, Tensor x) {
        return Autograd.grad(network(w1, w2, x), List.of(w1, w2));
    }

    @Test
    void hessianVectorProductMatchesFiniteDifferencesOfTheGradient() {
        Tensor x = input(1, IN);
        Tensor w1 = input(2, HIDDEN, IN);
        Tensor w2 = input(3, OUT, HIDDEN);
        Tensor v1 = input(4, HIDDEN, IN);
        Tensor v2 = input(5, OUT, HIDDEN);

        List<Tensor> g = gradient(w1, w2, x);
        Tensor directional = g.get(0).mul(v1).sum().add(g.get(1).mul(v2).sum());
        List<Tensor> hvp = Autograd.grad(directional, List.of(w1, w2));

        double epsilon = 1e-5;
        List<Tensor> plus = gradient(shift(w1, v1, epsilon), shift(w2, v2, epsilon), x);
        List<Tensor> minus = gradient(shift(w1, v1, -epsilon), shift(w2, v2, -epsilon), x);
        for (int p = 0; p < 2; p++) {
            double[] exact = hvp.get(p).toDoubleArray();
            double[] up = plus.get(p).toDoubleArray();
            double[] down = minus.get(p).toDoubleArray();
            double norm = 0;
            for (double value : exact) {
                norm = Math.max(norm, Math.abs(value));
            }
            assertThat(norm).as("the Hessian-vector product is not trivially zero").isGreaterThan(1e-3);
            for (int k = 0; k < exact.length; k++) {
                double numeric = (up[k] - down[k]) / (2 * epsilon);
                double error = Math.abs(exact[k] - numeric) / Math.max(1.0, Math.abs(numeric));
                assertThat(error).as("hvp of W%d element %d: analytic %s, finite difference %s", p + 1, k, exact[k], numeric)
                        .isLessThanOrEqualTo(1e-6);
            }
        }
    }

    @Test
    void hessianVectorProductAgainstExplicitSecondDerivativeOfTheLastLayer() {
        // f depends on W2 only through Σ_o tanh(W2[o]·h): ∂²f/∂W2[o,a]∂W2[o,b] = tanh''(z_o) h_a h_b
        Tensor x = input(6, IN);
        Tensor w1 = input(7, HIDDEN, IN);
        Tensor w2 = input(8, OUT, HIDDEN);
        Tensor v2 = input(9, OUT, HIDDEN);
        Tensor g2 = gradient(w1, w2, x).get(1);
        Tensor hvp = GradTesting.gradient(g2.mul(v2).sum(), w2);

        double[] h = Ein.einsum("h i, i -> h", w1, x).tanh().toDoubleArray();
        double[] w = w2.toDoubleArray();
        double[] v = v2.toDoubleArray();
        double[] expected = new double[OUT * HIDDEN];
        for (int o = 0; o < OUT; o++) {
            double z = 0;
            double vh = 0;
            for (int a = 0; a < HIDDEN; a++) {
                z += w[o * HIDDEN + a] * h[a];
                vh += v[o * HIDDEN + a] * h[a];
            }
            double t = Math.tanh(z);
            double second = -2 * t * (1 - t * t);
            for (int a = 0; a < HIDDEN; a++) {
                expected[o * HIDDEN + a] = second * h[a] * vh;
            }
        }
        GradTesting.assertValues("H·v for W2", hvp, expected, 1e-9);
    }

    @Test
    void gradientOfTheGradientPassesAGradientCheck() {
        // the first gradient as a function of the weights, checked like any other function
        Tensor x = input(10, IN);
        assertGradients("∂f/∂W1 as a function of (W1, W2)",
                in -> Autograd.grad(network(in.get(0), in.get(1), x), List.of(in.get(0))).get(0),
                input(11, HIDDEN, IN), input(12, OUT, HIDDEN));
    }

    @Test
    void secondDerivativeOfTheCubeIsSixX() {
        double[] values = {-2.0, -0.5, 0.0, 1.0, 3.0};
        Tensor x = Tensor.of(values.clone(), 5);
        Tensor first = GradTesting.gradient(x.pow(3).sum(), x);
        Tensor second = GradTesting.gradient(first.sum(), x);
        double[] expectedFirst = new double[values.length];
        double[] expectedSecond = new double[values.length];
        for (int i = 0; i < values.length; i++) {
            expectedFirst[i] = 3 * values[i] * values[i];
            expectedSecond[i] = 6 * values[i];
        }
        GradTesting.assertValues("3x²", first, expectedFirst, 1e-12);
        GradTesting.assertValues("6x", second, expectedSecond, 1e-12);
        Tensor third = GradTesting.gradient(second.sum(), x);
        GradTesting.assertValues("6", third, new double[] {6, 6, 6, 6, 6}, 1e-12);
    }

    @Test
    void secondDerivativesOfUnaryPrimitives() {
        // exp'' = exp, log'' = -1/x², sqrt'' = -x^(-3/2)/4, (1/x)'' = 2/x³, sin'' = -sin
        double[] values = {0.6, 1.0, 1.7};
        Tensor x = Tensor.of(values.clone(), 3);
        double[] exp = new double[3];
        double[] log = new double[3];
        double[] sqrt = new double[3];
        double[] reciprocal = new double[3];
        double[] sin = new double[3];
        for (int i = 0; i < 3; i++) {
            double v = values[i];
            exp[i] = Math.exp(v);
            log[i] = -1 / (v * v);
            sqrt[i] = -0.25 * Math.pow(v, -1.5);
            reciprocal[i] = 2 / (v * v * v);
            sin[i] = -Math.sin(v);
        }
        GradTesting.assertValues("exp''", secondDerivative(x.exp(), x), exp, 1e-12);
        GradTesting.assertValues("log''", secondDerivative(x.log(), x), log, 1e-12);
        GradTesting.assertValues("sqrt''", secondDerivative(x.sqrt(), x), sqrt, 1e-12);
        GradTesting.assertValues("reciprocal''", secondDerivative(x.reciprocal(), x), reciprocal, 1e-12);
        GradTesting.assertValues("sin''", secondDerivative(x.sin(), x), sin, 1e-12);
    }

    @Test
    void secondDerivativeOfAProductWithZeros() {
        // Π x: ∂²/∂x_i∂x_j = Π_{k≠i,j} x_k; with x = (0, 2, 3): H·1 per i = Σ_{j≠i} Π_{k≠i,j} x_k
        Tensor x = Tensor.of(new double[] {0.0, 2.0, 3.0}, 3);
        Tensor first = GradTesting.gradient(x.prod(), x);
        Tensor hessianTimesOnes = GradTesting.gradient(first.sum(), x);
        GradTesting.assertValues("∂Π/∂x", first, new double[] {6, 0, 0}, 1e-12);
        GradTesting.assertValues("H·1", hessianTimesOnes, new double[] {3 + 2, 0 + 3, 0 + 2}, 1e-12);
    }

    @Test
    void jacobianVectorProductByDifferentiatingAVjpWithRespectToItsSeed() {
        // g(v) = Jᵀv is linear in the seed v; d⟨g(v), u⟩/dv = J·u, compared with (f(x+εu) − f(x−εu)) / 2ε
        Tensor x = input(13, 3);
        Tensor u = input(14, 3);
        Tensor v = input(15, 2);
        Tensor a = input(16, 2, 3);
        java.util.function.Function<Tensor, Tensor> f = t -> Ein.einsum("o i, i -> o", a, t.sin()).exp();
        Tensor vjp = Autograd.grad(f.apply(x), List.of(x), v).get(0);
        Tensor jvp = GradTesting.gradient(vjp.mul(u).sum(), v);
        double epsilon = 1e-6;
        double[] up = f.apply(x.add(u.mul(epsilon))).toDoubleArray();
        double[] down = f.apply(x.sub(u.mul(epsilon))).toDoubleArray();
        double[] expected = new double[2];
        for (int o = 0; o < 2; o++) {
            expected[o] = (up[o] - down[o]) / (2 * epsilon);
        }
        GradTesting.assertValues("J·u", jvp, expected, 1e-7);
    }

    private static Tensor secondDerivative(Tensor y, Tensor x) {
        Tensor first = GradTesting.gradient(y.sum(), x);
        return GradTesting.gradient(first.sum(), x);
    }

    private static Tensor shift(Tensor w, Tensor v, double epsilon) {
        double[] values = w.toDoubleArray();
        double[] direction = v.toDoubleArray();
        double[] shifted = new double[values.length];
        for (int i = 0; i < values.length; i++) {
            shifted[i] = values[i] + epsilon * direction[i];
        }
        return Tensor.of(shifted, w.shape());
    }
}
