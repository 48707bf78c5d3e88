package dev.ein4j.autograd;

import static dev.ein4j.autograd.GradTesting.assertGradients;
import static dev.ein4j.autograd.GradTesting.assertGradientsThrough;
import static dev.ein4j.autograd.GradTesting.assertShape;
import static dev.ein4j.autograd.GradTesting.assertValues;
import static dev.ein4j.autograd.GradTesting.broadcastable;
import static dev.ein4j.autograd.GradTesting.input;
import static dev.ein4j.autograd.GradTesting.opsIn;
import static dev.ein4j.autograd.GradTesting.positive;
import static dev.ein4j.autograd.GradTesting.randomShape;
import static dev.ein4j.autograd.GradTesting.tieFree;
import static dev.ein4j.tensor.internal.TensorInternals.broadcastTo;
import static dev.ein4j.tensor.internal.TensorInternals.contract;
import static org.assertj.core.api.Assertions.assertThat;

import dev.ein4j.ir.DType;
import dev.ein4j.ir.Op;
import dev.ein4j.tensor.Tensor;
import dev.ein4j.tensor.internal.TensorInternals;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * Central-difference gradient checks (float64, tolerance 1e-6) of every differentiable primitive,
 * reached through the Tensor API or the low-level primitives of {@code TensorInternals}.
 * Shapes come from a seeded generator; each check also asserts that the primitive it is named after is
 * in the graph.
 */
class PrimitiveGradCheckTest {

    private static final int TRIALS = 3;

    // ------------------------------------------------------------------ movement

    @Test
    void reshape() {
        SplittableRandom random = new SplittableRandom(101);
        for (int t = 0; t < TRIALS; t++) {
            int[] shape = randomShape(random, 3, 4);
            int total = Arrays.stream(shape).reduce(1, (a, b) -> a * b);
            assertGradientsThrough(Op.RESHAPE, "reshape " + Arrays.toString(shape) + " -> [" + shape[1] + ", -1]",
                    in -> in.get(0).reshape(shape[1], -1).sin(), input(t, shape));
            assertGradientsThrough(Op.RESHAPE, "reshape to flat then rank 4",
                    in -> in.get(0).reshape(total).reshape(1, shape[0], shape[1] * shape[2], 1).exp(), input(t + 10, shape));
        }
    }

    @Test
    void permute() {
        SplittableRandom random = new SplittableRandom(102);
        // [1, 2, 0] and [2, 0, 1] are not their own inverses: a rule that re-applies the order fails here
        int[][] orders = {{1, 2, 0}, {2, 0, 1}, {0, 2, 1}};
        for (int[] order : orders) {
            int[] shape = {2 + random.nextInt(2), 3 + random.nextInt(2), 4};
            assertGradientsThrough(Op.PERMUTE, "permute " + Arrays.toString(order) + " of " + Arrays.toString(shape),
                    in -> in.get(0).permute(order).mul(in.get(0).permute(order).sin()), input(order[0], shape));
        }
        assertGradientsThrough(Op.PERMUTE, "permute of rank 4 [3, 0, 1, 2]",
                in -> in.get(0).permute(3, 0, 1, 2).exp(), input(7, 2, 3, 1, 4));
        assertGradientsThrough(Op.PERMUTE, "transpose",
                in -> in.get(0).transpose(0, 1).sin(), input(8, 3, 5));
    }

    @Test
    void expandThroughBroadcastingAdd() {
        assertGradientsThrough(Op.EXPAND, "[3,1] + [1,4]",
                in -> in.get(0).add(in.get(1)).sin(), input(1, 3, 1), input(2, 1, 4));
        SplittableRandom random = new SplittableRandom(103);
        for (int t = 0; t < TRIALS; t++) {
            int[] full = randomShape(random, 3, 3);
            full[1] = 2 + random.nextInt(2); // at least one axis that really broadcasts
            int[] a = broadcastable(random, full);
            a[1] = 1;
            int[] b = broadcastable(random, full);
            b[1] = full[1];
            int[] bTrailing = Arrays.copyOfRange(b, 1, 3); // lower rank: leading axes added
            assertGradientsThrough(Op.EXPAND, Arrays.toString(a) + " + " + Arrays.toString(bTrailing),
                    in -> in.get(0).add(in.get(1)).mul(in.get(0)).sin(), input(10 + t, a), input(20 + t, bTrailing));
        }
    }

