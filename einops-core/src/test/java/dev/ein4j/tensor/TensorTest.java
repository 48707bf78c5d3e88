package dev.ein4j.tensor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ein4j.error.EinopsException;
import dev.ein4j.error.ShapeException;
import dev.ein4j.ir.DType;
import dev.ein4j.tensor.Reduction;
import dev.ein4j.testing.Close;
import dev.ein4j.testing.NdArray;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.function.DoubleBinaryOperator;
import java.util.function.DoubleUnaryOperator;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

class TensorTest {

    private static final double TIGHT = 1e-14;

    private static NdArray random(long seed, double low, double high, int... shape) {
        return NdArray.random(new SplittableRandom(seed), shape, low, high);
    }

    private static Tensor of(NdArray array) {
        return Tensor.of(array.data, array.shape);
    }

    private static double[] map(double[] data, DoubleUnaryOperator f) {
        double[] out = new double[data.length];
        for (int i = 0; i < data.length; i++) {
            out[i] = f.applyAsDouble(data[i]);
        }
        return out;
    }

    private static double[] zip(double[] a, double[] b, DoubleBinaryOperator f) {
        double[] out = new double[a.length];
        for (int i = 0; i < a.length; i++) {
            out[i] = f.applyAsDouble(a[i], b[i]);
        }
        return out;
    }

    // =================================================================== creation

    @Nested
    class Creation {

        @Test
        void ofWithTheWrongLengthIsAShapeException() {
            assertThatThrownBy(() -> Tensor.of(new float[3], 2, 2)).isInstanceOf(ShapeException.class)
                    .hasMessageContaining("[2, 2]").hasMessageContaining("3");
            assertThatThrownBy(() -> Tensor.of(new double[5], 2, 3)).isInstanceOf(ShapeException.class);
            assertThatThrownBy(() -> Tensor.of(new double[2], new int[0])).as("a scalar holds one element").isInstanceOf(ShapeException.class);
            assertThat(Tensor.of(new double[2]).shape()).as("no shape: one dimension").containsExactly(2);
            assertThat(Tensor.of(new float[3]).shape()).containsExactly(3);
            assertThat(Tensor.of(new int[] {4, 5}).dtype()).isEqualTo(DType.INT32);
            assertThat(Tensor.of(new boolean[] {true}).dtype()).isEqualTo(DType.BOOL);
            assertThatThrownBy(() -> Tensor.of(new double[0], -1)).isInstanceOf(ShapeException.class);
            assertThatThrownBy(() -> Tensor.zeros(2, -3)).isInstanceOf(ShapeException.class);
            Tensor huge = Tensor.zeros(1 << 16, 1 << 16);
            assertThat(huge.size()).as("a constant of 2^32 elements is one value read through zero strides").isEqualTo(1L << 32);
            assertThatThrownBy(huge::toDoubleArray).as("no host array holds 2^32 elements").isInstanceOf(ShapeException.class);
        }

        @Test
        void ofCopiesTheDataAndRoundsFloat32() {
            double[] data = {0.1, 1e-50, 3};
            Tensor single = Tensor.of(data, DType.FLOAT32, 3);
            Tensor dbl = Tensor.of(data, 3);
            data[2] = 99;
            assertThat(single.dtype()).isEqualTo(DType.FLOAT32);
            assertThat(single.toDoubleArray()).containsExactly((double) 0.1f, (double) (float) 1e-50, 3.0);
            assertThat(dbl.dtype()).isEqualTo(DType.FLOAT64);
            assertThat(dbl.toDoubleArray()).containsExactly(0.1, 1e-50, 3.0);
            float[] floats = {1.5f, -2.25f};
            Tensor fromFloats = Tensor.of(floats, 2, 1);
            floats[0] = 7;
            assertThat(fromFloats.shape()).containsExactly(2, 1);
            assertThat(fromFloats.toFloatArray()).containsExactly(1.5f, -2.25f);
            assertThat(Tensor.of(new double[] {4.5}, new int[0]).rank()).isZero();
            assertThat(Tensor.of(new double[] {4.5}).rank()).isOne();
            assertThat(Tensor.of(new double[] {4.5}).item()).isEqualTo(4.5);
        }

        @Test
        void zerosOnesFull() {
            assertThat(Tensor.zeros(2, 3).toDoubleArray()).hasSize(6).containsOnly(0.0);
            assertThat(Tensor.zeros(2, 3).dtype()).isEqualTo(DType.FLOAT32);
            assertThat(Tensor.ones(DType.FLOAT64, 4).toDoubleArray()).containsExactly(1, 1, 1, 1);
            assertThat(Tensor.ones(DType.FLOAT64, 4).dtype()).isEqualTo(DType.FLOAT64);
            assertThat(Tensor.full(2.5, DType.FLOAT64, 2, 2).toDoubleArray()).containsExactly(2.5, 2.5, 2.5, 2.5);
            assertThat(Tensor.full(0.1, DType.FLOAT32).item()).isEqualTo((double) 0.1f);
            assertThat(Tensor.scalar(3).shape()).isEmpty();
            assertThat(Tensor.zeros(0, 4).toDoubleArray()).isEmpty();
            assertThat(Tensor.zeros().item()).isZero();
        }

        @Test
        void arangeAndEye() {
            assertThat(Tensor.arange(5).dtype()).as("PyTorch's integer arange").isEqualTo(DType.INT32);
            assertThat(Tensor.arange(5).toIntArray()).containsExactly(0, 1, 2, 3, 4);
            assertThat(Tensor.arange(2, 11, 3).toIntArray()).containsExactly(2, 5, 8);
            assertThat(Tensor.arange(5, 0, -2).toIntArray()).containsExactly(5, 3, 1);
            assertThat(Tensor.linspace(0, 1, 5).toFloatArray()).containsExactly(0f, 0.25f, 0.5f, 0.75f, 1f);
            assertThat(Tensor.arange(DType.FLOAT64, 0).toDoubleArray()).isEmpty();
            assertThat(Tensor.arange(DType.FLOAT64, 3).dtype()).isEqualTo(DType.FLOAT64);
            assertThat(Tensor.arange(-1).shape()).as("numpy: an empty range").containsExactly(0);
            assertThatThrownBy(() -> Tensor.arange(0, 5, 0)).isInstanceOf(dev.ein4j.error.EinopsException.class);
            Tensor eye = Tensor.eye(3, DType.FLOAT64);
            assertThat(eye.shape()).containsExactly(3, 3);
            assertThat(eye.toDoubleArray()).containsExactly(1, 0, 0, 0, 1, 0, 0, 0, 1);
            assertThat(Tensor.eye(1, DType.FLOAT32).toDoubleArray()).containsExactly(1);
            assertThat(Tensor.eye(0, DType.FLOAT32).shape()).containsExactly(0, 0);
        }

