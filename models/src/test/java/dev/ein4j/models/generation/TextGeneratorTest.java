package dev.ein4j.models.generation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ein4j.error.EinopsException;
import dev.ein4j.error.ShapeException;
import dev.ein4j.models.AutoModel;
import dev.ein4j.models.HfFolders;
import dev.ein4j.models.ModelLoadException;
import dev.ein4j.models.PretrainedModel;
import dev.ein4j.models.tokenizer.Tokenizer;
import dev.ein4j.tensor.Generator;
import dev.ein4j.tensor.Tensor;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Generation beyond the greedy fixtures: sampling reproducible for a seed, stop tokens and padding in
 * a batch, the streaming listener, the text form with a tokenizer, and clear errors.
 */
class TextGeneratorTest {

    @TempDir
    Path directory;

    private static final PretrainedModel LLAMA = AutoModel.load(HfFolders.folder("llama-gqa-biases"));
    private static final Tensor PROMPT = Tensor.of(new int[] {5, 17, 3, 44, 9, 2, 61, 8}, 2, 4);

    private static int[] sampled(long seed) {
        GenerationOptions options = GenerationOptions.sampling(10, new Generator(seed)).temperature(1.5).topK(40).topP(0.95)
                .stopTokens(GenerationConfig.NONE);
        return TextGenerator.of(LLAMA).generate(PROMPT, options).toIntArray();
    }

    @Test
    void samplingIsReproducibleForASeedAndDiffersForAnother() {
        int[] first = sampled(7);
        assertThat(first).hasSize(2 * 14);
        assertThat(Arrays.copyOfRange(first, 0, 4)).containsExactly(5, 17, 3, 44);
        assertThat(sampled(7)).as("the same seed").containsExactly(first);
        assertThat(sampled(8)).as("another seed").isNotEqualTo(first);
        int[] greedy = TextGenerator.of(LLAMA).generate(PROMPT, GenerationOptions.greedy(10).stopTokens(GenerationConfig.NONE))
                .toIntArray();
        assertThat(first).as("sampling at temperature 1.5 leaves the greedy path").isNotEqualTo(greedy);
    }

    @Test
    void topKOfOneSamplesTheGreedyTokens() {
        GenerationOptions one = GenerationOptions.sampling(10, new Generator(3)).temperature(2.0).topK(1)
                .stopTokens(GenerationConfig.NONE);
        int[] greedy = TextGenerator.of(LLAMA).generate(PROMPT, GenerationOptions.greedy(10).stopTokens(GenerationConfig.NONE))
                .toIntArray();
        assertThat(TextGenerator.of(LLAMA).generate(PROMPT, one).toIntArray()).containsExactly(greedy);
    }

    @Test
    void aStopTokenFinishesItsSequenceWhichIsPaddedWhileTheOthersRun() {
        TextGenerator generator = TextGenerator.of(LLAMA);
        int[] free = generator.generate(PROMPT, GenerationOptions.greedy(10).stopTokens(GenerationConfig.NONE)).toIntArray();
        int stop = free[4 + 2];   // the first sequence's third new token
        int pad = 99;
        int[] stopped = generator.generate(PROMPT, GenerationOptions.greedy(10).stopTokens(new GenerationConfig(new int[] {stop}, pad)))
                .toIntArray();
        int[][] expected = new int[2][];
        int longest = 4;
        for (int b = 0; b < 2; b++) {
            int[] row = Arrays.copyOfRange(free, b * 14, b * 14 + 14);
            int end = 14;
            for (int i = 4; i < 14; i++) {
                if (row[i] == stop) {
                    end = i + 1;
                    break;
                }
            }
            for (int i = end; i < 14; i++) {
                row[i] = pad;
            }
            expected[b] = row;
            longest = Math.max(longest, end);
        }
        assertThat(longest).as("the second sequence runs past the first's stop in this fixture").isGreaterThan(7);
        int[] flat = new int[2 * longest];
        for (int b = 0; b < 2; b++) {
            System.arraycopy(expected[b], 0, flat, b * longest, longest);
        }
        assertThat(stopped).containsExactly(flat);
        assertThat(stopped[7]).isEqualTo(pad);
    }

    @Test
    void whenEverySequenceHasStoppedTheCallEndsEarly() {
        TextGenerator generator = TextGenerator.of(LLAMA);
        Tensor one = PROMPT.slice(0, 0, 1).contiguous();
        int[] free = generator.generate(one, GenerationOptions.greedy(10).stopTokens(GenerationConfig.NONE)).toIntArray();
        Tensor stopped = generator.generate(one, GenerationOptions.greedy(10).stopTokens(GenerationConfig.stoppingAt(free[5], 1000)));
        assertThat(stopped.shape()).containsExactly(1, 6);
        assertThat(stopped.toIntArray()).containsExactly(Arrays.copyOf(free, 6));
    }

    @Test
    void theListenerHearsEachStepsTokensInOrder() {
        List<int[]> heard = new ArrayList<>();
        Tensor generated = TextGenerator.of(LLAMA).generate(PROMPT, GenerationOptions.greedy(5).stopTokens(GenerationConfig.NONE)
                .listener(heard::add));
        int[] ids = generated.toIntArray();
        assertThat(heard).hasSize(5);
        for (int step = 0; step < 5; step++) {
            assertThat(heard.get(step)).containsExactly(ids[4 + step], ids[9 + 4 + step]);
        }
    }

