package dev.ein4j.autograd;

import static dev.ein4j.autograd.GradTesting.assertGradients;
import static dev.ein4j.autograd.GradTesting.assertGradientsThrough;
import static dev.ein4j.autograd.GradTesting.assertValues;
import static dev.ein4j.autograd.GradTesting.input;
import static dev.ein4j.autograd.GradTesting.opsIn;
import static dev.ein4j.autograd.GradTesting.tieFree;
import static org.assertj.core.api.Assertions.assertThat;

import dev.ein4j.ir.Op;
import dev.ein4j.tensor.Tensor;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Gradients of the indexing functions: central differences in float64 (tolerance 1e-6) for gather,
 * index_select, scatter, scatter_add, masked_fill, cumsum and topk's values, and, where the rule has a
 * convention finite differences cannot show by themselves (repeated reads add, overwritten elements
 * get nothing), the gradient's values written out. A gradient of a gradient goes through both
 * rules (a gather's gradient is a scatter, a scatter's a gather).
 */
class IndexingGradCheckTest {

    private static Tensor indices(int[] values, int... shape) {
        return Tensor.of(values, shape);
    }

    private static Tensor ones(int... shape) {
        return Tensor.ones(dev.ein4j.ir.DType.FLOAT64, shape);
    }

    // ------------------------------------------------------------------ gather, index_select

    @Test
    void gatherAlongEveryDimension() {
        Tensor index0 = indices(new int[] {2, 0, 1, 1, 0, 2, 2, 2}, 2, 4); // rows of a [3, 4]
        assertGradientsThrough(Op.GATHER, "gather dim 0", in -> in.get(0).gather(0, index0).sin(), input(1, 3, 4));
        Tensor index1 = indices(new int[] {3, 0, 1, 2, 2, 2, 0, 1, 3}, 3, 3);
        assertGradientsThrough(Op.GATHER, "gather dim 1", in -> in.get(0).gather(1, index1).exp(), input(2, 3, 4));
        assertGradientsThrough(Op.GATHER, "gather dim -1", in -> in.get(0).gather(-1, index1).square(), input(3, 3, 4));
        Tensor index3d = indices(new int[] {1, 0, 0, 1, 1, 1, 0, 0, 1, 0, 1, 0}, 2, 2, 3);
        assertGradientsThrough(Op.GATHER, "gather dim -2 of rank 3", in -> in.get(0).gather(-2, index3d).tanh(),
                input(4, 2, 2, 3));
    }

    @Test
    void gatherWithAnIndexShorterOnTheOtherDimensionsAndLongerAlongItsOwn() {
        // [2, 3] of a [4, 5] along 1: rows 2 and 3 and columns 3 and 4 are never read
        Tensor shorter = indices(new int[] {4, 0, 2, 1, 1, 3}, 2, 3);
        assertGradientsThrough(Op.GATHER, "a shorter index", in -> in.get(0).gather(1, shorter).sin(), input(5, 4, 5));
        Tensor longer = indices(new int[] {0, 1, 0, 1, 0, 1, 1, 1, 0, 0, 1, 0}, 2, 6);
        assertGradientsThrough(Op.GATHER, "an index longer along dim", in -> in.get(0).gather(1, longer).sin(), input(6, 2, 2));
    }

    @Test
    void aRepeatedIndexAddsEveryReadBack() {
        Tensor index = indices(new int[] {1, 1, 1, 0, 2, 0, 0, 0}, 2, 4);
        assertGradientsThrough(Op.GATHER, "repeated indices", in -> in.get(0).gather(1, index).mul(in.get(0).gather(1, index)),
                input(7, 2, 3));
        Tensor x = input(8, 2, 3);
        Tensor gradient = GradTesting.gradient(x.gather(1, index).sum(), x);
        // row 0 reads column 1 three times and column 0 once; row 1 reads column 2 once and column 0 three times
        assertValues("counts of reads", gradient, new double[] {1, 3, 0, 3, 0, 1}, 0);
    }

    @Test
    void indexSelectAlongEachDimensionWithRepeats() {
        Tensor rows = indices(new int[] {2, 0, 2, 2}, 4);
        assertGradientsThrough(Op.GATHER, "index_select dim 0", in -> in.get(0).indexSelect(0, rows).sin(), input(9, 3, 2));
        Tensor columns = indices(new int[] {1, 3, 1}, 3);
        assertGradientsThrough(Op.GATHER, "index_select dim -1", in -> in.get(0).indexSelect(-1, columns).exp(),
                input(10, 2, 2, 4));
        Tensor x = input(11, 3, 2);
        assertValues("row 2 read three times, row 1 never", GradTesting.gradient(x.indexSelect(0, rows).sum(), x),
                new double[] {1, 1, 0, 0, 3, 3}, 0);
        assertValues("an empty index reads nothing", GradTesting.gradient(x.indexSelect(0, Tensor.zeros(dev.ein4j.ir.DType.INT32, 0))
                .sum(), x), new double[6], 0);
    }

