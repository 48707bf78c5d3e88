package dev.ein4j.autograd;

import dev.ein4j.error.EinopsException;
import dev.ein4j.ir.DType;
import dev.ein4j.tensor.Tensor;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.function.Function;

/**
 * Checks gradients against central finite differences in float64.
 *
 * <p>For a function f of some tensors, a fixed random upstream u makes the scalar
 * L(x) = Σ f(x)·u; the analytic gradient ∂L/∂x from {@link Autograd#grad} is compared with
 * (L(x + εeᵢ) − L(x − εeᵢ)) / 2ε for every element i of every input. The error of one element is
 * |analytic − numeric| / max(1, |analytic|, |numeric|) (relative for large values, absolute near 0);
 * the result reports the worst per input.
 *
 * <pre>{@code
 * GradCheck.Result r = GradCheck.check(in -> in.get(0).rearrange("a b -> b a").exp(),
 *         List.of(GradCheck.randomInput(1, Domain.ANY, 3, 4)));
 * assert r.passed(1e-6);
 * }</pre>
 */
public final class GradCheck {

    /** Default step: balances truncation (ε²) and rounding (1e-16/ε) errors in float64. */
    public static final double EPSILON = 1e-6;

    /** Where random inputs are drawn from, so that every function is smooth around them. */
    public enum Domain {
        /** Standard normal values. */
        ANY,
        /** Values in [0.5, 2): for log, sqrt, reciprocal, pow. */
        POSITIVE,
        /** Distinct values at least 0.05 apart, shuffled: for max, min and comparisons. */
        TIE_FREE
    }

    /**
     * The worst error found per input.
     *
     * @param worstErrors one number per input
     */
    public record Result(double[] worstErrors) {

        /** @return the worst error over all inputs */
        public double worst() {
            return Arrays.stream(worstErrors).max().orElse(0.0);
        }

        /**
         * @param tolerance the largest acceptable error
         * @return whether every input's worst error is within it
         */
        public boolean passed(double tolerance) {
            return worst() <= tolerance;
        }

        @Override
        public String toString() {
            return "worst errors per input " + Arrays.toString(worstErrors);
        }
    }

    private GradCheck() {
    }

    /**
     * A float64 input for a gradient check.
     *
     * @param seed the seed
     * @param domain where the values lie
     * @param shape the shape
     * @return the tensor
     */
    public static Tensor randomInput(long seed, Domain domain, int... shape) {
        java.util.Objects.requireNonNull(domain, "domain");
        java.util.Objects.requireNonNull(shape, "shape");
        SplittableRandom random = new SplittableRandom(seed);
        int size = Arrays.stream(shape).reduce(1, Math::multiplyExact);
        double[] values = new double[size];
        for (int i = 0; i < size; i++) {
            values[i] = switch (domain) {
                case ANY -> random.nextGaussian();
                case POSITIVE -> 0.5 + 1.5 * random.nextDouble();
                case TIE_FREE -> (i - size / 2.0) * 0.06 + random.nextDouble() * 0.01;
            };
        }
        if (domain == Domain.TIE_FREE) {
            for (int i = size - 1; i > 0; i--) {
                int j = random.nextInt(i + 1);
                double swap = values[i];
                values[i] = values[j];
                values[j] = swap;
            }
        }
        return Tensor.of(values, shape);
    }

    /**
     * @param function the function of the inputs (may return any shape)
     * @param inputs float64 inputs
     * @return the worst error per input
     */
    public static Result check(Function<List<Tensor>, Tensor> function, List<Tensor> inputs) {
        return check(function, inputs, EPSILON);
    }

    /**
     * @param function the function of the inputs
     * @param inputs float64 inputs
     * @param epsilon the finite-difference step
     * @return the worst error per input
     */
    public static Result check(Function<List<Tensor>, Tensor> function, List<Tensor> inputs, double epsilon) {
        java.util.Objects.requireNonNull(function, "function");
        java.util.Objects.requireNonNull(inputs, "inputs");
        for (int i = 0; i < inputs.size(); i++) {
            java.util.Objects.requireNonNull(inputs.get(i), "inputs[" + i + "]");
        }
        for (Tensor input : inputs) {
            if (input.dtype() != DType.FLOAT64) {
                throw new EinopsException("gradient checks run in float64; cast the inputs first");
            }
        }
        List<double[]> values = inputs.stream().map(Tensor::toDoubleArray).toList();
        List<Tensor> leaves = new ArrayList<>();
        for (int i = 0; i < inputs.size(); i++) {
            leaves.add(Tensor.of(values.get(i), inputs.get(i).shape()));
        }
        Tensor output = function.apply(leaves);
        Tensor upstream = randomInput(12345, Domain.ANY, output.shape()).cast(output.dtype());
        double[] upstreamValues = upstream.toDoubleArray();
        List<Tensor> analytic = Autograd.grad(output, leaves, upstream);
        double[] worst = new double[inputs.size()];
        for (int i = 0; i < inputs.size(); i++) {
            double[] exact = analytic.get(i).toDoubleArray();
            double[] point = values.get(i);
            for (int k = 0; k < point.length; k++) {
                double saved = point[k];
                point[k] = saved + epsilon;
                double plus = loss(function, values, inputs, upstreamValues);
                point[k] = saved - epsilon;
                double minus = loss(function, values, inputs, upstreamValues);
                point[k] = saved;
                double numeric = (plus - minus) / (2 * epsilon);
                double error = Math.abs(exact[k] - numeric) / Math.max(1.0, Math.max(Math.abs(exact[k]), Math.abs(numeric)));
                worst[i] = Math.max(worst[i], Double.isNaN(error) ? Double.POSITIVE_INFINITY : error);
            }
        }
        return new Result(worst);
    }

    private static double loss(Function<List<Tensor>, Tensor> function, List<double[]> values, List<Tensor> inputs,
                               double[] upstream) {
        List<Tensor> point = new ArrayList<>();
        for (int i = 0; i < inputs.size(); i++) {
            point.add(Tensor.of(values.get(i).clone(), inputs.get(i).shape()));
        }
        double[] output = function.apply(point).toDoubleArray();
        double sum = 0;
        for (int k = 0; k < output.length; k++) {
            sum += output[k] * upstream[k];
        }
        return sum;
    }
}
