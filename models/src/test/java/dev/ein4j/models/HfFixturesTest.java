package dev.ein4j.models;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ein4j.backend.Backends;
import dev.ein4j.nn.io.Npy;
import dev.ein4j.tensor.Tensor;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every fixture folder (a transformers model saved with save_pretrained, its input and its logits
 * computed by transformers 5.18.0 in float32) loads with {@link AutoModel} and gives the same logits,
 * and the same under an attention mask with padding where the fixture has one.
 */
class HfFixturesTest {

    /** float32 through a few layers: transformers and this library sum in different orders. */
    private static final double TOLERANCE = 1e-4;

    static List<String> fixtures() {
        return HfFolders.names();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("fixtures")
    void logitsMatchTransformers(String name) {
        Path folder = HfFolders.folder(name);
        PretrainedModel model = AutoModel.load(folder);
        assertThat(model.isTraining()).isFalse();
        Tensor input = Npy.read(folder.resolve("input.npy"));
        Tensor logits = model.forward(input);
        assertClose(logits, Npy.read(folder.resolve("logits.npy")), null, name);
        if (Files.exists(folder.resolve("attention_mask.npy"))) {
            Tensor mask = Npy.read(folder.resolve("attention_mask.npy"));
            Tensor masked = ((LanguageModel) model).logits(input, mask);
            assertClose(masked, Npy.read(folder.resolve("masked_logits.npy")), mask.toIntArray(), name + " with padding");
            assertThat(maxDifference(masked, logits.toFloatArray(), mask.toIntArray()))
                    .as("the mask changes the logits of %s", name).isGreaterThan(1e-3);
        }
    }

    @Test
    void theSmallestModelsOfEachKindAlsoMatchOnTheReferenceBackend() {
        String previous = Backends.current().name();
        try {
            Backends.use("reference");
            for (String name : List.of("gpt2-quick-gelu-unscaled", "llama-llama3-rope-bf16", "bert-untied-relu",
                    "vit-no-qkv-bias-fp16", "resnet-bottleneck-gelu", "convnext-no-layer-scale-silu")) {
                Path folder = HfFolders.folder(name);
                Tensor logits = AutoModel.load(folder).forward(Npy.read(folder.resolve("input.npy")));
                assertClose(logits, Npy.read(folder.resolve("logits.npy")), null, name + " on the reference backend");
            }
        } finally {
            Backends.use(previous);
        }
    }

    /**
     * |actual − expected| ≤ tolerance · max(1, max |expected|) at every position that is not padding.
     *
     * @param tokensKept the attention mask [b, t] (rows of [b, t, V] at zeros are skipped), or null
     */
    static void assertClose(Tensor actual, Tensor expected, int[] tokensKept, String what) {
        assertThat(actual.shape()).as("shape of %s", what).isEqualTo(expected.shape());
        float[] reference = expected.toFloatArray();
        double scale = 1;
        for (float value : reference) {
            scale = Math.max(scale, Math.abs(value));
        }
        double difference = maxDifference(actual, reference, tokensKept);
        assertThat(difference).as("largest difference of %s (scale %.3g)", what, scale).isLessThanOrEqualTo(TOLERANCE * scale);
    }

    private static double maxDifference(Tensor actual, float[] reference, int[] tokensKept) {
        float[] values = actual.toFloatArray();
        int row = tokensKept == null ? values.length : values.length / tokensKept.length;
        double difference = 0;
        for (int i = 0; i < values.length; i++) {
            if (tokensKept == null || tokensKept[i / row] != 0) {
                double gap = Math.abs(values[i] - reference[i]);
                difference = Double.isNaN(gap) ? Double.POSITIVE_INFINITY : Math.max(difference, gap);
            }
        }
        return difference;
    }

    static String describe(Tensor tensor) {
        return tensor.dtype().numpyName() + Arrays.toString(tensor.shape());
    }
}
