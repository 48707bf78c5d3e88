package dev.ein4j.autograd;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ein4j.ir.DType;
import dev.ein4j.tensor.Tensor;
import java.util.List;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;

/**
 * The composed functions where naive formulas fail: values and gradients finite at extreme inputs,
 * relative accuracy near zero, NaN propagated, and float64 gradient checks across the range.
 */
class StableFunctionsTest {

    private record Function(String name, UnaryOperator<Tensor> f, java.util.function.DoubleUnaryOperator exact) {
    }

    /** erf by its Maclaurin series in 60-digit decimal arithmetic (the terms cancel, so doubles would not do). */
    private static double erf(double x) {
        return series(x).doubleValue();
    }

    /** erfc as 1 minus the same series, kept in 60 digits so that the left tail keeps its relative accuracy. */
    private static double erfc(double x) {
        return java.math.BigDecimal.ONE.subtract(series(x)).doubleValue();
    }

    /** 2/√π · Σ (−1)ⁿ x^(2n+1) / (n! (2n + 1)), 400 terms in 60 digits. */
    private static java.math.BigDecimal series(double x) {
        java.math.MathContext context = new java.math.MathContext(60);
        java.math.BigDecimal value = new java.math.BigDecimal(x);
        java.math.BigDecimal square = value.multiply(value, context).negate();
        java.math.BigDecimal term = value;
        java.math.BigDecimal sum = java.math.BigDecimal.ZERO;
        for (int n = 0; n < 400; n++) {
            sum = sum.add(term.divide(java.math.BigDecimal.valueOf(2L * n + 1), context), context);
            term = term.multiply(square, context).divide(java.math.BigDecimal.valueOf(n + 1), context);
        }
        java.math.BigDecimal twoOverRootPi = new java.math.BigDecimal("1.12837916709551257389615890312154517168810125865799771368817");
        return twoOverRootPi.multiply(sum, context);
    }

    private static final List<Function> FUNCTIONS = List.of(
            new Function("sigmoid", Tensor::sigmoid, x -> 1 / (1 + Math.exp(-x))),
            new Function("tanh", Tensor::tanh, Math::tanh),
            new Function("softplus", Tensor::softplus, x -> Math.max(x, 0) + Math.log1p(Math.exp(-Math.abs(x)))),
            new Function("silu", Tensor::silu, x -> x / (1 + Math.exp(-x))),
            new Function("expm1", Tensor::expm1, Math::expm1),
            new Function("log1p", t -> t.abs().log1p(), x -> Math.log1p(Math.abs(x))),
            new Function("elu", t -> t.elu(1.5), x -> x > 0 ? x : 1.5 * Math.expm1(x)),
            new Function("gelu", Tensor::gelu, x -> 0.5 * x * (1 + erf(x / Math.sqrt(2)))),
            new Function("cos", Tensor::cos, Math::cos),
            new Function("erf", Tensor::erf, StableFunctionsTest::erf));

    @Test
    void valuesMatchDoublePrecisionReferences() {
        double[] xs = {-3, -1.7, -0.9, -0.3, -1e-3, 1e-3, 0.25, 0.7, 1.3, 2.9};
        for (Function function : FUNCTIONS) {
            double[] actual = function.f().apply(Tensor.of(xs)).toDoubleArray();
            for (int i = 0; i < xs.length; i++) {
                double expected = function.exact().applyAsDouble(xs[i]);
                assertThat(actual[i]).as("%s(%s)", function.name(), xs[i])
                        .isCloseTo(expected, org.assertj.core.data.Offset.offset(1e-14 * Math.max(1, Math.abs(expected))));
            }
        }
    }

    /**
     * float32 takes its own erfc (one formula instead of Cody's three intervals): values and
     * gradients of gelu and erf to float32 accuracy, the left tail of gelu to relative accuracy.
     */
    @Test
    void float32GeluAndErfMatchTheSeriesToSinglePrecision() {
        double[] xs = {-8, -5, -3, -1.7, -0.9, -0.3, -1e-3, 1e-3, 0.25, 0.7, 1.3, 2.9, 6};
        Tensor x = Tensor.of(xs, DType.FLOAT32, xs.length).requireGrad();
        Tensor gelu = x.gelu();
        double[] values = gelu.toDoubleArray();
        double[] erf = x.erf().toDoubleArray();
        double[] gradient = Autograd.grad(gelu.sum(), List.of(x)).get(0).toDoubleArray();
        for (int i = 0; i < xs.length; i++) {
            double v = (float) xs[i];
            double cdf = 0.5 * erfc(-v / Math.sqrt(2));
            double expected = v * cdf;
            assertThat(values[i]).as("float32 gelu(%s)", v).isCloseTo(expected,
                    org.assertj.core.data.Offset.offset(4e-6 * Math.abs(expected) + 1e-30));
            assertThat(erf[i]).as("float32 erf(%s)", v).isCloseTo(erf(v), org.assertj.core.data.Offset.offset(3e-7));
            double slope = cdf + v * Math.exp(-v * v / 2) / Math.sqrt(2 * Math.PI);
            assertThat(gradient[i]).as("float32 gelu'(%s)", v).isCloseTo(slope,
                    org.assertj.core.data.Offset.offset(1e-5 * Math.abs(slope) + 1e-7));
        }
    }

