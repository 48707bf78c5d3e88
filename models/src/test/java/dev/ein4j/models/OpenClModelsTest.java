package dev.ein4j.models;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ein4j.backend.Backends;
import dev.ein4j.nn.io.Npy;
import dev.ein4j.tensor.Tensor;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The smallest fixture folder of each model family on the {@code opencl} backend (PoCL in CI, a GPU
 * where there is one): loaded with {@link AutoModel}, its logits equal transformers' within the
 * tolerance of {@link HfFixturesTest}. Skipped visibly where no OpenCL device exists, unless
 * {@code -Dopencl.required=true} (CI) makes that a failure.
 */
class OpenClModelsTest {

    private static final String OPENCL = "opencl";

    static List<String> smallestOfEachFamily() {
        return List.of("gpt2-quick-gelu-unscaled", "llama-llama3-rope-bf16", "bert-untied-relu",
                "vit-no-qkv-bias-fp16", "resnet-bottleneck-gelu", "convnext-no-layer-scale-silu", "mobilenetv2-tf-padding-stride16");
    }

    @BeforeAll
    static void requireADevice() {
        boolean available = Backends.available().contains(OPENCL);
        if (Boolean.getBoolean("opencl.required")) {
            assertThat(available).as("opencl.required=true, but the opencl backend is unavailable").isTrue();
        }
        Assumptions.assumeTrue(available, "no OpenCL device");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("smallestOfEachFamily")
    void logitsMatchTransformersOnOpenCl(String name) {
        String previous = Backends.current().name();
        try {
            Backends.use(OPENCL);
            Path folder = HfFolders.folder(name);
            Tensor logits = AutoModel.load(folder).forward(Npy.read(folder.resolve("input.npy")));
            HfFixturesTest.assertClose(logits, Npy.read(folder.resolve("logits.npy")), null, name + " on opencl");
        } finally {
            Backends.use(previous);
        }
    }
}