        @Test
        void randIsInTheUnitIntervalAndReproducible() {
            double[] a = Tensor.rand(new Generator(42), 100, 100).toDoubleArray();
            double[] b = Tensor.rand(new Generator(42), 100, 100).toDoubleArray();
            double[] c = Tensor.rand(new Generator(43), 100, 100).toDoubleArray();
            assertThat(a).containsExactly(b);
            assertThat(a).isNotEqualTo(c);
            double sum = 0;
            int[] bins = new int[10];
            for (double value : a) {
                assertThat(value).isGreaterThanOrEqualTo(0.0).isLessThan(1.0);
                assertThat((double) (float) value).as("float32 values").isEqualTo(value);
                sum += value;
                bins[(int) (value * 10)]++;
            }
            assertThat(sum / a.length).isCloseTo(0.5, org.assertj.core.data.Offset.offset(0.02));
            for (int bin : bins) {
                assertThat(bin).as("uniform bins of 10000 draws").isBetween(850, 1150);
            }
            double[] doubles = Tensor.rand(new Generator(42), DType.FLOAT64, 1000).toDoubleArray();
            assertThat(Arrays.stream(doubles).allMatch(value -> value >= 0 && value < 1)).isTrue();
            assertThat(Arrays.stream(doubles).filter(v -> v != (double) (float) v).count())
                    .as("float64 rand uses more than 24 bits").isGreaterThan(900);
        }

        @Test
        void randnIsStandardNormal() {
            double[] values = Tensor.randn(new Generator(7), 20_000).toDoubleArray();
            double mean = Arrays.stream(values).average().orElseThrow();
            double variance = Arrays.stream(values).map(v -> (v - mean) * (v - mean)).sum() / (values.length - 1);
            assertThat(mean).isBetween(-0.05, 0.05);
            assertThat(Math.sqrt(variance)).isBetween(0.95, 1.05);
            long negative = Arrays.stream(values).filter(v -> v < 0).count();
            long withinOne = Arrays.stream(values).filter(v -> Math.abs(v) < 1).count();
            long withinTwo = Arrays.stream(values).filter(v -> Math.abs(v) < 2).count();
            assertThat(negative / 20_000.0).isBetween(0.48, 0.52);
            assertThat(withinOne / 20_000.0).isBetween(0.6627, 0.7027);
            assertThat(withinTwo / 20_000.0).isBetween(0.9445, 0.9645);
            assertThat(Arrays.stream(values).allMatch(Double::isFinite)).isTrue();
            assertThat(Tensor.randn(new Generator(7), 20_000).toDoubleArray()).containsExactly(values);
            assertThat(Tensor.randn(new Generator(7), DType.FLOAT64, 3).dtype()).isEqualTo(DType.FLOAT64);
        }
    }

    // =================================================================== elementwise

    @Nested
    class Elementwise {

        private final NdArray x = random(11, -3, 3, 3, 4, 5);
        private final NdArray y = random(12, -3, 3, 3, 4, 5);
        private final NdArray positive = random(13, 0.01, 5, 3, 4, 5);

        private void unaryCase(String name, NdArray input, UnaryOperator<Tensor> op, DoubleUnaryOperator math,
                               double relative, double absolute) {
            Tensor result = op.apply(of(input));
            assertThat(result.shape()).as(name).containsExactly(input.shape);
            assertThat(result.dtype()).as(name).isEqualTo(DType.FLOAT64);
            Close.assertClose(name, result.toDoubleArray(), map(input.data, math), relative, absolute);
        }

        @Test
        void unaryOpsAgreeWithMath() {
            unaryCase("neg", x, Tensor::neg, v -> -v, 0, 0);
            unaryCase("exp", x, Tensor::exp, Math::exp, TIGHT, 0);
            unaryCase("log", positive, Tensor::log, Math::log, TIGHT, TIGHT);
            unaryCase("sqrt", positive, Tensor::sqrt, Math::sqrt, TIGHT, 0);
            unaryCase("reciprocal", x, Tensor::reciprocal, v -> 1 / v, 0, 0);
            unaryCase("sin", x, Tensor::sin, Math::sin, TIGHT, 0);
            unaryCase("cos", x, Tensor::cos, Math::cos, 1e-12, 1e-15);
            unaryCase("square", x, Tensor::square, v -> v * v, 0, 0);
            unaryCase("abs", x, Tensor::abs, Math::abs, 0, 0);
            unaryCase("relu", x, Tensor::relu, v -> Math.max(v, 0), 0, 0);
            unaryCase("sigmoid", x, Tensor::sigmoid, v -> 1 / (1 + Math.exp(-v)), TIGHT, 0);
            unaryCase("tanh", x, Tensor::tanh, Math::tanh, 1e-12, 1e-15);
        }

        @Test
        void powerAgreesWithMathPow() {
            double[] exponents = {2, -1, 0.5, 1.5, 0, 1, 3, -2, -0.5, 2.5, 17};
            for (double p : exponents) {
                unaryCase("pow " + p + " of positives", positive, t -> t.pow(p), v -> Math.pow(v, p), 1e-13, 0);
            }
            // negative bases: integer powers are exact, fractional ones NaN, as numpy
            for (double p : new double[] {2, -1, 3, -2, 0, 1}) {
                unaryCase("pow " + p + " of mixed signs", x, t -> t.pow(p), v -> Math.pow(v, p), 1e-13, 0);
            }
            Tensor special = Tensor.of(new double[] {-4, 0, 4}, 3);
            assertThat(special.pow(0.5).toDoubleArray()).containsExactly(Double.NaN, 0, 2);
            double[] onePointFive = special.pow(1.5).toDoubleArray();
            assertThat(onePointFive[0]).isNaN();
            assertThat(onePointFive[1]).isZero();
            assertThat(onePointFive[2]).isCloseTo(8.0, org.assertj.core.data.Offset.offset(1e-12));
            assertThat(special.pow(-1).toDoubleArray()).containsExactly(-0.25, Double.POSITIVE_INFINITY, 0.25);
            assertThat(special.pow(0).toDoubleArray()).containsExactly(1, 1, 1);
        }

