package dev.ein4j.onnx;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ein4j.onnx.testing.OnnxRuntime;
import dev.ein4j.tensor.Tensor;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Function;

/** Exports a function, runs it in ONNX Runtime, and compares every output with ein4j's. */
final class Exports {

    private Exports() {
    }

    /**
     * @param directory where the model goes
     * @param what the case
     * @param function the function
     * @param inputs its inputs (also the inputs ONNX Runtime is fed)
     * @param options the export options
     * @return what was exported
     */
    static ExportedModel agree(Path directory, String what, Function<List<Tensor>, List<Tensor>> function,
            List<Tensor> inputs, ExportOptions options) {
        Path file = directory.resolve(what.replaceAll("[^A-Za-z0-9]+", "_") + ".onnx");
        ExportedModel exported = Onnx.export(function, inputs, file, options);
        List<Tensor> expected = function.apply(inputs);
        List<OnnxRuntime.Output> outputs = OnnxRuntime.run(file, inputs);
        assertThat(outputs).as(what).hasSize(expected.size());
        for (int i = 0; i < expected.size(); i++) {
            OnnxRuntime.assertAgrees(what + " output " + i, expected.get(i), outputs.get(i),
                    OnnxRuntime.tolerance(expected.get(i).dtype()));
        }
        return exported;
    }

    /** With the default options. */
    static ExportedModel agree(Path directory, String what, Function<List<Tensor>, List<Tensor>> function, Tensor... inputs) {
        return agree(directory, what, function, List.of(inputs), ExportOptions.defaults());
    }
}
