package dev.ein4j.autograd;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ein4j.ir.Node;
import dev.ein4j.ir.Op;
import dev.ein4j.tensor.Tensor;
import dev.ein4j.tensor.internal.TensorInternals;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.Collections;
import java.util.Deque;
import java.util.EnumSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.function.Function;

/** Shared helpers of the autograd tests: gradient-check assertions, op inventories, seeded shapes. */
final class GradTesting {

    /** float64 central differences with ε = 1e-6 are good to about 1e-9 on these small, smooth functions. */
    static final double TOLERANCE = 1e-6;

    private GradTesting() {
    }

    /**
     * Runs {@link GradCheck} and asserts that every input's worst error is within {@link #TOLERANCE}.
     *
     * @return the result, for further assertions
     */
    static GradCheck.Result assertGradients(String what, Function<List<Tensor>, Tensor> function, Tensor... inputs) {
        return assertGradients(what, TOLERANCE, function, inputs);
    }

    static GradCheck.Result assertGradients(String what, double tolerance, Function<List<Tensor>, Tensor> function,
                                            Tensor... inputs) {
        GradCheck.Result result = GradCheck.check(function, List.of(inputs));
        assertThat(result.worstErrors()).as("one error per input for %s", what).hasSize(inputs.length);
        assertThat(result.worst()).as("gradient check of %s: %s", what, result).isLessThanOrEqualTo(tolerance);
        return result;
    }

    /**
     * Like {@link #assertGradients}, and also asserts that the function's graph contains every given
     * primitive (so the check really exercises the rule it is named after).
     */
    static GradCheck.Result assertGradientsThrough(Set<Op> ops, String what, Function<List<Tensor>, Tensor> function,
                                                   Tensor... inputs) {
        Set<Op> present = opsIn(function.apply(List.of(inputs)));
        assertThat(present).as("primitives in the graph of %s", what).containsAll(ops);
        return assertGradients(what, function, inputs);
    }

    static GradCheck.Result assertGradientsThrough(Op op, String what, Function<List<Tensor>, Tensor> function,
                                                   Tensor... inputs) {
        return assertGradientsThrough(EnumSet.of(op), what, function, inputs);
    }

    /** Every primitive in the graph below the tensor (explicit stack). */
    static Set<Op> opsIn(Tensor tensor) {
        Set<Op> ops = EnumSet.noneOf(Op.class);
        Set<Node> seen = Collections.newSetFromMap(new IdentityHashMap<>());
        Deque<Node> stack = new ArrayDeque<>();
        stack.push(TensorInternals.node(tensor));
        seen.add(TensorInternals.node(tensor));
        while (!stack.isEmpty()) {
            Node node = stack.pop();
            ops.add(node.op());
            for (int i = 0; i < node.sourceCount(); i++) {
                if (seen.add(node.source(i))) {
                    stack.push(node.source(i));
                }
            }
        }
        return ops;
    }

    /** A shape of the given rank with lengths in [1, maxLength]. */
    static int[] randomShape(SplittableRandom random, int rank, int maxLength) {
        int[] shape = new int[rank];
        for (int k = 0; k < rank; k++) {
            shape[k] = 1 + random.nextInt(maxLength);
        }
        return shape;
    }

    /** The shape with each length independently replaced by 1 with probability 1/2 (numpy-broadcastable to it). */
    static int[] broadcastable(SplittableRandom random, int[] shape) {
        int[] result = shape.clone();
        for (int k = 0; k < result.length; k++) {
            if (random.nextBoolean()) {
                result[k] = 1;
            }
        }
        return result;
    }

    static Tensor input(long seed, int... shape) {
        return GradCheck.randomInput(seed, GradCheck.Domain.ANY, shape);
    }

    static Tensor positive(long seed, int... shape) {
        return GradCheck.randomInput(seed, GradCheck.Domain.POSITIVE, shape);
    }

    static Tensor tieFree(long seed, int... shape) {
        return GradCheck.randomInput(seed, GradCheck.Domain.TIE_FREE, shape);
    }

    static void assertValues(String what, Tensor actual, double[] expected, double tolerance) {
        double[] values = actual.toDoubleArray();
        assertThat(values).as("%s: number of elements", what).hasSize(expected.length);
        for (int i = 0; i < expected.length; i++) {
            double scale = Math.max(1.0, Math.abs(expected[i]));
            assertThat(Math.abs(values[i] - expected[i]))
                    .as("%s: element %d is %s, expected %s (all: %s)", what, i, values[i], expected[i], Arrays.toString(values))
                    .isLessThanOrEqualTo(tolerance * scale);
        }
    }

    static void assertShape(String what, Tensor tensor, int... shape) {
        assertThat(tensor.shape()).as("shape of %s", what).containsExactly(shape);
    }

    /** The only gradient of a one-input function. */
    static Tensor gradient(Tensor output, Tensor input) {
        return Autograd.grad(output, List.of(input)).get(0);
    }
}