    // ------------------------------------------------------------------ scatter, scatter_add

    @Test
    void scatterWritesOverTheBaseWhichGetsNoGradientThere() {
        // distinct positions per column (PyTorch leaves the winner of a repeated position unspecified)
        Tensor index = indices(new int[] {2, 0, 1, 0, 1, 2}, 2, 3);
        assertGradientsThrough(Op.SCATTER, "scatter dim 0", in -> in.get(0).scatter(0, index, in.get(1)).sin(),
                input(12, 3, 3), input(13, 2, 3));
        Tensor columns = indices(new int[] {3, 0, 1, 2}, 2, 2);
        assertGradientsThrough(Op.SCATTER, "scatter dim -1 from a larger src",
                in -> in.get(0).scatter(-1, columns, in.get(1)).exp(), input(14, 2, 4), input(15, 3, 3));
        Tensor x = input(16, 3, 3);
        Tensor src = input(17, 2, 3);
        Tensor weights = input(18, 3, 3);
        List<Tensor> gradients = Autograd.grad(x.scatter(0, index, src).mul(weights).sum(), List.of(x, src));
        double[] w = weights.toDoubleArray();
        // written: (2,0), (0,1), (1,2) from src row 0 and (0,0), (1,1), (2,2) from src row 1
        assertValues("the base: zero where written", gradients.get(0), new double[] {0, 0, w[2], w[3], 0, 0, 0, w[7], 0}, 0);
        assertValues("src: the weight where it landed", gradients.get(1), new double[] {w[6], w[1], w[5], w[0], w[4], w[8]}, 0);
        Tensor larger = input(19, 3, 4);
        assertValues("src elements outside the index get nothing",
                Autograd.grad(x.scatter(0, index, larger).sum(), List.of(larger)).get(0),
                new double[] {1, 1, 1, 0, 1, 1, 1, 0, 0, 0, 0, 0}, 0);
    }

    @Test
    void scatterAddWithDuplicatesPassesTheBaseItsWholeGradient() {
        Tensor index = indices(new int[] {1, 1, 0, 1, 2, 1, 1, 1, 1}, 3, 3); // column 0 adds three times into row 1
        assertGradientsThrough(Op.SCATTER, "scatter_add with duplicates",
                in -> in.get(0).scatterAdd(0, index, in.get(1)).square(), input(20, 3, 3), input(21, 3, 3));
        Tensor x = input(22, 3, 3);
        Tensor src = input(23, 3, 3);
        Tensor weights = input(24, 3, 3);
        List<Tensor> gradients = Autograd.grad(x.scatterAdd(0, index, src).mul(weights).sum(), List.of(x, src));
        double[] w = weights.toDoubleArray();
        assertValues("the base keeps every element", gradients.get(0), w, 0);
        assertValues("each src element the weight it added into", gradients.get(1),
                new double[] {w[3], w[4], w[2], w[3], w[7], w[5], w[3], w[4], w[5]}, 0);
    }

    // ------------------------------------------------------------------ masked_fill, cumsum

    @Test
    void maskedFillPassesTheGradientWhereTheMaskIsFalse() {
        Tensor mask = Tensor.of(new boolean[] {true, false, false, true}, 4);
        assertGradients("masked_fill, a broadcast mask", in -> in.get(0).maskedFill(mask, -1.5).sin(), input(25, 3, 4));
        Tensor tall = Tensor.of(new boolean[] {false, true, true, false, true, false}, 2, 3);
        assertGradients("masked_fill, the input broadcast to the mask", in -> in.get(0).maskedFill(tall, 0).exp(), input(26, 3));
        Tensor x = input(27, 3);
        // the filled elements' cotangent is 2·(−∞): it must not reach x (as 0·∞ = NaN would)
        assertValues("the input's gradient counts the rows that keep it",
                GradTesting.gradient(x.maskedFill(tall, Double.NEGATIVE_INFINITY).square().sum(), x),
                new double[] {2 * 2 * x.toDoubleArray()[0], 0, 2 * x.toDoubleArray()[2]}, 1e-12);
    }