    @Test
    void expandDirectly() {
        assertGradientsThrough(Op.EXPAND, "expand [3,1] to [2,3,4]",
                in -> in.get(0).expand(2, 3, 4).sin(), input(3, 3, 1));
        assertGradientsThrough(Op.EXPAND, "expand [1,4] to [3,4], used twice",
                in -> {
                    Tensor e = in.get(0).expand(3, 4);
                    return e.mul(e.exp());
                }, input(4, 1, 4));
        assertGradientsThrough(Op.EXPAND, "broadcastTo [1,2,1] -> [3,2,4]",
                in -> broadcastTo(in.get(0), 3, 2, 4).mul(in.get(1)), input(5, 1, 2, 1), input(6, 3, 2, 4));
    }

    @Test
    void padWithNonzeroFill() {
        SplittableRandom random = new SplittableRandom(104);
        for (int t = 0; t < TRIALS; t++) {
            int[] shape = randomShape(random, 2, 4);
            int[] before = {random.nextInt(3), random.nextInt(3)};
            int[] after = {random.nextInt(3), 1 + random.nextInt(2)};
            double fill = 2.5 + t;
            assertGradientsThrough(Op.PAD, "pad " + Arrays.toString(shape) + " before " + Arrays.toString(before)
                            + " after " + Arrays.toString(after) + " fill " + fill,
                    in -> in.get(0).pad(before, after, fill).sin(), input(t, shape));
        }
        assertGradientsThrough(Op.PAD, "pad rank 3, only the middle axis",
                in -> in.get(0).pad(new int[] {0, 2, 0}, new int[] {0, 1, 0}, -1.0).exp(), input(9, 2, 3, 2));
    }

    @Test
    void shrink() {
        SplittableRandom random = new SplittableRandom(105);
        for (int t = 0; t < TRIALS; t++) {
            int[] shape = {3 + random.nextInt(3), 3 + random.nextInt(3), 2};
            int[] starts = {random.nextInt(2), 1 + random.nextInt(2), 0};
            int[] ends = {shape[0] - random.nextInt(2), shape[1], 1 + random.nextInt(2)};
            assertGradientsThrough(Op.SHRINK, "shrink " + Arrays.toString(shape) + " to [" + Arrays.toString(starts)
                            + ", " + Arrays.toString(ends) + ")",
                    in -> in.get(0).shrink(starts, ends).sin(), input(t, shape));
        }
        assertGradientsThrough(Op.SHRINK, "slice with negative bounds",
                in -> in.get(0).slice(1, -3, -1).exp(), input(8, 2, 5));
    }

    @Test
    void flip() {
        int[][] axes = {{0}, {1}, {0, 2}, {-1}};
        for (int[] flipped : axes) {
            assertGradientsThrough(Op.FLIP, "flip " + Arrays.toString(flipped),
                    in -> in.get(0).flip(flipped).mul(in.get(0)), input(flipped.length, 2, 3, 4));
        }
    }

    @Test
    void contiguous() {
        assertGradientsThrough(EnumSet.of(Op.CONTIGUOUS, Op.PERMUTE), "contiguous copy of a permuted view",
                in -> in.get(0).permute(2, 0, 1).contiguous().sin(), input(1, 2, 3, 4));
        assertGradientsThrough(Op.CONTIGUOUS, "contiguous of a broadcast view",
                in -> in.get(0).expand(3, 4).contiguous().mul(in.get(1)), input(2, 1, 4), input(3, 3, 4));
    }

    // ------------------------------------------------------------------ unary

    @Test
    void exp() {
        assertGradientsThrough(Op.EXP, "exp", in -> in.get(0).exp(), input(1, 3, 4));
    }

    @Test
    void log() {
        assertGradientsThrough(Op.LOG, "log on (0.5, 2)", in -> in.get(0).log(), positive(2, 3, 4));
    }

    @Test
    void sqrt() {
        assertGradientsThrough(Op.SQRT, "sqrt on (0.5, 2)", in -> in.get(0).sqrt(), positive(3, 3, 4));
    }