        @Test
        void reluAtZeroAndAbsOfSignedZero() {
            Tensor t = Tensor.of(new double[] {-1, -0.0, 0, 2}, 4);
            double[] relu = t.relu().toDoubleArray();
            assertThat(relu).containsExactly(0, 0, 0, 2);
            double[] abs = t.abs().toDoubleArray();
            assertThat(abs).containsExactly(1, 0, 0, 2);
        }

        @Test
        void sigmoidAndTanhSaturate() {
            Tensor t = Tensor.of(new double[] {-800, -40, 0, 40, 800}, 5);
            assertThat(t.sigmoid().toDoubleArray()).containsExactly(0.0, 1 / (1 + Math.exp(40)), 0.5, 1 / (1 + Math.exp(-40)), 1.0);
            Close.assertClose("tanh", t.tanh().toDoubleArray(), new double[] {-1, -1, 0, 1, 1}, 0, 1e-15);
        }

        @Test
        void binaryOpsAgreeWithJava() {
            Tensor a = of(x);
            Tensor b = of(y);
            Close.assertExact("add", a.add(b).toDoubleArray(), zip(x.data, y.data, Double::sum));
            Close.assertExact("sub", a.sub(b).toDoubleArray(), zip(x.data, y.data, (p, q) -> p - q));
            Close.assertExact("mul", a.mul(b).toDoubleArray(), zip(x.data, y.data, (p, q) -> p * q));
            Close.assertClose("div", a.div(b).toDoubleArray(), zip(x.data, y.data, (p, q) -> p / q), 1e-15, 0);
            Close.assertExact("maximum", a.maximum(b).toDoubleArray(), zip(x.data, y.data, Math::max));
            Close.assertExact("minimum", a.minimum(b).toDoubleArray(), zip(x.data, y.data, Math::min));
            Close.assertExact("add scalar", a.add(2.5).toDoubleArray(), map(x.data, v -> v + 2.5));
            Close.assertExact("sub scalar", a.sub(2.5).toDoubleArray(), map(x.data, v -> v - 2.5));
            Close.assertExact("mul scalar", a.mul(-3).toDoubleArray(), map(x.data, v -> v * -3));
            Close.assertClose("div scalar", a.div(3).toDoubleArray(), map(x.data, v -> v / 3), 1e-15, 0);
        }

        @Test
        void comparisonsAgreeWithJavaIncludingTies() {
            double[] left = x.data.clone();
            double[] right = y.data.clone();
            for (int i = 0; i < left.length; i += 3) {
                right[i] = left[i]; // ties
            }
            Tensor a = Tensor.of(left, x.shape);
            Tensor b = Tensor.of(right, x.shape);
            Close.assertExact("lt", a.lt(b).toDoubleArray(), zip(left, right, (p, q) -> p < q ? 1 : 0));
            Close.assertExact("gt", a.gt(b).toDoubleArray(), zip(left, right, (p, q) -> p > q ? 1 : 0));
            Close.assertExact("le", a.le(b).toDoubleArray(), zip(left, right, (p, q) -> p <= q ? 1 : 0));
            Close.assertExact("ge", a.ge(b).toDoubleArray(), zip(left, right, (p, q) -> p >= q ? 1 : 0));
            Close.assertExact("eq", a.eq(b).toDoubleArray(), zip(left, right, (p, q) -> p == q ? 1 : 0));
            Close.assertExact("ne", a.ne(b).toDoubleArray(), zip(left, right, (p, q) -> p != q ? 1 : 0));
            Close.assertExact("lt scalar", a.lt(0.5).toDoubleArray(), map(left, p -> p < 0.5 ? 1 : 0));
            Close.assertExact("gt scalar", a.gt(0.5).toDoubleArray(), map(left, p -> p > 0.5 ? 1 : 0));
        }

        /** Every ordered comparison with NaN is false (IEEE 754, Java, numpy); only ne is true. */
        @Test
        void ltGtEqNeWithNaN() {
            Tensor a = Tensor.of(new double[] {Double.NaN, 1, Double.NaN}, 3);
            Tensor b = Tensor.of(new double[] {1, Double.NaN, Double.NaN}, 3);
            assertThat(a.lt(b).toDoubleArray()).as("lt").containsExactly(0, 0, 0);
            assertThat(a.gt(b).toDoubleArray()).as("gt").containsExactly(0, 0, 0);
            assertThat(a.eq(b).toDoubleArray()).as("eq").containsExactly(0, 0, 0);
            assertThat(a.ne(b).toDoubleArray()).as("ne").containsExactly(1, 1, 1);
        }

        /** le is built as 1 − gt: with NaN, gt is 0, so le gives 1 where IEEE (and numpy) say false. */
        @Test
        void leWithNaNIsFalse() {
            Tensor a = Tensor.of(new double[] {Double.NaN, 1, Double.NaN}, 3);
            Tensor b = Tensor.of(new double[] {1, Double.NaN, Double.NaN}, 3);
            assertThat(a.le(b).toDoubleArray()).as("le: NaN <= 1, 1 <= NaN, NaN <= NaN are false").containsExactly(0, 0, 0);
        }

        /** ge is built as 1 − lt: with NaN, lt is 0, so ge gives 1 where IEEE (and numpy) say false. */
        @Test
        void geWithNaNIsFalse() {
            Tensor a = Tensor.of(new double[] {Double.NaN, 1, Double.NaN}, 3);
            Tensor b = Tensor.of(new double[] {1, Double.NaN, Double.NaN}, 3);
            assertThat(a.ge(b).toDoubleArray()).as("ge: NaN >= 1, 1 >= NaN, NaN >= NaN are false").containsExactly(0, 0, 0);
        }

