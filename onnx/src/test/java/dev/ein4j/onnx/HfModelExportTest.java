package dev.ein4j.onnx;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ein4j.models.AutoModel;
import dev.ein4j.models.LanguageModel;
import dev.ein4j.models.PretrainedModel;
import dev.ein4j.nn.io.Npy;
import dev.ein4j.onnx.testing.OnnxRuntime;
import dev.ein4j.tensor.Tensor;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every model folder of the models module's fixtures (GPT-2, Llama with MHA, GQA and MQA, BERT,
 * ViT, ResNet, MobileNetV2, ConvNeXt; small random models saved by transformers) exported with a
 * dynamic batch, run by ONNX Runtime on the fixture's input and on a batch of another size, and
 * compared with ein4j's logits.
 */
class HfModelExportTest {

    @TempDir
    Path directory;

    static Stream<String> fixtures() throws IOException {
        try (Stream<Path> folders = Files.list(root())) {
            return folders.filter(Files::isDirectory).map(p -> p.getFileName().toString()).sorted().toList().stream();
        }
    }

    static Path root() {
        return Path.of(System.getProperty("ein4j.hf.fixtures", "../models/src/test/resources/hf"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("fixtures")
    void exportedModelGivesEin4jLogits(String name) {
        Path folder = root().resolve(name);
        PretrainedModel model = AutoModel.load(folder);
        Tensor input = Npy.read(folder.resolve("input.npy"));
        boolean language = model instanceof LanguageModel;
        Path file = directory.resolve(name + ".onnx");
        ExportedModel exported = Onnx.export(model, List.of(input), file, ExportOptions.defaults()
                .inputNames(language ? "input_ids" : "pixel_values").outputNames("logits").dynamicBatch());
        assertThat(exported.inputs().get(0).type().name()).isEqualTo(language ? "INT64" : "FLOAT");
        assertThat(exported.operatorCounts()).doesNotContainKey("Einsum");
        if (language) {
            assertThat(exported.operatorCounts()).as("embeddings are Gather").containsKey("Gather");
        }
        if (!language) {
            assertThat(exported.operatorCounts()).as("convolutions are Conv").containsKey("Conv")
                    .doesNotContainKey("Gather");
        }
        Tensor expected = model.forward(input);
        OnnxRuntime.assertAgrees(name, expected, OnnxRuntime.run(file, List.of(input)).get(0), 1e-4);

        Tensor wider = Tensor.concat(0, input, input.flip(0), input.slice(0, 0, 1)).realize(); // another batch size
        OnnxRuntime.assertAgrees(name + " with a batch of " + wider.length(0), model.forward(wider),
                OnnxRuntime.run(file, List.of(wider)).get(0), 1e-4);
    }
}