    @Test
    void reciprocal() {
        assertGradientsThrough(Op.RECIPROCAL, "reciprocal on (0.5, 2)", in -> in.get(0).reciprocal(), positive(4, 3, 4));
        assertGradientsThrough(Op.RECIPROCAL, "division x / y", in -> in.get(0).div(in.get(1)),
                input(5, 3, 4), positive(6, 1, 4));
    }

    @Test
    void sin() {
        assertGradientsThrough(Op.SIN, "sin", in -> in.get(0).sin(), input(7, 3, 4));
        assertGradientsThrough(Op.SIN, "cos as sin(x + pi/2)", in -> in.get(0).cos(), input(8, 3, 4));
    }

    @Test
    void unaryCompositions() {
        assertGradients("sigmoid", in -> in.get(0).sigmoid(), input(9, 3, 4));
        assertGradients("tanh", in -> in.get(0).tanh(), input(10, 3, 4));
        assertGradients("pow 3 and pow -2 and pow 1.5",
                in -> in.get(0).pow(3).add(in.get(0).pow(-2)).add(in.get(0).pow(1.5)), positive(11, 3, 4));
        assertGradients("abs away from 0", in -> in.get(0).abs(), input(12, 3, 4));
    }

    @Test
    void castThroughFloat32WithLooseTolerance() {
        // float32 rounds the perturbed inputs: the finite differences are good to ~1e-5 with ε = 1e-3
        Tensor x = input(13, 3, 4);
        GradCheck.Result result = GradCheck.check(in -> in.get(0).cast(DType.FLOAT32).cast(DType.FLOAT64),
                List.of(x), 1e-3);
        assertThat(result.worst()).as("float64 -> float32 -> float64: %s", result).isLessThanOrEqualTo(1e-3);
        assertThat(opsIn(x.cast(DType.FLOAT32).cast(DType.FLOAT64))).contains(Op.CAST);
    }

    @Test
    void castRuleIsExactlyOnes() {
        Tensor x = input(14, 3, 4);
        Tensor gradient = GradTesting.gradient(x.cast(DType.FLOAT32).cast(DType.FLOAT64).sum(), x);
        assertThat(gradient.dtype()).isEqualTo(DType.FLOAT64);
        assertShape("gradient", gradient, 3, 4);
        double[] ones = new double[12];
        Arrays.fill(ones, 1.0);
        assertThat(gradient.toDoubleArray()).containsExactly(ones);

        // the other direction: a float32 input's gradient is float32
        Tensor x32 = x.cast(DType.FLOAT32).realize();
        Tensor gradient32 = GradTesting.gradient(x32.cast(DType.FLOAT64).mul(3.0).sum(), x32);
        assertThat(gradient32.dtype()).isEqualTo(DType.FLOAT32);
        double[] threes = new double[12];
        Arrays.fill(threes, 3.0);
        assertThat(gradient32.toDoubleArray()).containsExactly(threes);
    }

    // ------------------------------------------------------------------ binary and ternary

    @Test
    void addWithBroadcasting() {
        SplittableRandom random = new SplittableRandom(106);
        for (int t = 0; t < TRIALS; t++) {
            int[] full = randomShape(random, 3, 4);
            int[] a = broadcastable(random, full);
            int[] b = broadcastable(random, full);
            assertGradientsThrough(Op.ADD, Arrays.toString(a) + " + " + Arrays.toString(b),
                    in -> in.get(0).add(in.get(1)), input(t, a), input(t + 50, b));
        }
        assertGradientsThrough(Op.ADD, "x - y, scalar y", in -> in.get(0).sub(in.get(1)), input(1, 2, 3), input(2));
        assertGradientsThrough(Op.ADD, "x + x", in -> in.get(0).add(in.get(0)), input(3, 2, 3));
    }

    @Test
    void mulWithBroadcasting() {
        SplittableRandom random = new SplittableRandom(107);
        for (int t = 0; t < TRIALS; t++) {
            int[] full = randomShape(random, 3, 4);
            int[] a = broadcastable(random, full);
            int[] b = broadcastable(random, full);
            assertGradientsThrough(Op.MUL, Arrays.toString(a) + " * " + Arrays.toString(b),
                    in -> in.get(0).mul(in.get(1)), input(t, a), input(t + 50, b));
        }
        assertGradientsThrough(Op.MUL, "x * x", in -> in.get(0).mul(in.get(0)), input(4, 2, 3));
        assertGradientsThrough(Op.MUL, "x * y * x with y [3]", in -> in.get(0).mul(in.get(1)).mul(in.get(0)),
                input(5, 2, 3), input(6, 3));
    }