        @Test
        void maximumAndMinimumPropagateNaN() {
            Tensor a = Tensor.of(new double[] {Double.NaN, 1, 2}, 3);
            Tensor b = Tensor.of(new double[] {0, Double.NaN, 3}, 3);
            assertThat(a.maximum(b).toDoubleArray()).containsExactly(Double.NaN, Double.NaN, 3);
            assertThat(a.minimum(b).toDoubleArray()).containsExactly(Double.NaN, Double.NaN, 2);
            assertThat(a.abs().toDoubleArray()[0]).isNaN();
        }

        @Test
        void whereSelectsAndBroadcasts() {
            double[] condition = {1, 0, -2, 0.5, 0, Double.NaN};
            Tensor c = Tensor.of(condition, 6);
            Tensor yes = Tensor.of(new double[] {1, 2, 3, 4, 5, 6}, 6);
            Tensor no = Tensor.of(new double[] {-1, -2, -3, -4, -5, -6}, 6);
            assertThat(Tensor.where(c, yes, no).toDoubleArray()).containsExactly(1, -2, 3, 4, -5, 6);

            Tensor c2 = Tensor.of(new double[] {1, 0, 1}, 3, 1);
            Tensor rows = Tensor.of(new float[] {10, 20}, 1, 2);
            Tensor scalar = Tensor.scalar(-1, DType.FLOAT64);
            Tensor selected = Tensor.where(c2, rows, scalar);
            assertThat(selected.shape()).containsExactly(3, 2);
            assertThat(selected.dtype()).isEqualTo(DType.FLOAT64);
            assertThat(selected.toDoubleArray()).containsExactly(10, 20, -1, -1, 10, 20);
        }

        @Test
        void dtypePromotion() {
            Tensor single = Tensor.of(new float[] {0.1f, 0.2f}, 2);
            Tensor dbl = Tensor.of(new double[] {0.2, 0.3}, 2);
            Tensor sum = single.add(dbl);
            assertThat(sum.dtype()).isEqualTo(DType.FLOAT64);
            assertThat(sum.toDoubleArray()).containsExactly((double) 0.1f + 0.2, (double) 0.2f + 0.3);
            assertThat(dbl.add(single).dtype()).isEqualTo(DType.FLOAT64);
            assertThat(single.mul(dbl).dtype()).isEqualTo(DType.FLOAT64);
            assertThat(single.maximum(dbl).dtype()).isEqualTo(DType.FLOAT64);
            assertThat(single.add(single).dtype()).isEqualTo(DType.FLOAT32);
            Tensor f32 = single.add(single);
            assertThat(f32.toDoubleArray()).containsExactly((double) (0.1f + 0.1f), (double) (0.2f + 0.2f));
            assertThat(single.add(1.0).dtype()).as("a Java constant takes the tensor's type").isEqualTo(DType.FLOAT32);
            assertThat(DType.FLOAT32.promote(DType.FLOAT64)).isEqualTo(DType.FLOAT64);
            assertThat(single.cast(DType.FLOAT64).toDoubleArray()).containsExactly((double) 0.1f, (double) 0.2f);
            assertThat(dbl.cast(DType.FLOAT32).toDoubleArray()).containsExactly((double) 0.2f, (double) 0.3f);
        }

        @Test
        void float32ResultsAreRoundedOnEveryWrite() {
            Tensor third = Tensor.of(new float[] {1, 2}, 2).div(3.0);
            // div is mul by the reciprocal, rounded to float32 as a constant, then the product rounded
            float reciprocal = (float) (1.0 / 3.0);
            assertThat(third.toFloatArray()).containsExactly((float) (1.0 * reciprocal), (float) (2.0 * reciprocal));
        }

        @Test
        void numpyBroadcasting() {
            NdArray column = random(21, -1, 1, 3, 1);
            NdArray row = random(22, -1, 1, 1, 4);
            Tensor sum = of(column).add(of(row));
            assertThat(sum.shape()).containsExactly(3, 4);
            double[] expected = new double[12];
            for (int i = 0; i < 3; i++) {
                for (int j = 0; j < 4; j++) {
                    expected[i * 4 + j] = column.data[i] + row.data[j];
                }
            }
            Close.assertExact("[3,1]+[1,4]", sum.toDoubleArray(), expected);

            NdArray big = random(23, -1, 1, 5, 1, 4);
            NdArray small = random(24, -1, 1, 3, 1);
            Tensor product = of(big).mul(of(small));
            assertThat(product.shape()).containsExactly(5, 3, 4);
            NdArray a = big.broadcastTo(5, 3, 4);
            NdArray b = small.broadcastTo(5, 3, 4);
            Close.assertExact("[5,1,4]*[3,1]", product.toDoubleArray(), zip(a.data, b.data, (p, q) -> p * q));

            Tensor scalar = Tensor.scalar(2, DType.FLOAT64);
            assertThat(scalar.add(of(big)).shape()).containsExactly(5, 1, 4);
            assertThat(Tensor.zeros(0, 1).add(Tensor.ones(1, 3)).shape()).containsExactly(0, 3);
        }

        @Test
        void broadcastingErrorsNameBothShapes() {
            assertThatThrownBy(() -> Tensor.zeros(2, 3).add(Tensor.zeros(2)))
                    .isInstanceOf(ShapeException.class).hasMessageContaining("[2, 3]").hasMessageContaining("[2]");
            assertThatThrownBy(() -> Tensor.zeros(4, 3).mul(Tensor.zeros(2, 1, 4)))
                    .isInstanceOf(ShapeException.class).hasMessageContaining("[4, 3]").hasMessageContaining("[2, 1, 4]");
            assertThatThrownBy(() -> Tensor.where(Tensor.zeros(3), Tensor.zeros(4), Tensor.zeros(3)))
                    .isInstanceOf(ShapeException.class);
            assertThatThrownBy(() -> Tensor.zeros(0).add(Tensor.zeros(2)))
                    .as("0 does not broadcast with 2").isInstanceOf(ShapeException.class);
        }
    }

    // =================================================================== reductions

    @Nested
    class Reductions {

        private final NdArray data = random(31, -2, 2, 2, 3, 4);

        private List<int[]> allAxisSubsets(int rank) {
            List<int[]> subsets = new ArrayList<>();
            for (int mask = 1; mask < 1 << rank; mask++) {
                int finalMask = mask;
                subsets.add(java.util.stream.IntStream.range(0, rank).filter(k -> (finalMask >> k & 1) == 1).toArray());
            }
            return subsets;
        }