    @Test
    void cumsumAlongEachDimensionAndAroundPowersOfTwo() {
        for (int length : new int[] {1, 2, 5, 8, 9, 17}) {
            assertGradients("cumsum of length " + length, in -> in.get(0).cumsum(0).sin(), input(30 + length, length));
        }
        assertGradients("cumsum dim 1", in -> in.get(0).cumsum(1).square(), input(50, 3, 4));
        assertGradients("cumsum dim -2 of rank 3", in -> in.get(0).cumsum(-2).tanh(), input(51, 2, 5, 3));
        Tensor x = input(52, 5);
        Tensor weights = input(53, 5);
        double[] w = weights.toDoubleArray();
        double[] suffix = new double[5]; // ∂/∂x_i Σ_j w_j Σ_{k≤j} x_k = Σ_{j≥i} w_j
        for (int i = 4; i >= 0; i--) {
            suffix[i] = w[i] + (i < 4 ? suffix[i + 1] : 0);
        }
        assertValues("the reversed cumulative sum of the upstream", GradTesting.gradient(x.cumsum(0).mul(weights).sum(), x),
                suffix, 1e-12);
    }

    // ------------------------------------------------------------------ topk

    @Test
    void topkValuesSendTheirGradientToTheChosenPositions() {
        // values at least 0.05 apart: a step of 1e-6 never changes which are chosen
        assertGradientsThrough(Op.GATHER, "topk largest along 1", in -> in.get(0).topk(2, 1).values().sin(), tieFree(60, 3, 5));
        assertGradients("topk smallest along 0", in -> in.get(0).topk(3, 0, false).values().exp(), tieFree(61, 4, 3));
        assertGradients("topk of everything", in -> in.get(0).topk(6, -1).values().square(), tieFree(62, 6));
        Tensor x = Tensor.of(new double[] {0.5, -1.0, 3.0, 2.0, 0.0}, 5);
        Tensor weights = Tensor.of(new double[] {10, 20}, 2);
        assertValues("3.0 then 2.0", GradTesting.gradient(x.topk(2, 0).values().mul(weights).sum(), x),
                new double[] {0, 0, 10, 20, 0}, 0);
    }

    // ------------------------------------------------------------------ second order

    @Test
    void aGradientThroughGatherAndScatterIsDifferentiableAgain() {
        Tensor index = indices(new int[] {1, 1, 0, 2, 0, 2}, 2, 3);
        Tensor weights = input(70, 2, 3);
        // f(x) = Σ w·gather(x)³: ∂f/∂x is a scatter_add of 3w·gather(x)², its own derivative a gather again
        java.util.function.Function<Tensor, Tensor> gradientOfGather = x ->
                Autograd.grad(x.gather(1, index).pow(3).mul(weights).sum(), List.of(x)).get(0);
        assertThat(opsIn(gradientOfGather.apply(input(71, 2, 3)))).as("the first gradient scatters").contains(Op.SCATTER);
        assertGradients("∂f/∂x of a gather, as a function of x", in -> gradientOfGather.apply(in.get(0)), input(72, 2, 3));
        Tensor positions = indices(new int[] {2, 0, 1}, 1, 3);
        // g(x, s) = Σ sin(scatter(x, s²)): ∂g/∂x is cos(...) with the written elements zeroed (a scatter),
        // ∂g/∂s = 2s·cos(s²) gathered from where s landed; both differentiated again in x and s
        java.util.function.Function<List<Tensor>, Tensor> scattered = in -> in.get(0).scatter(0, positions, in.get(1).square()).sin().sum();
        assertGradients("∂g/∂x of a scatter, as a function of (x, s)",
                in -> Autograd.grad(scattered.apply(in), List.of(in.get(0))).get(0), input(73, 3, 3), input(74, 1, 3));
        assertGradients("∂g/∂s of a scatter, as a function of (x, s)",
                in -> Autograd.grad(scattered.apply(in), List.of(in.get(1))).get(0), input(76, 3, 3), input(77, 1, 3));
        Tensor x = input(75, 2, 3);
        Tensor first = gradientOfGather.apply(x);
        Tensor second = GradTesting.gradient(first.sum(), x);
        assertThat(opsIn(second)).as("the second gradient").contains(Op.GATHER, Op.SCATTER);
        double[] v = x.toDoubleArray();
        double[] w = weights.toDoubleArray();
        // ∂/∂x Σ_i 3 w_i x[g(i)]² = Σ_i 6 w_i x[g(i)] at g(i); g = (0,1), (0,1), (0,0), (1,2), (1,0), (1,2)
        double[] expected = new double[6];
        int[] read = {1, 1, 0, 5, 3, 5};
        for (int i = 0; i < 6; i++) {
            expected[read[i]] += 6 * w[i] * v[read[i]];
        }
        assertValues("H·1 of Σ w·gather(x)³", second, expected, 1e-12);
    }
}
