package dev.ein4j.onnx;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ein4j.ir.DType;
import dev.ein4j.onnx.testing.OnnxRuntime;
import dev.ein4j.tensor.Axes;
import dev.ein4j.tensor.Ein;
import dev.ein4j.tensor.Generator;
import dev.ein4j.tensor.Reduction;
import dev.ein4j.tensor.Tensor;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Each primitive on the values where ONNX operators and ein4j could part: NaN, infinities and
 * signed zeros, float-to-int conversions out of range, int32 wrap-around, bool arithmetic, windows
 * that are not convolutions, iotas and constants whose lengths follow a dynamic batch, opset 18.
 */
class PrimitiveExportTest {

    @TempDir
    Path directory;

    private static final float[] SPECIAL = {Float.NaN, Float.POSITIVE_INFINITY, Float.NEGATIVE_INFINITY, 0f, -0f, 1e-30f,
        -2.5f, 3.75f, 1e10f, -1e10f, 2.5f, 0.5f};

    @Test
    void floatingFunctionsOnSpecialValues() {
        for (DType type : List.of(DType.FLOAT32, DType.FLOAT64)) {
            Tensor x = Tensor.of(SPECIAL, 3, 4).cast(type).realize();
            Tensor y = x.flip(0).realize();
            Exports.agree(directory, "functions " + type, in -> {
                Tensor a = in.get(0);
                Tensor b = in.get(1);
                return List.of(a.exp(), a.log(), a.sqrt(), a.reciprocal(), a.maximum(b), a.lt(b), a.eq(b),
                        Tensor.where(a.lt(b), a, b), a.max(new int[] {1}, true), a.sum(new int[] {0}, false),
                        a.prod(1), a.add(b), a.mul(b));
            }, x, y);
            Tensor angles = Tensor.of(new float[] {0f, 0.5f, -1.25f, 3.5f, 100f, -7f}, 2, 3).cast(type).realize();
            Exports.agree(directory, "sin " + type, in -> List.of(in.get(0).sin(), in.get(0).cos()), angles);
        }
    }

    @Test
    void castsTruncateWrapAndMapNaNAsEin4j() {
        Tensor x = Tensor.of(new float[] {Float.NaN, 2.7f, -2.7f, 3e9f, -3e9f, 0f, -0f, Float.POSITIVE_INFINITY}, 8).realize();
        Exports.agree(directory, "casts", in -> List.of(in.get(0).cast(DType.INT32), in.get(0).cast(DType.BOOL),
                in.get(0).cast(DType.FLOAT64), in.get(0).cast(DType.BOOL).cast(DType.FLOAT32),
                in.get(0).cast(DType.FLOAT64).cast(DType.INT32)), x);
        Tensor integers = Tensor.of(new int[] {Integer.MAX_VALUE, -7, 0, 16_777_217}, 4).realize();
        Exports.agree(directory, "casts from int32", in -> List.of(in.get(0).cast(DType.FLOAT32), in.get(0).cast(DType.BOOL),
                in.get(0).cast(DType.FLOAT64)), List.of(integers), ExportOptions.defaults().int32Inputs());
    }

    @Test
    void int32ArithmeticWraps() {
        Tensor a = Tensor.of(new int[] {Integer.MAX_VALUE, -5, 7, 0, 3, -2}, 2, 3).realize();
        Tensor b = Tensor.of(new int[] {1, 4, -7, 9, 3, 100_000}, 2, 3).realize();
        ExportedModel exported = Exports.agree(directory, "int32", in -> {
            Tensor x = in.get(0);
            Tensor y = in.get(1);
            return List.of(x.add(y), x.mul(y), x.maximum(y), x.lt(y), x.eq(y), x.sum(new int[] {1}, true), x.prod(0),
                    x.max(new int[] {0}, false), Ein.einsum("i j, k j -> i k", x, y), Tensor.where(x.lt(y), x, y),
                    x.sub(y));
        }, a, b);
        assertThat(exported.inputs().get(0).type().name()).as("int32 inputs are int64 by default").isEqualTo("INT64");
    }

    @Test
    void boolArithmeticIsLogical() {
        Tensor a = Tensor.of(new boolean[] {true, false, true, false, true, true}, 2, 3).realize();
        Tensor b = Tensor.of(new boolean[] {true, true, false, false, false, true}, 2, 3).realize();
        Exports.agree(directory, "bool", in -> {
            Tensor x = in.get(0);
            Tensor y = in.get(1);
            return List.of(x.logicalAnd(y), x.logicalOr(y), x.logicalNot(), x.eq(y), x.lt(y),
                    x.reduce(Reduction.MAX, new int[] {1}, true), x.cast(DType.INT32).sum(0), Tensor.where(x, y, x));
        }, a, b);
    }