        @Test
        void everyReductionOverEveryAxisSubset() {
            SplittableRandom random = new SplittableRandom(32);
            Tensor t = of(data);
            for (Reduction reduction : Reduction.values()) {
                NdArray.Kind kind = NdArray.Kind.valueOf(reduction.name());
                for (int[] axes : allAxisSubsets(3)) {
                    NdArray expected = data.reduceKeep(kind, axes);
                    int[] given = axes.clone();
                    for (int i = 0; i < given.length; i++) {
                        if (random.nextBoolean()) {
                            given[i] -= 3; // negative form
                        }
                    }
                    String what = reduction + " over " + Arrays.toString(given);
                    Tensor kept = t.reduce(reduction, given, true);
                    assertThat(kept.shape()).as(what + " keepDims").containsExactly(expected.shape);
                    Close.assertClose(what + " keepDims", kept.toDoubleArray(), expected.data, 1e-13, 1e-15);
                    Tensor dropped = t.reduce(reduction, given, false);
                    assertThat(dropped.shape()).as(what).containsExactly(expected.dropAxes(axes).shape);
                    Close.assertClose(what, dropped.toDoubleArray(), expected.data, 1e-13, 1e-15);
                }
            }
        }

        @Test
        void convenienceReductions() {
            Tensor t = of(data);
            Close.assertClose("sum", new double[] {t.sum().item()}, data.reduceKeep(NdArray.Kind.SUM, 0, 1, 2).data, 1e-13, 0);
            Close.assertClose("mean", new double[] {t.mean().item()}, data.reduceKeep(NdArray.Kind.MEAN, 0, 1, 2).data, 1e-13, 0);
            Close.assertExact("max", new double[] {t.max().item()}, data.reduceKeep(NdArray.Kind.MAX, 0, 1, 2).data);
            Close.assertExact("min", new double[] {t.min().item()}, data.reduceKeep(NdArray.Kind.MIN, 0, 1, 2).data);
            Close.assertClose("prod", new double[] {t.prod().item()}, data.reduceKeep(NdArray.Kind.PROD, 0, 1, 2).data, 1e-13, 0);
            assertThat(t.sum().shape()).isEmpty();
            Close.assertClose("sum(-1)", t.sum(-1).toDoubleArray(), data.reduceKeep(NdArray.Kind.SUM, 2).data, 1e-13, 0);
            Close.assertClose("mean(0, 2)", t.mean(0, 2).toDoubleArray(), data.reduceKeep(NdArray.Kind.MEAN, 0, 2).data, 1e-13, 0);
            Close.assertExact("max(1)", t.max(1).toDoubleArray(), data.reduceKeep(NdArray.Kind.MAX, 1).data);
            Close.assertExact("min(-2)", t.min(-2).toDoubleArray(), data.reduceKeep(NdArray.Kind.MIN, 1).data);
            Close.assertClose("prod(2, 0)", t.prod(2, 0).toDoubleArray(), data.reduceKeep(NdArray.Kind.PROD, 0, 2).data, 1e-13, 0);
            assertThat(t.max(1).shape()).containsExactly(2, 4);
            assertThat(Tensor.scalar(4).sum().item()).isEqualTo(4);
        }

        @Test
        void repeatedOrOutOfRangeAxesAreShapeErrors() {
            Tensor t = Tensor.zeros(2, 3, 4);
            assertThatThrownBy(() -> t.sum(0, 0)).isInstanceOf(ShapeException.class).hasMessageContaining("twice");
            assertThatThrownBy(() -> t.sum(1, -2)).isInstanceOf(ShapeException.class).hasMessageContaining("twice");
            assertThatThrownBy(() -> t.max(3)).isInstanceOf(ShapeException.class);
            assertThatThrownBy(() -> t.mean(-4)).isInstanceOf(ShapeException.class);
        }

        @Test
        void reductionsPropagateNaN() {
            Tensor t = Tensor.of(new double[] {1, Double.NaN, 3, 4, 5, 6}, 2, 3);
            assertThat(t.max().item()).isNaN();
            assertThat(t.min().item()).isNaN();
            assertThat(t.sum().item()).isNaN();
            assertThat(t.max(1).toDoubleArray()).containsExactly(Double.NaN, 6);
            assertThat(t.min(1).toDoubleArray()).containsExactly(Double.NaN, 4);
            assertThat(t.max(0).toDoubleArray()).containsExactly(4, Double.NaN, 6);
            Tensor nanLast = Tensor.of(new double[] {5, Double.NaN}, 2);
            assertThat(nanLast.max().item()).as("NaN after a larger value").isNaN();
        }

        @Test
        void reductionsOfEmptyAxes() {
            Tensor empty = Tensor.zeros(DType.FLOAT64, 0, 3);
            assertThat(empty.sum(0).toDoubleArray()).containsExactly(0, 0, 0);
            assertThat(empty.prod(0).toDoubleArray()).containsExactly(1, 1, 1);
            assertThatThrownBy(() -> empty.max(0)).as("no identity: numpy and PyTorch raise").isInstanceOf(ShapeException.class)
                    .hasMessageContaining("length 0");
            assertThatThrownBy(() -> empty.min(0)).isInstanceOf(ShapeException.class);
            assertThatThrownBy(() -> empty.argmax(0, false)).isInstanceOf(ShapeException.class);
            assertThat(empty.max(1).shape()).as("reducing a non-empty axis of an empty tensor").containsExactly(0);
            assertThat(empty.mean(0).toDoubleArray()).containsExactly(Double.NaN, Double.NaN, Double.NaN);
            assertThat(empty.sum(1).shape()).containsExactly(0);
            assertThat(empty.sum(1).toDoubleArray()).isEmpty();
            assertThat(empty.sum().item()).isZero();
        }
    }

    // =================================================================== movement

    @Nested
    class Movement {

        private final NdArray data = random(41, -5, 5, 2, 3, 4);

        @Test
        void reshapeWithInferredLength() {
            Tensor t = of(data);
            assertThat(t.reshape(-1).shape()).containsExactly(24);
            assertThat(t.reshape(4, -1).shape()).containsExactly(4, 6);
            assertThat(t.reshape(-1, 2, 3).shape()).containsExactly(4, 2, 3);
            Close.assertExact("reshape", t.reshape(4, -1).toDoubleArray(), data.data);
            assertThat(t.reshape(2, 3, 4)).isSameAs(t);
            assertThat(Tensor.zeros(0, 4).reshape(4, 0).shape()).containsExactly(4, 0);
            assertThat(Tensor.zeros(0, 4).reshape(0, 2, 2).shape()).containsExactly(0, 2, 2);
            assertThat(Tensor.scalar(1).reshape(1, 1).shape()).containsExactly(1, 1);
        }