    @Test
    void noNewTokensGivesThePromptBack() {
        assertThat(TextGenerator.of(LLAMA).generate(PROMPT, GenerationOptions.greedy(0)).toIntArray())
                .containsExactly(PROMPT.toIntArray());
    }

    @Test
    void theTextFormStreamsWhatTheTokenizerDecodesAndStopsAtTheTokenizersEndToken() {
        Path folder = TinyGpt2.write(directory, "gpt2-byte-level", 701, "");
        TextGenerator generator = TextGenerator.load(folder);
        Tokenizer tokenizer = generator.tokenizer().orElseThrow();
        assertThat(generator.defaults()).as("config.json has no eos_token_id: the tokenizer's <|endoftext|>")
                .isEqualTo(GenerationConfig.stoppingAt(0));
        String prompt = "Hello 🌍 world";
        List<String> pieces = new ArrayList<>();
        String text = generator.generateText(prompt, GenerationOptions.sampling(12, new Generator(5)).temperature(0.9), pieces::add);
        int[] promptIds = tokenizer.encode(prompt);
        int[] all = generator.generate(Tensor.of(promptIds, 1, promptIds.length),
                GenerationOptions.sampling(12, new Generator(5)).temperature(0.9)).toIntArray();
        int[] continuation = Arrays.copyOfRange(all, promptIds.length, all.length);
        assertThat(continuation).isNotEmpty();
        assertThat(String.join("", pieces)).isEqualTo(text).isEqualTo(tokenizer.decode(continuation, true));
        assertThat(pieces.size()).as("streamed piece by piece").isGreaterThan(1);
    }

    @Test
    void badPromptsModelsAndOptionsAreClearErrors() {
        TextGenerator generator = TextGenerator.of(LLAMA);
        GenerationOptions options = GenerationOptions.greedy(3);
        assertThatThrownBy(() -> generator.generate(Tensor.zeros(1, 3), options)).isInstanceOf(ShapeException.class)
                .hasMessageContaining("prompt ids must be int32 [batch, tokens] with at least one token, got float32[1, 3]");
        assertThatThrownBy(() -> generator.generate(Tensor.of(new int[] {1, 2}), options)).isInstanceOf(ShapeException.class);
        assertThatThrownBy(() -> generator.generate(Tensor.of(new int[] {1, 500}, 1, 2), options)).isInstanceOf(EinopsException.class)
                .hasMessageContaining("prompt id [0, 1] is 500, outside the vocabulary [0, 100)");
        assertThatThrownBy(() -> generator.generate(PROMPT, options.stopTokens(new GenerationConfig(new int[] {1}, 100))))
                .isInstanceOf(EinopsException.class).hasMessageContaining("the pad token 100").hasMessageContaining("[0, 100)");
        PretrainedModel gpt2 = AutoModel.load(HfFolders.folder("gpt2-quick-gelu-unscaled"));   // 10 positions
        Tensor five = Tensor.of(new int[] {1, 2, 3, 4, 5}, 1, 5);
        assertThat(TextGenerator.of(gpt2).generate(five, GenerationOptions.greedy(6).stopTokens(GenerationConfig.NONE)).shape())
                .containsExactly(1, 11);
        assertThatThrownBy(() -> TextGenerator.of(gpt2).generate(five, GenerationOptions.greedy(7)))
                .isInstanceOf(ShapeException.class)
                .hasMessageContaining("5 prompt tokens and 7 new ones need 11 positions, but the model has learned 10");
        assertThatThrownBy(() -> TextGenerator.of(AutoModel.load(HfFolders.folder("bert-untied-relu"))))
                .isInstanceOf(ModelLoadException.class)
                .hasMessageContaining("BertForMaskedLM is not a causal language model");
        assertThatThrownBy(() -> generator.generateText("hi", options, piece -> { }))
                .isInstanceOf(EinopsException.class).hasMessageContaining("needs a tokenizer");

        assertThatThrownBy(() -> GenerationOptions.greedy(-1)).hasMessageContaining("must not be negative");
        assertThatThrownBy(() -> options.temperature(0.5)).isInstanceOf(EinopsException.class)
                .hasMessageContaining("temperature shapes sampling, but these options are greedy");
        GenerationOptions sampling = GenerationOptions.sampling(3, new Generator(1));
        assertThatThrownBy(() -> sampling.temperature(0)).hasMessageContaining("positive finite");
        assertThatThrownBy(() -> sampling.temperature(Double.NaN)).hasMessageContaining("positive finite");
        assertThatThrownBy(() -> sampling.topK(-1)).hasMessageContaining("top-k must be at least 1 (0: none)");
        assertThatThrownBy(() -> sampling.topP(0)).hasMessageContaining("top-p must be in (0, 1]");
        assertThatThrownBy(() -> sampling.topP(1.5)).hasMessageContaining("top-p must be in (0, 1]");
        assertThat(sampling.temperature(0.5).topK(3).topP(0.9)).satisfies(o -> {
            assertThat(o.temperature()).isEqualTo(0.5);
            assertThat(o.topK()).isEqualTo(3);
            assertThat(o.topP()).isEqualTo(0.9);
            assertThat(o.isSampling()).isTrue();
        });
        assertThat(sampling.topK()).as("a copy each time").isZero();
    }
}