    @Test
    void elementwiseMaxTieFree() {
        SplittableRandom random = new SplittableRandom(108);
        for (int t = 0; t < TRIALS; t++) {
            int[] full = randomShape(random, 2, 5);
            int[] b = broadcastable(random, full);
            int seed = t;
            // the second operand sits between the first one's grid points: no ties, no near-ties
            assertGradientsThrough(Op.MAX, "maximum " + Arrays.toString(full) + ", " + Arrays.toString(b),
                    in -> in.get(0).maximum(in.get(1)).mul(in.get(0).add(in.get(1))),
                    tieFree(seed, full), tieFree(seed + 50, b).add(0.02).realize());
        }
        assertGradientsThrough(Op.MAX, "minimum", in -> in.get(0).minimum(in.get(1)),
                tieFree(3, 3, 4), tieFree(4, 3, 4).add(0.02).realize());
    }

    @Test
    void whereWithFixedAndComputedConditions() {
        Tensor mask = Tensor.of(new double[] {1, 0, 0, 1, 1, 0, 1, 0, 0, 0, 1, 1}, 3, 4);
        assertGradientsThrough(Op.WHERE, "where(mask, a, b)",
                in -> Tensor.where(mask, in.get(0), in.get(1)), input(1, 3, 4), input(2, 3, 4));
        assertGradientsThrough(Op.WHERE, "where(mask, a[1,4], b[3,1]) broadcasting",
                in -> Tensor.where(mask, in.get(0), in.get(1)).mul(in.get(0)), input(3, 1, 4), input(4, 3, 1));
        assertGradientsThrough(Op.WHERE, "where(x > 0, sin x, exp x): condition from the input",
                in -> Tensor.where(in.get(0).gt(0.0), in.get(0).sin(), in.get(0).exp()), input(5, 3, 4));
        assertGradientsThrough(Op.WHERE, "where(c, a, scalar): condition also an input",
                in -> Tensor.where(in.get(0), in.get(1), Tensor.scalar(2.0, DType.FLOAT64)), input(6, 3, 4), input(7, 3, 4));
        assertGradientsThrough(Op.WHERE, "relu", in -> in.get(0).relu(), input(8, 3, 4));
    }

    // ------------------------------------------------------------------ reductions

    @Test
    void sum() {
        int[][] axesList = {{0}, {1}, {2}, {0, 2}, {0, 1, 2}};
        for (int[] axes : axesList) {
            assertGradientsThrough(Op.SUM, "reducePrimitive SUM " + Arrays.toString(axes),
                    in -> TensorInternals.reduce(in.get(0), Op.SUM, axes).sin(), input(axes.length, 2, 3, 4));
            assertGradientsThrough(Op.SUM, "sum " + Arrays.toString(axes) + " (dims removed)",
                    in -> in.get(0).sum(axes).exp(), input(axes.length + 10, 2, 3, 4));
        }
        assertGradientsThrough(Op.SUM, "mean", in -> in.get(0).mean(1), input(20, 2, 3, 4));
    }

    @Test
    void reduceMaxTieFree() {
        int[][] axesList = {{0}, {1}, {2}, {0, 2}, {0, 1, 2}};
        for (int[] axes : axesList) {
            assertGradientsThrough(Op.REDUCE_MAX, "reducePrimitive REDUCE_MAX " + Arrays.toString(axes),
                    in -> TensorInternals.reduce(in.get(0), Op.REDUCE_MAX, axes).sin(), tieFree(axes.length, 2, 3, 4));
        }
        assertGradientsThrough(Op.REDUCE_MAX, "max(1) and min(0)",
                in -> in.get(0).max(1).sum().add(in.get(0).min(0).mul(2.0).sum()), tieFree(30, 3, 5));
    }