        @Test
        void reshapeErrors() {
            Tensor t = Tensor.zeros(2, 3, 4);
            assertThatThrownBy(() -> t.reshape(-1, -1)).isInstanceOf(ShapeException.class);
            assertThatThrownBy(() -> t.reshape(5, -1)).isInstanceOf(ShapeException.class);
            assertThatThrownBy(() -> t.reshape(2, 2)).isInstanceOf(ShapeException.class).hasMessageContaining("24");
            assertThatThrownBy(() -> t.reshape(-3, 8)).isInstanceOf(ShapeException.class);
            assertThatThrownBy(() -> t.reshape(0, -1)).isInstanceOf(ShapeException.class);
        }

        @Test
        void reshapeAfterPermuteCopiesInRowMajorOrder() {
            Tensor t = of(data).permute(2, 0, 1).reshape(4, 6);
            Close.assertExact("permute+reshape", t.toDoubleArray(), data.permute(2, 0, 1).data);
            Tensor flipped = of(data).flip(1).reshape(-1);
            Close.assertExact("flip+reshape", flipped.toDoubleArray(), data.flip(new boolean[] {false, true, false}).data);
        }

        @Test
        void permuteAndTranspose() {
            Tensor t = of(data);
            Close.assertExact("permute", t.permute(1, 2, 0).toDoubleArray(), data.permute(1, 2, 0).data);
            Close.assertExact("permute negative", t.permute(-1, 0, 1).toDoubleArray(), data.permute(2, 0, 1).data);
            assertThat(t.permute(1, 2, 0).shape()).containsExactly(3, 4, 2);
            Close.assertExact("transpose", t.transpose(0, 2).toDoubleArray(), data.permute(2, 1, 0).data);
            Close.assertExact("transpose negative", t.transpose(-1, -2).toDoubleArray(), data.permute(0, 2, 1).data);
            assertThat(t.permute(0, 1, 2)).isSameAs(t);
            assertThatThrownBy(() -> t.permute(0, 1)).isInstanceOf(ShapeException.class);
            assertThatThrownBy(() -> t.permute(0, 1, 1)).isInstanceOf(ShapeException.class);
            assertThatThrownBy(() -> t.permute(0, 1, 3)).isInstanceOf(ShapeException.class);
            assertThatThrownBy(() -> t.transpose(0, 3)).isInstanceOf(ShapeException.class);
        }

        @Test
        void expand() {
            NdArray small = random(42, -1, 1, 3, 1);
            Tensor t = of(small);
            Close.assertExact("expand", t.expand(3, 4).toDoubleArray(), small.expand(3, 4).data);
            Close.assertExact("expand with new leading dims", t.expand(2, 3, 5).toDoubleArray(), small.broadcastTo(2, 3, 5).data);
            assertThatThrownBy(() -> t.expand(4, 4)).isInstanceOf(ShapeException.class);
            assertThatThrownBy(() -> t.expand(3, 1, 1)).isInstanceOf(ShapeException.class);
            assertThatThrownBy(() -> t.expand(3)).isInstanceOf(ShapeException.class);
        }

        @Test
        void padShrinkAndSlice() {
            Tensor t = of(data);
            int[] before = {1, 0, 2};
            int[] after = {0, 2, 1};
            Close.assertExact("pad", t.pad(before, after, -9).toDoubleArray(), data.pad(before, after, -9).data);
            assertThat(t.pad(new int[3], new int[3], 5)).isSameAs(t);
            assertThatThrownBy(() -> t.pad(new int[] {1}, new int[] {1}, 0)).isInstanceOf(ShapeException.class);
            assertThatThrownBy(() -> t.pad(new int[] {-1, 0, 0}, new int[3], 0)).isInstanceOf(ShapeException.class);

            int[] starts = {1, 0, 1};
            int[] ends = {2, 2, 4};
            Close.assertExact("shrink", t.shrink(starts, ends).toDoubleArray(), data.shrink(starts, ends).data);
            assertThatThrownBy(() -> t.shrink(new int[] {0, 0, 3}, new int[] {2, 3, 2})).isInstanceOf(ShapeException.class);
            assertThatThrownBy(() -> t.shrink(new int[] {0, 0, 0}, new int[] {2, 3, 5})).isInstanceOf(ShapeException.class);

            // python slices: x[:, -2:, 1:-1], clamped bounds
            Close.assertExact("slice -2:", t.slice(1, -2, 3).toDoubleArray(),
                    data.shrink(new int[] {0, 1, 0}, new int[] {2, 3, 4}).data);
            Close.assertExact("slice 1:-1", t.slice(-1, 1, -1).toDoubleArray(),
                    data.shrink(new int[] {0, 0, 1}, new int[] {2, 3, 3}).data);
            Close.assertExact("slice -100:100", t.slice(2, -100, 100).toDoubleArray(), data.data);
            assertThat(t.slice(2, 3, 1).shape()).as("empty slice").containsExactly(2, 3, 0);
            assertThat(t.slice(0, -1, 2).shape()).containsExactly(1, 3, 4);
            Close.assertExact("slice -1:", t.slice(0, -1, 2).toDoubleArray(),
                    data.shrink(new int[] {1, 0, 0}, new int[] {2, 3, 4}).data);
            assertThatThrownBy(() -> t.slice(3, 0, 1)).isInstanceOf(ShapeException.class);
        }

        @Test
        void paddingTwiceWithDifferentValues() {
            NdArray small = random(43, -1, 1, 2, 2);
            Tensor t = of(small).pad(new int[] {1, 0}, new int[] {0, 1}, 7).pad(new int[] {0, 1}, new int[] {1, 0}, -7);
            Close.assertExact("pad pad", t.toDoubleArray(),
                    small.pad(new int[] {1, 0}, new int[] {0, 1}, 7).pad(new int[] {0, 1}, new int[] {1, 0}, -7).data);
        }

