package dev.ein4j.examples.models;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ein4j.models.AutoModel;
import dev.ein4j.models.ImageClassifier;
import dev.ein4j.models.LanguageModel;
import dev.ein4j.nn.io.Npy;
import dev.ein4j.onnx.testing.OnnxRuntime;
import dev.ein4j.tensor.Generator;
import dev.ein4j.tensor.Tensor;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code models export-onnx}: models that ONNX Runtime runs to ein4j's logits, and one line with status 2 for bad input. */
class ExportOnnxCommandTest {

    @TempDir
    Path directory;

    private final ModelsCli cli = new ModelsCli();

    private Path folder(String name, String config) throws IOException {
        return TinyFolders.write(Files.createDirectories(directory.resolve(name)), config, 5);
    }

    @Test
    void aLanguageModelExportsWithInt64IdsAndADynamicBatch() throws IOException {
        Path model = folder("gpt2", TinyFolders.GPT2);
        Path input = directory.resolve("ids.npy");
        Tensor ids = Tensor.of(new int[] {1, 7, 3, 49, 0, 12}, 2, 3);
        Npy.write(input, ids);
        Path output = directory.resolve("gpt2.onnx");
        assertThat(cli.run("export-onnx", model.toString(), "--input", input.toString(), "--output", output.toString()))
                .as(cli.err()).isZero();
        assertThat(cli.out()).contains("GPT2LMHeadModel, opset 17, input_ids int64[batch, 3]"
                + " -> logits float[batch, 3, 50]").contains("MatMul");
        LanguageModel loaded = (LanguageModel) AutoModel.load(model);
        OnnxRuntime.assertAgrees("gpt2", loaded.logits(ids), OnnxRuntime.run(output, List.of(ids)).get(0), 1e-4);
        Tensor more = Tensor.of(new int[] {4, 4, 4, 9, 8, 7, 0, 1, 2, 3, 2, 1, 5, 6, 7}, 5, 3);
        OnnxRuntime.assertAgrees("gpt2, 5 sequences", loaded.logits(more), OnnxRuntime.run(output, List.of(more)).get(0), 1e-4);
    }

    @Test
    void anImageClassifierExportsWithAFixedBatchAndAnotherOpset() throws IOException {
        Path model = folder("vit", TinyFolders.VIT);
        Path input = directory.resolve("pixels.npy");
        Tensor pixels = Tensor.randn(new Generator(2), 2, 3, 16, 16);
        Npy.write(input, pixels);
        Path output = directory.resolve("vit.onnx");
        assertThat(cli.run("export-onnx", model.toString(), "--input", input.toString(), "--output", output.toString(),
                "--opset", "18", "--fixed-batch")).as(cli.err()).isZero();
        assertThat(cli.out()).contains("opset 18, pixel_values float[2, 3, 16, 16] -> logits float[2, 2]")
                .contains("Conv 1");
        ImageClassifier loaded = (ImageClassifier) AutoModel.load(model);
        OnnxRuntime.assertAgrees("vit", loaded.logits(pixels), OnnxRuntime.run(output, List.of(pixels)).get(0), 1e-4);
    }

    @Test
    void badFoldersInputsAndOptionsAreOneLineWithStatusTwo() throws IOException {
        Path model = folder("gpt2", TinyFolders.GPT2);
        Path pixels = directory.resolve("pixels.npy");
        Npy.write(pixels, Tensor.randn(new Generator(3), 1, 3, 4, 4));
        Path output = directory.resolve("out.onnx");
        assertThat(cli.run("export-onnx", model.toString(), "--input", pixels.toString(), "--output", output.toString())).isEqualTo(2);
        assertThat(cli.errorLine()).contains("GPT2LMHeadModel reads input_ids, int32 or int64 [batch, tokens], got float32[1, 3, 4, 4]");
        assertThat(cli.run("export-onnx", directory.resolve("missing").toString(), "--input", pixels.toString(), "--output",
                output.toString())).isEqualTo(2);
        assertThat(cli.errorLine()).startsWith("models: ").contains("missing");
        assertThat(cli.run("export-onnx", model.toString(), "--input", pixels.toString())).isEqualTo(2);
        assertThat(cli.errorLine()).contains("usage: models export-onnx DIR --input X.npy --output M.onnx");
        assertThat(cli.run("export-onnx", model.toString(), "--input", pixels.toString(), "--output", output.toString(),
                "--opset", "12")).isEqualTo(2);
        assertThat(cli.errorLine()).contains("opset 12 is not written; choose 17 to 22");
        assertThat(cli.run("export-onnx", model.toString(), "--input", pixels.toString(), "--output", output.toString(),
                "--opset", "seventeen")).isEqualTo(2);
        assertThat(cli.errorLine()).contains("--opset takes an integer");
        assertThat(cli.run("export-onnx", model.toString(), "--bogus")).isEqualTo(2);
        assertThat(cli.errorLine()).contains("unexpected argument '--bogus'");
        assertThat(output).doesNotExist();
    }
}
