package dev.ein4j.onnx;

import dev.ein4j.tensor.Ein;
import dev.ein4j.tensor.Generator;
import dev.ein4j.tensor.Tensor;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SmokeTest {
    @TempDir
    Path dir;

    @Test
    void linear() {
        Tensor x = Tensor.randn(new Generator(1), 2, 5, 6).realize();
        Tensor w = Tensor.randn(new Generator(2), 7, 6).realize();
        Path file = Path.of("/tmp/m.onnx");
        ExportedModel exported = Onnx.export(in -> List.of(Ein.einsum("b t i, o i -> b t o", in.get(0), w).relu().softmax(-1)),
                List.of(x), file);
        System.out.println(exported);
        Tensor expected = Ein.einsum("b t i, o i -> b t o", x, w).relu().softmax(-1);
        OnnxRuntime.assertAgrees("linear", expected, OnnxRuntime.run(file, List.of(x)).get(0), 1e-5);
    }
}