        @Test
        void flipSqueezeUnsqueeze() {
            Tensor t = of(data);
            Close.assertExact("flip 0 2", t.flip(0, 2).toDoubleArray(), data.flip(new boolean[] {true, false, true}).data);
            Close.assertExact("flip -1", t.flip(-1).toDoubleArray(), data.flip(new boolean[] {false, false, true}).data);
            assertThat(t.flip()).isSameAs(t);
            assertThatThrownBy(() -> t.flip(0, 0)).isInstanceOf(ShapeException.class);

            assertThat(t.unsqueeze(0).shape()).containsExactly(1, 2, 3, 4);
            assertThat(t.unsqueeze(3).shape()).containsExactly(2, 3, 4, 1);
            assertThat(t.unsqueeze(-1).shape()).containsExactly(2, 3, 4, 1);
            assertThat(t.unsqueeze(-4).shape()).containsExactly(1, 2, 3, 4);
            assertThat(t.unsqueeze(1).shape()).containsExactly(2, 1, 3, 4);
            assertThatThrownBy(() -> t.unsqueeze(5)).isInstanceOf(ShapeException.class);
            assertThatThrownBy(() -> t.unsqueeze(-5)).isInstanceOf(ShapeException.class);
            Close.assertExact("unsqueeze", t.unsqueeze(1).toDoubleArray(), data.data);

            Tensor withUnit = t.unsqueeze(2);
            assertThat(withUnit.squeeze(2).shape()).containsExactly(2, 3, 4);
            assertThat(withUnit.squeeze(-2).shape()).containsExactly(2, 3, 4);
            assertThatThrownBy(() -> t.squeeze(0)).isInstanceOf(ShapeException.class);
        }

        @Test
        void concat() {
            NdArray a = random(44, -1, 1, 2, 3);
            NdArray b = random(45, -1, 1, 2, 1);
            NdArray c = random(46, -1, 1, 2, 0);
            NdArray d = random(47, -1, 1, 2, 4);
            Tensor joined = Tensor.concat(1, of(a), of(b), of(c), of(d));
            assertThat(joined.shape()).containsExactly(2, 8);
            Close.assertExact("concat 1", joined.toDoubleArray(), NdArray.concat(1, a, b, c, d).data);
            NdArray e = random(48, -1, 1, 1, 3);
            Close.assertExact("concat 0", Tensor.concat(0, of(a), of(e)).toDoubleArray(), NdArray.concat(0, a, e).data);
            Close.assertExact("concat -1", Tensor.concat(-1, of(a), of(b)).toDoubleArray(), NdArray.concat(1, a, b).data);
            Tensor single = of(a);
            assertThat(Tensor.concat(0, single)).isSameAs(single);
            Tensor infinite = Tensor.concat(0, Tensor.of(new double[] {Double.POSITIVE_INFINITY}, 1),
                    Tensor.of(new double[] {Double.NEGATIVE_INFINITY}, 1));
            assertThat(infinite.toDoubleArray()).containsExactly(Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY);
            assertThatThrownBy(() -> Tensor.concat(0, of(a), of(b))).isInstanceOf(ShapeException.class);
            assertThatThrownBy(() -> Tensor.concat(0, of(a), Tensor.zeros(2))).isInstanceOf(ShapeException.class);
            assertThatThrownBy(() -> Tensor.concat(2, of(a), of(a))).isInstanceOf(ShapeException.class);
            assertThatThrownBy(() -> Tensor.concat(0)).isInstanceOf(EinopsException.class);
        }

        /**
         * concat is built from PAD with 0 and ADD, so the parts' elements pass through x + 0. That
         * preserves every value but −0.0 (−0.0 + 0.0 = +0.0) and NaN stays NaN: check NaN.
         */
        @Test
        void concatKeepsNaN() {
            Tensor joined = Tensor.concat(0, Tensor.of(new double[] {Double.NaN, 1}, 2), Tensor.of(new double[] {2}, 1));
            double[] values = joined.toDoubleArray();
            assertThat(values[0]).isNaN();
            assertThat(values[1]).isEqualTo(1);
            assertThat(values[2]).isEqualTo(2);
        }

        /**
         * concat should copy values exactly. Built as PAD with +0.0 and ADD, it turns −0.0 into +0.0
         * (−0.0 + 0.0 = +0.0 in IEEE 754); padding with −0.0 would keep every value (x + −0.0 = x).
         */
        @Test
        void concatPreservesNegativeZero() {
            Tensor joined = Tensor.concat(0, Tensor.of(new double[] {-0.0}, 1), Tensor.of(new double[] {-0.0, 1}, 2));
            double[] values = joined.toDoubleArray();
            assertThat(Double.doubleToRawLongBits(values[0])).as("first part's -0.0").isEqualTo(Double.doubleToRawLongBits(-0.0));
            assertThat(Double.doubleToRawLongBits(values[1])).as("second part's -0.0").isEqualTo(Double.doubleToRawLongBits(-0.0));
        }

        @Test
        void contiguousCopiesAViewInOrder() {
            Tensor t = of(data).permute(2, 1, 0).contiguous();
            Close.assertExact("contiguous", t.toDoubleArray(), data.permute(2, 1, 0).data);
        }

        @Test
        void zeroSizeTensorsThroughOps() {
            Tensor empty = Tensor.zeros(DType.FLOAT64, 2, 0, 3);
            assertThat(empty.exp().shape()).containsExactly(2, 0, 3);
            assertThat(empty.exp().toDoubleArray()).isEmpty();
            assertThat(empty.add(Tensor.ones(3)).toDoubleArray()).isEmpty();
            assertThat(empty.permute(2, 0, 1).shape()).containsExactly(3, 2, 0);
            assertThat(empty.permute(2, 0, 1).toDoubleArray()).isEmpty();
            assertThat(empty.flip(1).toDoubleArray()).isEmpty();
            assertThat(empty.reshape(0, 6).shape()).containsExactly(0, 6);
            assertThat(empty.sum(1).shape()).containsExactly(2, 3);
            assertThat(empty.sum(1).toDoubleArray()).containsExactly(0, 0, 0, 0, 0, 0);
            Tensor padded = empty.pad(new int[] {0, 1, 0}, new int[] {0, 0, 0}, 4);
            assertThat(padded.shape()).containsExactly(2, 1, 3);
            assertThat(padded.toDoubleArray()).containsOnly(4.0).hasSize(6);
            assertThat(empty.rearrange("a b c -> c (a b)").shape()).containsExactly(3, 0);
            assertThat(empty.slice(2, 1, 2).shape()).containsExactly(2, 0, 1);
            assertThat(Tensor.concat(1, empty, Tensor.ones(DType.FLOAT64, 2, 1, 3)).toDoubleArray()).containsOnly(1.0).hasSize(6);
            Tensor product = Ein.matmul(Tensor.ones(DType.FLOAT64, 2, 0), Tensor.ones(DType.FLOAT64, 0, 3));
            assertThat(product.shape()).containsExactly(2, 3);
            assertThat(product.toDoubleArray()).containsOnly(0.0).hasSize(6);
        }
    }

