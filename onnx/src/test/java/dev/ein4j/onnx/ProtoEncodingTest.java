package dev.ein4j.onnx;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ein4j.onnx.proto.Attribute;
import dev.ein4j.onnx.proto.ElementType;
import dev.ein4j.onnx.proto.Graph;
import dev.ein4j.onnx.proto.Model;
import dev.ein4j.onnx.proto.OperatorNode;
import dev.ein4j.onnx.proto.OperatorSetId;
import dev.ein4j.onnx.proto.TensorData;
import dev.ein4j.onnx.proto.ValueInfo.Dimension;
import dev.ein4j.onnx.proto.ValueInfo;
import dev.ein4j.onnx.testing.OnnxRuntime;
import dev.ein4j.tensor.Tensor;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The hand-written ONNX messages round-trip through ONNX Runtime: a model written with every
 * element type as raw data, every attribute kind, symbolic dimensions and an opset import loads
 * and computes what the operators define.
 */
class ProtoEncodingTest {

    @TempDir
    Path directory;

    private static ValueInfo info(String name, ElementType type, Dimension... dims) {
        return new ValueInfo(name, type, List.of(dims));
    }

    private static OperatorNode node(String op, List<String> inputs, String output, Attribute... attributes) {
        return new OperatorNode(op, inputs, List.of(output), output, List.of(attributes));
    }

    @Test
    void everyMessageKindRoundTripsThroughOnnxRuntime() throws IOException {
        long[] shape = {2, 3};
        List<TensorData> initializers = List.of(
                TensorData.ofFloats("w", shape, new float[] {1, 2, 3, 4, 5, 6}),
                TensorData.ofDoubles("d", new long[0], new double[] {0.25}),
                TensorData.ofInts("i", shape, new int[] {-1, 0, 1, 2, 3, Integer.MIN_VALUE}),
                TensorData.ofLongs("pads", new long[] {4}, new long[] {0, 1, 0, 0}),
                TensorData.ofBooleans("b", shape, new boolean[] {true, false, true, false, false, true}));
        List<OperatorNode> nodes = List.of(
                node("Add", List.of("x", "w"), "sum"),
                node("Cast", List.of("x"), "x64", Attribute.ofInt("to", ElementType.DOUBLE.code())),
                node("Mul", List.of("x64", "d"), "scaled"),
                node("Transpose", List.of("i"), "transposed", Attribute.ofInts("perm", 1, 0)),
                node("LeakyRelu", List.of("x"), "leaky", Attribute.ofFloat("alpha", 0.5f)),
                node("Pad", List.of("x", "pads"), "padded", Attribute.ofString("mode", "edge")),
                node("Constant", List.of(), "seven", Attribute.ofTensor("value", TensorData.ofFloats("", new long[0],
                        new float[] {7}))),
                node("Add", List.of("x", "seven"), "plus"),
                node("Not", List.of("b"), "negated"));
        Graph graph = new Graph("encoding", nodes, initializers, List.of(info("x", ElementType.FLOAT,
                Dimension.symbolic("batch"), Dimension.of(3))), List.of(info("sum", ElementType.FLOAT, Dimension.symbolic("batch"),
                Dimension.of(3)), info("scaled", ElementType.DOUBLE, Dimension.unknown(), Dimension.of(3)),
                info("transposed", ElementType.INT32, Dimension.of(3), Dimension.of(2)),
                info("leaky", ElementType.FLOAT, Dimension.of(2), Dimension.of(3)),
                info("padded", ElementType.FLOAT, Dimension.of(2), Dimension.of(4)),
                info("plus", ElementType.FLOAT, Dimension.of(2), Dimension.of(3)),
                info("negated", ElementType.BOOL, Dimension.of(2), Dimension.of(3))));
        Model model = new Model(8, List.of(new OperatorSetId("", 17)), "test", "1", "a test", graph);
        Path file = directory.resolve("encoding.onnx");
        long written = model.write(file);
        assertThat(Files.size(file)).isEqualTo(written).isEqualTo(model.serializedSize());
        assertThat(Files.readAllBytes(file)).isEqualTo(model.toByteArray());

        Tensor x = Tensor.of(new float[] {-2, -1, 0, 1, 2, 3}, 2, 3);
        List<OnnxRuntime.Output> outputs = OnnxRuntime.run(file, List.of(x));
        assertThat(outputs.get(0).values()).containsExactly(-1, 1, 3, 5, 7, 9);
        assertThat(outputs.get(1).values()).containsExactly(-0.5, -0.25, 0, 0.25, 0.5, 0.75);
        assertThat(outputs.get(2).values()).containsExactly(-1, 2, 0, 3, 1, Integer.MIN_VALUE);
        assertThat(outputs.get(3).values()).containsExactly(-1, -0.5, 0, 1, 2, 3);
        assertThat(outputs.get(4).values()).containsExactly(-2, -2, -1, 0, 1, 1, 2, 3);
        assertThat(outputs.get(5).values()).containsExactly(5, 6, 7, 8, 9, 10);
        assertThat(outputs.get(6).values()).containsExactly(0, 1, 0, 1, 1, 0);
    }

    @Test
    void dataMustFitItsShapeAndModelsOverTwoGibibytesAreRefused() {
        assertThatThrownBy(() -> TensorData.ofFloats("w", new long[] {2, 2}, new float[3]))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("needs 16 bytes of FLOAT, got 12");
        TensorData block = new TensorData("block", ElementType.BOOL, new long[] {1 << 26}, new byte[1 << 26]);
        List<TensorData> manyTimes = Collections.nCopies(40, block); // 2.5 GiB referring to one 64 MiB array
        Graph graph = new Graph("large", List.of(), manyTimes, List.of(), List.of());
        Model model = new Model(8, List.of(new OperatorSetId("", 17)), "test", "1", "", graph);
        assertThat(model.serializedSize()).isGreaterThan(Model.MAX_BYTES);
        assertThatThrownBy(model::toByteArray).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("more than the 2 GiB a protobuf message may hold");
        assertThatThrownBy(() -> model.write(directory.resolve("large.onnx"))).isInstanceOf(IllegalStateException.class);
        assertThat(directory.resolve("large.onnx")).doesNotExist();
    }
}