    @Test
    void relativeAccuracyNearZero() {
        double[] tiny = {1e-8, -1e-8, 1e-4, -3e-12, 1e-300};
        Tensor x = Tensor.of(tiny);
        double[] tanh = x.tanh().toDoubleArray();
        double[] expm1 = x.expm1().toDoubleArray();
        double[] log1p = x.log1p().toDoubleArray();
        for (int i = 0; i < tiny.length; i++) {
            assertThat(tanh[i] / Math.tanh(tiny[i]) - 1).as("tanh(%s)", tiny[i]).isBetween(-1e-15, 1e-15);
            assertThat(expm1[i] / Math.expm1(tiny[i]) - 1).as("expm1(%s)", tiny[i]).isBetween(-1e-15, 1e-15);
            assertThat(log1p[i] / Math.log1p(tiny[i]) - 1).as("log1p(%s)", tiny[i]).isBetween(-1e-15, 1e-15);
        }
        float[] single = Tensor.of(new float[] {1e-8f, 1e-4f}).tanh().toFloatArray();
        assertThat(single[0]).isEqualTo(1e-8f);
        assertThat(single[1] / (float) Math.tanh(1e-4f) - 1).isBetween(-1e-6f, 1e-6f);
    }

    @Test
    void extremeInputsGiveFiniteValuesAndGradients() {
        for (DType dtype : List.of(DType.FLOAT32, DType.FLOAT64)) {
            double[] extremes = {-1e4, -400, -100, -50, 0, 50, 100, 400, 1e4};
            for (Function function : FUNCTIONS) {
                if (function.name().equals("expm1") || function.name().equals("cos")) {
                    continue; // expm1 overflows at +400 as eˣ does; cos is bounded anyway
                }
                Tensor x = Tensor.of(extremes, dtype, extremes.length).requireGrad();
                Tensor y = function.f().apply(x);
                Tensor gradient = Autograd.grad(y.sum(), List.of(x)).get(0);
                for (double value : y.toDoubleArray()) {
                    assertThat(value).as("%s in %s", function.name(), dtype).isFinite();
                }
                for (double value : gradient.toDoubleArray()) {
                    assertThat(value).as("gradient of %s in %s", function.name(), dtype).isFinite();
                }
            }
        }
    }

    @Test
    void nanInGivesNanOut() {
        Tensor nan = Tensor.of(new double[] {Double.NaN, 1.0});
        for (Function function : FUNCTIONS) {
            assertThat(function.f().apply(nan).toDoubleArray()[0]).as(function.name()).isNaN();
        }
        assertThat(nan.relu().toDoubleArray()[0]).as("relu(NaN), as PyTorch").isNaN();
        assertThat(nan.leakyRelu(0.1).toDoubleArray()[0]).isNaN();
        assertThat(nan.clamp(-1, 1).toDoubleArray()[0]).isNaN();
        assertThat(nan.abs().toDoubleArray()[0]).isNaN();
        assertThat(nan.sign().toDoubleArray()[0]).isNaN();
        for (double value : Tensor.of(new double[] {1, Double.NaN, 3}, 1, 3).softmax(1).toDoubleArray()) {
            assertThat(value).as("softmax of a row with NaN").isNaN();
        }
        assertThat(Tensor.of(new double[] {1, Double.NaN, 3}).max().item()).isNaN();
        assertThat(Tensor.of(new double[] {1, Double.NaN, 3}).argmax().item()).as("NaN counts as the largest").isEqualTo(1);
    }

    @Test
    void gradientChecksAcrossTheRange() {
        for (Function function : FUNCTIONS) {
            for (double center : new double[] {-6, -1, 0.3, 2, 7}) {
                Tensor input = GradCheck.randomInput(function.name().hashCode() + (long) center, GradCheck.Domain.ANY, 3, 4)
                        .mul(0.5).add(center);
                if (function.name().equals("log1p")) {
                    input = input.abs().add(0.1);
                }
                GradCheck.Result result = GradCheck.check(in -> function.f().apply(in.get(0)), List.of(input.realize()));
                assertThat(result.passed(1e-7)).as("%s near %s: %s", function.name(), center, result).isTrue();
            }
        }
    }

    @Test
    void softmaxAndLogSumExpOfHugeLogits() {
        Tensor logits = Tensor.of(new double[] {1e4, 0, -1e4, 1000, 1000.5, Double.NEGATIVE_INFINITY}, 2, 3).requireGrad();
        double[] softmax = logits.softmax(1).toDoubleArray();
        double[] expected = {1, 0, 0, 0.3775406687981454, 0.6224593312018546, 0};
        for (int i = 0; i < expected.length; i++) {
            assertThat(softmax[i]).isCloseTo(expected[i], org.assertj.core.data.Offset.offset(1e-15));
        }
        double[] lse = logits.logSumExp(new int[] {1}, false).toDoubleArray();
        assertThat(lse[0]).isEqualTo(1e4);
        assertThat(lse[1]).isCloseTo(1000.9740769841801, org.assertj.core.data.Offset.offset(1e-10));
        Tensor gradient = Autograd.grad(logits.logSoftmax(1).sum(), List.of(logits)).get(0);
        for (double value : gradient.toDoubleArray()) {
            assertThat(value).isFinite();
        }
        Tensor allMinusInfinity = Tensor.full(Double.NEGATIVE_INFINITY, DType.FLOAT64, 1, 4);
        assertThat(allMinusInfinity.logSumExp(new int[] {1}, false).item()).isEqualTo(Double.NEGATIVE_INFINITY);
    }
}
