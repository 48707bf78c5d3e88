package dev.ein4j.models.generation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ein4j.backend.Backends;
import dev.ein4j.error.EinopsException;
import dev.ein4j.error.ShapeException;
import dev.ein4j.ir.DType;
import dev.ein4j.kernel.Kernel;
import dev.ein4j.models.AutoModel;
import dev.ein4j.models.HfFolders;
import dev.ein4j.models.LanguageModel;
import dev.ein4j.models.PretrainedModel;
import dev.ein4j.nn.io.Npy;
import dev.ein4j.runtime.RuntimeContext;
import dev.ein4j.tensor.Generator;
import dev.ein4j.tensor.GradientMode;
import dev.ein4j.tensor.Tensor;
import dev.ein4j.tensor.TensorScope;
import dev.ein4j.testing.CountingBackend;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The key/value cache: steps through the cache give the logits of recomputing the whole sequence
 * (every causal family, a prompt, a chunk of two tokens and single tokens), a step writes only its
 * new elements in place, decode steps replay one schedule, and a generation releases what it made.
 */
class KeyValueCacheTest {

    /** float32 through a few layers, summed in different orders, as HfFixturesTest. */
    private static final double TOLERANCE = 1e-4;

    static List<String> causalFixtures() {
        return GenerationFixturesTest.causalFixtures();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("causalFixtures")
    void cachedStepsGiveTheLogitsOfTheWholeSequence(String name) {
        PretrainedModel loaded = AutoModel.load(HfFolders.folder(name));
        CausalLanguageModel model = (CausalLanguageModel) loaded;
        Tensor ids = Npy.read(HfFolders.folder(name).resolve("input.npy"));
        int length = ids.length(1);
        float[] whole = ((LanguageModel) loaded).logits(ids).toFloatArray();
        int vocabulary = model.vocabularySize();
        int[] cuts = {0, 3, 5};           // the prompt (3 tokens), a chunk of 2, then one token at a time
        List<int[]> steps = new ArrayList<>();
        for (int start = 0; start < length; ) {
            int end = start == cuts[0] ? cuts[1] : start == cuts[1] ? cuts[2] : start + 1;
            steps.add(new int[] {start, end});
            start = end;
        }
        GradientMode.noGrad(() -> {
            try (KeyValueCache cache = model.allocateCache(ids.length(0), length)) {
                for (int[] step : steps) {
                    try (TensorScope scope = Tensor.scope()) {
                        Tensor chunk = ids.slice(1, step[0], step[1]).contiguous();
                        float[] cached = model.logits(chunk, DecodeStep.of(cache, step[0], step[1] - step[0])).toFloatArray();
                        assertCloseToSlice(cached, whole, ids.length(0), length, vocabulary, step, name);
                    }
                }
            }
            return null;
        });
    }

    private static void assertCloseToSlice(float[] cached, float[] whole, int batch, int length, int vocabulary, int[] step,
            String name) {
        int tokens = step[1] - step[0];
        double scale = 1;
        double difference = 0;
        for (int b = 0; b < batch; b++) {
            for (int t = 0; t < tokens; t++) {
                for (int v = 0; v < vocabulary; v++) {
                    float expected = whole[(b * length + step[0] + t) * vocabulary + v];
                    scale = Math.max(scale, Math.abs(expected));
                    difference = Math.max(difference, Math.abs(cached[(b * tokens + t) * vocabulary + v] - expected));
                }
            }
        }
        assertThat(difference).as("%s, positions %d to %d (scale %.3g)", name, step[0], step[1] - 1, scale)
                .isLessThanOrEqualTo(TOLERANCE * scale);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("causalFixtures")
    void greedyTokensWithTheCacheEqualRecomputingTheSequenceForEachToken(String name) {
        PretrainedModel model = AutoModel.load(HfFolders.folder(name));
        int vocabulary = ((LanguageModel) model).vocabularySize();
        int[] sequence = {3, 1, 4, 1, 5};
        int steps = Math.min(6, ((LanguageModel) model).maxPositions() - sequence.length + 1);
        int[] cached = TextGenerator.of(model).generate(Tensor.of(sequence, 1, sequence.length),
                GenerationOptions.greedy(steps).stopTokens(GenerationConfig.NONE)).toIntArray();
        for (int step = 0; step < steps; step++) {
            float[] logits = ((LanguageModel) model).logits(Tensor.of(sequence, 1, sequence.length)).toFloatArray();
            int next = TokenSampler.argmax(logits, (sequence.length - 1) * vocabulary, vocabulary);
            sequence = Arrays.copyOf(sequence, sequence.length + 1);
            sequence[sequence.length - 1] = next;
        }
        assertThat(cached).as(name).containsExactly(sequence);
    }

    @Test
    void decodeStepsAfterTheFirstReplayItsSchedule() {
        PretrainedModel model = AutoModel.load(HfFolders.folder("llama-gqa-biases"));
        List<RuntimeContext.Statistics> afterStep = new ArrayList<>();
        GenerationOptions options = GenerationOptions.greedy(8).stopTokens(GenerationConfig.NONE)
                .listener(tokens -> afterStep.add(RuntimeContext.global().statistics()));
        Tensor prompt = Tensor.of(new int[] {5, 17, 3, 44, 9, 2, 61, 8}, 2, 4);
        TextGenerator.of(model).generate(prompt, options);
        assertThat(afterStep).hasSize(8);
        RuntimeContext.Statistics decoding = afterStep.get(7).since(afterStep.get(1));
        assertThat(decoding.schedulesBuilt()).as("decode steps 2 to 7 build no schedule").isZero();
        assertThat(decoding.scheduleHits()).as("they replay: one realization per layer's projection, one per cache write, "
                + "one for the logits").isEqualTo(6 * (2 * 2 + 1));
    }

    @Test
    void aStepWritesOnlyItsKeysAndValuesInPlace() {
        String previous = Backends.current().name();
        CountingBackend counting = (CountingBackend) Backends.use(CountingBackend.NAME);
        try (KeyValueCache cache = KeyValueCache.allocate(2, 2, 3, 4, 6)) {
            Generator generator = new Generator(4);
            Tensor keys = Tensor.randn(generator, 2, 3, 1, 4).realize();
            Tensor values = Tensor.randn(generator, 2, 3, 1, 4).realize();
            counting.reset();
            cache.write(1, KeyValueCache.positions(2, 1), keys, values);
            assertThat(counting.allocations()).as("no buffer: the cache is written in place").isZero();
            assertThat(counting.kernels()).as("one scatter for K, one for V, no copy of the cache").hasSize(2)
                    .allMatch(kernel -> kernel.kind() == Kernel.Kind.SCATTER);
            float[] written = cache.keys(1).toFloatArray();
            float[] expected = keys.toFloatArray();
            for (int row = 0; row < 2 * 3; row++) {
                for (int position = 0; position < 6; position++) {
                    for (int d = 0; d < 4; d++) {
                        float value = written[(row * 6 + position) * 4 + d];
                        assertThat(value).isEqualTo(position == 2 ? expected[row * 4 + d] : 0f);
                    }
                }
            }
            assertThat(cache.values(1).toFloatArray()).contains(values.toFloatArray());
            assertThat(cache.keys(0).toFloatArray()).containsOnly(0f);
        } finally {
            assertThat(counting.doubleReleases()).isZero();
            Backends.use(previous);
        }
    }

    @Test
    void aGenerationReleasesEverythingItAllocates() {
        String previous = Backends.current().name();
        CountingBackend counting = (CountingBackend) Backends.use(CountingBackend.NAME);
        try {
            PretrainedModel model = AutoModel.load(HfFolders.folder("gpt2-quick-gelu-unscaled"));
            Tensor prompt = Tensor.of(new int[] {5, 17, 3, 44, 9, 2}, 2, 3).realize();
            TextGenerator generator = TextGenerator.of(model);
            generator.generate(prompt, GenerationOptions.greedy(2)).close(); // weights and lazy constants in place
            long live = counting.liveBytes();
            counting.reset();
            Tensor generated = generator.generate(prompt, GenerationOptions.sampling(5, new Generator(3)).topK(10));
            assertThat(generated.shape()).containsExactly(2, 8);
            generated.close();
            assertThat(counting.allocations()).as("the cache and the steps' tensors were allocated").isPositive();
            assertThat(counting.liveBytes()).as("and released when the call returned").isEqualTo(live);
            assertThat(counting.doubleReleases()).isZero();
        } finally {
            Backends.use(previous);
        }
    }

    @Test
    void misuseIsAClearError() {
        assertThatThrownBy(() -> KeyValueCache.allocate(2, 0, 3, 4, 6)).isInstanceOf(EinopsException.class)
                .hasMessageContaining("batch 0");
        KeyValueCache cache = KeyValueCache.allocate(2, 1, 2, 4, 6);
        Tensor keys = Tensor.zeros(1, 2, 1, 4);
        assertThatThrownBy(() -> cache.write(0, KeyValueCache.positions(0, 1), Tensor.zeros(1, 2, 1, 5), keys))
                .isInstanceOf(ShapeException.class).hasMessageContaining("[1, 2, t, 4], t at most 6");
        assertThatThrownBy(() -> cache.write(0, Tensor.zeros(1), keys, keys)).isInstanceOf(ShapeException.class)
                .hasMessageContaining("int32 [t]");
        assertThatThrownBy(() -> cache.keys(2)).isInstanceOf(EinopsException.class).hasMessageContaining("layer 2 is outside");
        assertThatThrownBy(() -> DecodeStep.of(cache, 5, 2)).isInstanceOf(EinopsException.class)
                .hasMessageContaining("positions 5 to 6 do not fit a key/value cache of 6 positions");
        cache.close();
        assertThat(cache.isClosed()).isTrue();
        cache.close();
        assertThatThrownBy(() -> cache.values(0)).isInstanceOf(EinopsException.class).hasMessageContaining("closed");
        assertThat(KeyValueCache.positions(4, 3).toIntArray()).containsExactly(4, 5, 6);
        assertThat(Tensor.full(1, DType.INT32, 1).dtype()).isEqualTo(DType.INT32);
    }
}
