package dev.ein4j.onnx;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ein4j.ir.Op;
import dev.ein4j.nn.Functional;
import dev.ein4j.nn.Linear;
import dev.ein4j.onnx.testing.OnnxRuntime;
import dev.ein4j.tensor.Generator;
import dev.ein4j.tensor.Tensor;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What cannot be exported is an {@link OnnxExportException} naming the node or option, and nothing is written. */
class ExportErrorsTest {

    @TempDir
    Path directory;

    private final Tensor x = Tensor.randn(new Generator(1), 3, 4).realize();

    private Path file() {
        return directory.resolve("model.onnx");
    }

    @Test
    void everyPrimitiveHasATranslation() {
        for (Op op : Op.values()) {
            assertThat(Translations.of(op)).as(op.name()).isNotNull();
        }
    }

    @Test
    void randomNumbersDrawnInTheCallAreRefusedUnlessFrozen() {
        assertThatThrownBy(() -> Onnx.export(in -> List.of(Functional.dropout(in.get(0), 0.5, true, new Generator(2))),
                List.of(x), file(), ExportOptions.defaults().outputNames("y")))
                .isInstanceOf(OnnxExportException.class)
                .hasMessageContaining("RAND#").hasMessageContaining("which feeds output 'y'")
                .hasMessageContaining("random numbers").hasMessageContaining("freezeRandom()");
        assertThat(file()).doesNotExist();
        Tensor frozenNoise = Tensor.rand(new Generator(3), 3, 4);
        ExportedModel frozen = Onnx.export(in -> List.of(in.get(0).add(frozenNoise)), List.of(x), file(),
                ExportOptions.defaults().freezeRandom());
        OnnxRuntime.assertAgrees("frozen", x.add(frozenNoise), OnnxRuntime.run(frozen.file(), List.of(x)).get(0), 1e-6);
    }

    @Test
    void aModelInTrainingModeIsRefused() {
        Linear layer = new Linear(4, 2);
        assertThatThrownBy(() -> Onnx.export(layer, List.of(x), file()))
                .isInstanceOf(OnnxExportException.class).hasMessageContaining("Linear is in training mode")
                .hasMessageContaining("eval()");
        layer.eval();
        assertThatThrownBy(() -> Onnx.export(layer, List.of(x, x.add(1)), file()))
                .isInstanceOf(OnnxExportException.class).hasMessageContaining("forward takes one tensor, got 2");
        ExportedModel exported = Onnx.export(layer, List.of(x), file());
        assertThat(exported.initializers()).isEqualTo(2);
        OnnxRuntime.assertAgrees("linear", layer.forward(x), OnnxRuntime.run(file(), List.of(x)).get(0), 1e-5);
    }

    @Test
    void whatChangesWithTheBatchSizeCannotBeDynamic() {
        assertThatThrownBy(() -> Onnx.export(in -> List.of(in.get(0).sub(in.get(0).mean(new int[] {0}, true))), List.of(x),
                file(), ExportOptions.defaults().dynamicBatch()))
                .isInstanceOf(OnnxExportException.class).hasMessageContaining("CONST#")
                .hasMessageContaining("a value computed from the batch size");
        assertThatThrownBy(() -> Onnx.export(in -> {
            List<Tensor> rows = new ArrayList<>();
            for (int i = 0; i < in.get(0).length(0); i++) {
                rows.add(in.get(0).slice(0, i, i + 1).exp());
            }
            return List.of(Tensor.concat(0, rows.toArray(Tensor[]::new)));
        }, List.of(x), file(), ExportOptions.defaults().dynamicBatch()))
                .isInstanceOf(OnnxExportException.class).hasMessageContaining("depends on the batch size");
        assertThatThrownBy(() -> Onnx.export(in -> List.of(in.get(0).add(Tensor.rand(new Generator(4), in.get(0).length(0), 4))),
                List.of(x), file(), ExportOptions.defaults().dynamicBatch().freezeRandom()))
                .isInstanceOf(OnnxExportException.class).hasMessageContaining("RAND#")
                .hasMessageContaining("grows with the batch");
        assertThatThrownBy(() -> Onnx.export(in -> List.of(in.get(0)), List.of(), file(),
                ExportOptions.defaults().dynamicBatch()))
                .isInstanceOf(OnnxExportException.class).hasMessageContaining("at least one input");
        assertThatThrownBy(() -> Onnx.export(in -> List.of(in.get(0)), List.of(x), file(),
                ExportOptions.defaults().dynamicBatch(2)))
                .isInstanceOf(OnnxExportException.class).hasMessageContaining("sample input 0 has rank 2");
        assertThat(file()).doesNotExist();
    }

    @Test
    void namesAndOptionsAreChecked() {
        assertThatThrownBy(() -> Onnx.export(in -> List.of(in.get(0).exp()), List.of(x), file(),
                ExportOptions.defaults().inputNames("a", "b")))
                .isInstanceOf(OnnxExportException.class).hasMessageContaining("2 input names [a, b] for 1 input");
        assertThatThrownBy(() -> Onnx.export(in -> List.of(in.get(0).exp()), List.of(x), file(),
                ExportOptions.defaults().inputNames("a").outputNames("a")))
                .isInstanceOf(OnnxExportException.class).hasMessageContaining("output name 'a' is also an input's name");
        assertThatThrownBy(() -> ExportOptions.defaults().outputNames("y", "y"))
                .isInstanceOf(OnnxExportException.class).hasMessageContaining("distinct");
        assertThatThrownBy(() -> ExportOptions.defaults().inputNames(""))
                .isInstanceOf(OnnxExportException.class).hasMessageContaining("empty");
        assertThatThrownBy(() -> ExportOptions.defaults().opset(16))
                .isInstanceOf(OnnxExportException.class).hasMessageContaining("opset 16 is not written; choose 17 to 22");
        assertThatThrownBy(() -> ExportOptions.defaults().dynamicBatch(-1))
                .isInstanceOf(OnnxExportException.class).hasMessageContaining("≥ 0");
        assertThatThrownBy(() -> Onnx.export(in -> List.of(in.get(0)), List.of(x, x), file()))
                .isInstanceOf(OnnxExportException.class).hasMessageContaining("sample input 1 is the same tensor");
        assertThatThrownBy(() -> Onnx.export(in -> List.of(), List.of(x), file()))
                .isInstanceOf(OnnxExportException.class).hasMessageContaining("returned no tensors");
        assertThatThrownBy(() -> Onnx.export(in -> null, List.of(x), file()))
                .isInstanceOf(OnnxExportException.class).hasMessageContaining("returned null");
        assertThat(file()).doesNotExist();
    }

    @Test
    void anOutputMayBeAnInputOrAConstant() {
        ExportedModel exported = Onnx.export(in -> List.of(in.get(0), Tensor.arange(3)), List.of(x), file());
        List<OnnxRuntime.Output> outputs = OnnxRuntime.run(exported.file(), List.of(x));
        OnnxRuntime.assertAgrees("identity", x, outputs.get(0), 0);
        OnnxRuntime.assertAgrees("constant", Tensor.arange(3), outputs.get(1), 0);
    }

    @Test
    void anUnwritableFileIsAnUncheckedIoException() throws Exception {
        Path blocked = Files.createDirectories(directory.resolve("is-a-directory"));
        Files.writeString(blocked.resolve("keep"), "x");
        assertThatThrownBy(() -> Onnx.export(in -> List.of(in.get(0).exp()), List.of(x), blocked))
                .isInstanceOf(java.io.UncheckedIOException.class).hasMessageContaining("cannot write the ONNX model");
    }
}