    @Test
    void prodRandomValues() {
        int[][] axesList = {{0}, {1}, {2}, {0, 2}, {0, 1, 2}};
        for (int[] axes : axesList) {
            assertGradientsThrough(Op.PROD, "reducePrimitive PROD " + Arrays.toString(axes),
                    in -> TensorInternals.reduce(in.get(0), Op.PROD, axes), input(axes.length, 2, 3, 4));
        }
        assertGradientsThrough(Op.PROD, "prod(1) then sin", in -> in.get(0).prod(1).sin(), input(40, 3, 4));
    }

    /** Rows of [4, 5] with no zero, exactly one zero, two zeros, and one zero and a negative. */
    private static final double[] ROWS_WITH_ZEROS = {
        1.5, -0.5, 2.0, 0.75, 1.25,
        1.5, 0.0, 2.0, -0.75, 1.25,
        0.0, -0.5, 2.0, 0.0, 1.25,
        -1.5, 0.5, 0.0, 0.75, -2.0,
    };

    @Test
    void prodWithZerosMatchesProductOfOthers() {
        Tensor x = Tensor.of(ROWS_WITH_ZEROS.clone(), 4, 5);
        Tensor gradient = Autograd.grad(x.prod(1).sum(), List.of(x)).get(0);
        assertValues("d(sum of row products)/dx with zeros", gradient, productOfOthers(ROWS_WITH_ZEROS, 4, 5), 1e-12);

        // weighted upstream and the reduced axis first
        Tensor xt = Tensor.of(transpose(ROWS_WITH_ZEROS, 4, 5), 5, 4);
        Tensor weights = Tensor.of(new double[] {1, -2, 3, 0.5}, 4);
        Tensor gradientT = Autograd.grad(xt.prod(0).mul(weights).sum(), List.of(xt)).get(0);
        double[] expected = transpose(productOfOthers(ROWS_WITH_ZEROS, 4, 5), 4, 5);
        double[] w = {1, -2, 3, 0.5};
        for (int i = 0; i < 5; i++) {
            for (int j = 0; j < 4; j++) {
                expected[i * 4 + j] *= w[j];
            }
        }
        assertValues("weighted, reduced over axis 0", gradientT, expected, 1e-12);
    }

    @Test
    void prodWithZerosPassesFiniteDifferences() {
        // the product is linear in each element, so central differences are exact at zeros too
        assertGradientsThrough(Op.PROD, "prod over rows with 0, 1 and 2 zeros",
                in -> TensorInternals.reduce(in.get(0), Op.PROD, new int[] {1}), Tensor.of(ROWS_WITH_ZEROS.clone(), 4, 5));
        assertGradientsThrough(Op.PROD, "prod over all elements with two zeros",
                in -> in.get(0).prod(), Tensor.of(new double[] {0.0, 1.5, -2.0, 0.0, 0.5, 3.0}, 2, 3));
        assertGradientsThrough(Op.PROD, "prod over non-adjacent axes {0, 2} with zeros",
                in -> TensorInternals.reduce(in.get(0), Op.PROD, new int[] {0, 2}),
                Tensor.of(new double[] {1.5, 0.0, -1.0, 2.0, 0.5, 0.0, 1.0, 1.1, -0.9, 1.2, 0.8, 0.7}, 2, 3, 2));
    }

    @Test
    void prodOverNonAdjacentAxesMatchesProductOfOthers() {
        double[] values = {1.5, 0.0, -1.0, 2.0, 0.5, 0.0, 1.0, 1.1, -0.9, 1.2, 0.8, 0.7};
        Tensor x = Tensor.of(values.clone(), 2, 3, 2);
        Tensor gradient = Autograd.grad(x.prod(0, 2).sum(), List.of(x)).get(0);
        // group j holds x[i, j, k] for i, k in {0, 1}
        double[] expected = new double[12];
        for (int j = 0; j < 3; j++) {
            for (int i = 0; i < 2; i++) {
                for (int k = 0; k < 2; k++) {
                    double product = 1;
                    for (int i2 = 0; i2 < 2; i2++) {
                        for (int k2 = 0; k2 < 2; k2++) {
                            if (i2 != i || k2 != k) {
                                product *= values[i2 * 6 + j * 2 + k2];
                            }
                        }
                    }
                    expected[i * 6 + j * 2 + k] = product;
                }
            }
        }
        assertValues("product of others over axes {0, 2}", gradient, expected, 1e-12);
    }

