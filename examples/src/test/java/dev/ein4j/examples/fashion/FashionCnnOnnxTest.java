package dev.ein4j.examples.fashion;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ein4j.onnx.ExportOptions;
import dev.ein4j.onnx.ExportedModel;
import dev.ein4j.onnx.Onnx;
import dev.ein4j.onnx.testing.OnnxRuntime;
import dev.ein4j.tensor.Generator;
import dev.ein4j.tensor.Tensor;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The flagship CNN, after a training step has moved its batch-norm statistics, exports and runs in ONNX Runtime. */
class FashionCnnOnnxTest {

    @TempDir
    Path directory;

    @Test
    void theFlagshipExportsWithConvAndMaxPoolAndAgreesWithEin4j() {
        FashionCnn model = new FashionCnn(32, 64, 128, new Generator(1));
        FashionData data = FashionData.load(FashionData.EMBEDDED);
        Tensor images = Tensor.of(java.util.Arrays.copyOf(data.testImages(), 16 * 28 * 28), 16, 1, 28, 28).realize();
        model.forward(images).sum().realize(); // training mode: the running statistics move away from 0 and 1
        model.eval();
        Path file = directory.resolve("fashion-cnn.onnx");
        ExportedModel exported = Onnx.export(model, List.of(images.slice(0, 0, 4)), file,
                ExportOptions.defaults().inputNames("images").outputNames("logits").dynamicBatch());
        assertThat(exported.operatorCounts()).containsEntry("Conv", 2).containsEntry("MatMul", 2)
                .containsKey("MaxPool").doesNotContainKeys("Gather", "Einsum");
        assertThat(exported.initializers()).isGreaterThanOrEqualTo(14); // the state dict's tensors, by name
        OnnxRuntime.assertAgrees("fashion cnn", model.forward(images), OnnxRuntime.run(file, List.of(images)).get(0), 1e-4);
    }
}