    // =================================================================== data and printing

    @Nested
    class Data {

        @Test
        void itemNeedsExactlyOneElement() {
            assertThat(Tensor.of(new double[] {2.5}, 1, 1).item()).isEqualTo(2.5);
            assertThatThrownBy(() -> Tensor.zeros(2).item()).isInstanceOf(ShapeException.class).hasMessageContaining("2");
            assertThatThrownBy(() -> Tensor.zeros(0).item()).isInstanceOf(ShapeException.class);
        }

        @Test
        void shapePropertiesAndLength() {
            Tensor t = Tensor.zeros(2, 3, 4);
            assertThat(t.rank()).isEqualTo(3);
            assertThat(t.size()).isEqualTo(24);
            assertThat(t.length(0)).isEqualTo(2);
            assertThat(t.length(-1)).isEqualTo(4);
            assertThatThrownBy(() -> t.length(3)).isInstanceOf(ShapeException.class);
            int[] shape = t.shape();
            shape[0] = 99;
            assertThat(t.shape()).as("shape() is a copy").containsExactly(2, 3, 4);
        }

        @Test
        void toStringIsNumpyLike() {
            assertThat(Tensor.of(new float[] {1, 2, 3, 4}, 2, 2).toString())
                    .isEqualTo("tensor([[1., 2.],\n        [3., 4.]], dtype=float32)");
            assertThat(Tensor.scalar(3.5).toString()).isEqualTo("tensor(3.5000, dtype=float32)");
            assertThat(Tensor.scalar(2, DType.FLOAT64).toString()).isEqualTo("tensor(2., dtype=float64)");
            assertThat(Tensor.of(new double[] {-1, 10, 100}, 3).toString()).isEqualTo("tensor([ -1.,  10., 100.], dtype=float64)");
            assertThat(Tensor.zeros(0).toString()).isEqualTo("tensor([], dtype=float32)");
            assertThat(Tensor.zeros(2, 0).toString()).isEqualTo("tensor([[],\n        []], dtype=float32)");
            assertThat(Tensor.of(new double[] {Double.NaN, 1}, 2).toString()).isEqualTo("tensor([nan,  1.], dtype=float64)");
            assertThat(Tensor.of(new double[] {0.5, -1.25}, 2).toString()).isEqualTo("tensor([ 0.5000, -1.2500], dtype=float64)");
            assertThat(Tensor.zeros(2, 1, 2).toString()).isEqualTo("tensor([[[0., 0.]],\n\n        [[0., 0.]]], dtype=float32)");
        }

        @Test
        void toStringOfALargeTensorIsSummarised() {
            String text = Tensor.arange(DType.FLOAT64, 2000).toString();
            assertThat(text).isEqualTo("tensor([   0.,    1.,    2., ..., 1997., 1998., 1999.], dtype=float64)");
        }

        @Test
        void toFloatArrayRoundsDoubles() {
            assertThat(Tensor.of(new double[] {0.1}, 1).toFloatArray()).containsExactly(0.1f);
        }
    }

    // =================================================================== gradients flags

    @Nested
    class Gradients {

        @Test
        void detachCutsGradientTracking() {
            Tensor leaf = Tensor.of(new double[] {1, 2}, 2).requireGrad();
            assertThat(leaf.requiresGrad()).isTrue();
            assertThat(leaf.mul(2).requiresGrad()).isTrue();
            assertThat(leaf.rearrange("a -> a").requiresGrad()).isTrue();
            Tensor detached = leaf.mul(2).detach();
            assertThat(detached.requiresGrad()).isFalse();
            assertThat(detached.add(1).requiresGrad()).isFalse();
            assertThat(detached.toDoubleArray()).containsExactly(2, 4);
            assertThat(Tensor.of(new double[] {1}, 1).requiresGrad()).isFalse();
            assertThat(leaf.hasGrad()).isFalse();
            assertThatThrownBy(leaf::grad).isInstanceOf(EinopsException.class);
        }

        @Test
        void noGradMakesUntrackedTensors() {
            Tensor leaf = Tensor.of(new double[] {1, 2, 3, 4}, 2, 2).requireGrad();
            Tensor[] inside = GradientMode.noGrad(() -> new Tensor[] {
                leaf.mul(2), leaf.exp(), leaf.transpose(0, 1), leaf.sum(), leaf.rearrange("a b -> b a"),
                Ein.einsum("i j, j k -> i k", leaf, leaf), leaf.add(leaf).reshape(4)});
            for (Tensor t : inside) {
                assertThat(t.requiresGrad()).as(t.node().toString()).isFalse();
            }
            assertThat(inside[0].toDoubleArray()).containsExactly(2, 4, 6, 8);
            assertThat(GradientMode.isEnabled()).isTrue();
            GradientMode.noGrad(() -> {
                assertThat(GradientMode.isEnabled()).isFalse();
                GradientMode.noGrad(() -> {
                    assertThat(GradientMode.isEnabled()).isFalse();
                });
                assertThat(GradientMode.isEnabled()).as("nested scopes").isFalse();
            });
            assertThat(GradientMode.isEnabled()).isTrue();
            Runnable failing = () -> {
                throw new IllegalStateException("boom");
            };
            assertThatThrownBy(() -> GradientMode.noGrad(failing)).isInstanceOf(IllegalStateException.class);
            assertThat(GradientMode.isEnabled()).as("restored after an exception").isTrue();
            assertThat(leaf.mul(2).requiresGrad()).isTrue();
        }
    }
}