    // ------------------------------------------------------------------ contraction

    @Test
    void contractDirectly() {
        int[][] axesList = {{0}, {1}, {2}, {0, 2}, {0, 1, 2}};
        for (int[] axes : axesList) {
            assertGradientsThrough(Op.CONTRACT, "contract " + Arrays.toString(axes),
                    in -> contract(in.get(0), in.get(1), axes), input(axes.length, 2, 3, 4), input(axes.length + 9, 2, 3, 4));
        }
        assertGradientsThrough(Op.CONTRACT, "x contracted with itself",
                in -> contract(in.get(0), in.get(0), 1), input(20, 3, 4));
    }

    @Test
    void contractOfSingleUseExpands() {
        // matmul as CONTRACT of two broadcast views: the rule folds the sum over the expanded axis
        assertGradientsThrough(EnumSet.of(Op.CONTRACT, Op.EXPAND), "[3,4,1] x [1,4,5] contracted over axis 1",
                in -> contract(broadcastTo(in.get(0), 3, 4, 5), broadcastTo(in.get(1), 3, 4, 5), 1), input(1, 3, 4, 1), input(2, 1, 4, 5));
        // contracted axis is the expanded one
        assertGradientsThrough(EnumSet.of(Op.CONTRACT, Op.EXPAND), "[3,1] expanded along the contracted axis",
                in -> contract(broadcastTo(in.get(0), 3, 5), in.get(1), 1), input(3, 3, 1), input(4, 3, 5));
        // one expand with two consumers: not folded
        assertGradientsThrough(EnumSet.of(Op.CONTRACT, Op.EXPAND), "expand used twice",
                in -> {
                    Tensor e = broadcastTo(in.get(0), 3, 4, 5);
                    return contract(e, in.get(1), 1).sin().add(e.sum(2).sum());
                }, input(5, 3, 4, 1), input(6, 3, 4, 5));
        // the same expand on both sides
        assertGradientsThrough(EnumSet.of(Op.CONTRACT, Op.EXPAND), "expand contracted with itself",
                in -> {
                    Tensor e = broadcastTo(in.get(0), 2, 3, 4);
                    return contract(e, e, 0, 2);
                }, input(7, 1, 3, 4));
        // an expand of an expand
        assertGradientsThrough(EnumSet.of(Op.CONTRACT, Op.EXPAND), "expand of expand",
                in -> contract(broadcastTo(broadcastTo(in.get(0), 3, 4).reshape(3, 4, 1), 3, 4, 2), in.get(1), 1), input(8, 3, 1), input(9, 3, 4, 2));
    }

    @Test
    void contractViaEinsum() {
        SplittableRandom random = new SplittableRandom(109);
        for (int t = 0; t < TRIALS; t++) {
            int i = 1 + random.nextInt(4);
            int j = 2 + random.nextInt(3);
            int k = 1 + random.nextInt(4);
            assertGradientsThrough(Op.CONTRACT, "einsum i j, j k -> i k with " + i + "x" + j + "x" + k,
                    in -> dev.ein4j.tensor.Ein.einsum("i j, j k -> i k", in.get(0), in.get(1)),
                    input(t, i, j), input(t + 50, j, k));
        }
        assertGradientsThrough(Op.CONTRACT, "matmul with batch broadcasting [1,2,3] x [4,3,2]",
                in -> dev.ein4j.tensor.Ein.matmul(in.get(0), in.get(1)), input(60, 1, 2, 3), input(61, 4, 3, 2));
    }

    // ------------------------------------------------------------------ helpers

    private static double[] productOfOthers(double[] values, int rows, int columns) {
        double[] result = new double[values.length];
        for (int r = 0; r < rows; r++) {
            for (int c = 0; c < columns; c++) {
                double product = 1;
                for (int other = 0; other < columns; other++) {
                    if (other != c) {
                        product *= values[r * columns + other];
                    }
                }
                result[r * columns + c] = product;
            }
        }
        return result;
    }

    private static double[] transpose(double[] values, int rows, int columns) {
        double[] result = new double[values.length];
        for (int r = 0; r < rows; r++) {
            for (int c = 0; c < columns; c++) {
                result[c * rows + r] = values[r * columns + c];
            }
        }
        return result;
    }
}