    @Test
    void movementsPadWithTheirFillAndSliceFlip() {
        Tensor x = Tensor.randn(new Generator(3), 2, 5, 4).realize();
        Exports.agree(directory, "movements", in -> {
            Tensor t = in.get(0);
            return List.of(t.pad(new int[] {0, 1, 2}, new int[] {1, 0, 1}, Double.NEGATIVE_INFINITY),
                    t.pad(new int[] {1, 0, 0}, new int[] {0, 2, 0}, 1.5), t.flip(0, 2), t.slice(1, 1, 4).slice(2, 3, 4),
                    t.permute(2, 0, 1), t.rearrange("b (h w) c -> b h (w c)", Axes.of("h", 5)),
                    t.reshape(2, 1, 5, 4).expand(2, 3, 5, 4), t.rearrange("b h c -> (b h c)"));
        }, x);
    }

    @Test
    void windowsThatAreNoConvolutionGatherWithConstantIndices() {
        Tensor x = Tensor.randn(new Generator(4), 2, 9).realize();
        ExportedModel exported = Exports.agree(directory, "unfold", in -> List.of(
                in.get(0).rearrange("b (2*h + k) -> b h k", Axes.of("k", 3)),
                in.get(0).rearrange("b (h + 2*k) -> b k h", Axes.of("k", 2)).exp()), x);
        assertThat(exported.operatorCounts()).containsEntry("Gather", 2);
    }

    @Test
    void gathersAndScattersAreGatherElementsGatherAndScatterElements() {
        Tensor x = Tensor.randn(new Generator(9), 5, 4).realize();
        Tensor index = Tensor.of(new int[] {4, 0, 2, 2, 1, 3, 0, 4}, 2, 4).realize();
        Tensor rows = Tensor.of(new int[] {3, 1, 3}, 3).realize();
        Tensor updates = Tensor.randn(new Generator(10), 2, 4).realize();
        Tensor unique = Tensor.of(new int[] {4, 0, 2, 1, 1, 3, 0, 4}, 2, 4).realize();
        ExportedModel exported = Exports.agree(directory, "gather and scatter", in -> List.of(
                in.get(0).gather(0, in.get(1)), in.get(0).indexSelect(0, in.get(2)),
                in.get(0).scatterAdd(0, in.get(1), in.get(3)), in.get(0).scatter(0, in.get(4), in.get(3))),
                List.of(x, index, rows, updates, unique), ExportOptions.defaults().int32Inputs());
        assertThat(exported.operatorCounts()).containsKeys("GatherElements", "Gather", "ScatterElements");
    }

    @Test
    void iotasAndConstantsFollowADynamicBatch() {
        Tensor x = Tensor.randn(new Generator(5), 3, 4).realize();
        ExportOptions dynamic = ExportOptions.defaults().dynamicBatch();
        ExportedModel exported = Exports.agree(directory, "dynamic creation", in -> {
            Tensor t = in.get(0);
            int batch = t.length(0);
            Tensor positions = Tensor.arange(batch).cast(DType.FLOAT32).reshape(batch, 1);
            Tensor ones = Tensor.ones(batch, 4);
            Tensor fixed = Tensor.arange(4).cast(DType.FLOAT32);
            return List.of(t.add(positions).mul(ones), t.add(fixed), t.rearrange("b c -> (b c)").exp(),
                    Ein.einsum("b c, d c -> b d", t, t));
        }, List.of(x), dynamic);
        assertThat(exported.operatorCounts()).containsKeys("Range", "Shape");
        assertThat(exported.inputs().get(0).shape().get(0).symbol()).isEqualTo("batch");
        assertThat(exported.outputs().get(0).shape().get(0).symbol()).isEqualTo("batch");
        assertThat(exported.outputs().get(3).shape().get(1).symbol()).isEqualTo("batch");
        // the same model on batches of other sizes
        for (int batch : new int[] {1, 5}) {
            Tensor other = Tensor.randn(new Generator(6 + batch), batch, 4).realize();
            Tensor t = other;
            Tensor positions = Tensor.arange(batch).cast(DType.FLOAT32).reshape(batch, 1);
            List<Tensor> expected = List.of(t.add(positions).mul(Tensor.ones(batch, 4)),
                    t.add(Tensor.arange(4).cast(DType.FLOAT32)), t.rearrange("b c -> (b c)").exp(),
                    Ein.einsum("b c, d c -> b d", t, t));
            List<OnnxRuntime.Output> outputs = OnnxRuntime.run(exported.file(), List.of(other));
            for (int i = 0; i < expected.size(); i++) {
                OnnxRuntime.assertAgrees("batch " + batch + " output " + i, expected.get(i), outputs.get(i), 1e-5);
            }
        }
    }

    @Test
    void opsetsEighteenToTwentyTwoTakeReductionAxesAsInputs() {
        Tensor x = Tensor.randn(new Generator(8), 2, 3, 4).realize();
        List<Integer> opsets = new ArrayList<>(List.of(18, 19, 21, 22));
        for (int opset : opsets) {
            Exports.agree(directory, "opset " + opset, in -> List.of(in.get(0).max(new int[] {1}, true),
                    in.get(0).prod(2), in.get(0).softmax(0)), List.of(x), ExportOptions.defaults().opset(opset));
        }
    }
}
