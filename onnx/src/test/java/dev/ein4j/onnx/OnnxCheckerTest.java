package dev.ein4j.onnx;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.ein4j.models.AutoModel;
import dev.ein4j.models.PretrainedModel;
import dev.ein4j.nn.ConvolutionOptions;
import dev.ein4j.nn.Functional;
import dev.ein4j.nn.io.Npy;
import dev.ein4j.tensor.Generator;
import dev.ein4j.tensor.Tensor;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Exported files pass the ONNX project's own checker, {@code onnx.checker.check_model} with
 * {@code full_check} (which also runs ONNX's strict shape inference against the declared shapes),
 * where Python's {@code onnx} package is installed; skipped with the reason where it is not.
 */
class OnnxCheckerTest {

    /** Checks each file; a file of an opset newer than the installed onnx knows (Debian's 1.12 knows 17) is reported, not checked. */
    private static final String CHECK = "import onnx, sys\n"
            + "for path in sys.argv[1:]:\n"
            + "    model = onnx.load(path)\n"
            + "    if max(o.version for o in model.opset_import) > onnx.defs.onnx_opset_version():\n"
            + "        print('newer', path)\n"
            + "        continue\n"
            + "    onnx.checker.check_model(model, full_check=True)\n"
            + "    print('checked', path)\n";

    @TempDir
    Path directory;

    @Test
    void exportedModelsPassTheOnnxChecker() throws IOException, InterruptedException {
        assumeTrue(pythonOnnxAvailable(), "python3 with the onnx package is not installed (pip install onnx)");
        List<String> files = new ArrayList<>();
        Tensor images = Tensor.randn(new Generator(1), 2, 3, 8, 8).realize();
        Tensor weight = Tensor.randn(new Generator(2), 4, 3, 3, 3).realize();
        files.add(Onnx.export(in -> List.of(Functional.maxPool2d(Functional.conv2d(in.get(0), weight,
                ConvolutionOptions.defaults().padding(1)).relu(), 2).softmax(1)), List.of(images),
                directory.resolve("cnn.onnx"), ExportOptions.defaults().dynamicBatch()).file().toString());
        for (String fixture : List.of("gpt2-tied-gelu-new", "llama-mqa-head-dim-linear-rope", "bert-tied-gelu",
                "mobilenetv2-tf-padding-stride16", "vit-qkv-bias")) {
            Path folder = HfModelExportTest.root().resolve(fixture);
            PretrainedModel model = AutoModel.load(folder);
            files.add(Onnx.export(model, List.of(Npy.read(folder.resolve("input.npy"))), directory.resolve(fixture + ".onnx"),
                    ExportOptions.defaults().dynamicBatch()).file().toString());
        }
        files.add(Onnx.export(in -> List.of(in.get(0).max(new int[] {1}, true), in.get(0).cast(dev.ein4j.ir.DType.INT32)),
                List.of(images), directory.resolve("opset18.onnx"), ExportOptions.defaults().opset(18)).file().toString());
        List<String> command = new ArrayList<>(List.of("python3", "-c", CHECK));
        command.addAll(files);
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor(120, TimeUnit.SECONDS)).isTrue();
        assertThat(process.exitValue()).as(output).isZero();
        assertThat(output.lines().filter(line -> line.startsWith("checked") || line.startsWith("newer"))).hasSize(files.size());
        assertThat(output.lines().filter(line -> line.startsWith("checked"))).as(output).hasSizeGreaterThanOrEqualTo(files.size() - 1);
    }

    private static boolean pythonOnnxAvailable() {
        try {
            Process process = new ProcessBuilder("python3", "-c", "import onnx").redirectErrorStream(true).start();
            process.getInputStream().readAllBytes();
            return process.waitFor(60, TimeUnit.SECONDS) && process.exitValue() == 0;
        } catch (IOException | InterruptedException e) {
            return false;
        }
    }
}
