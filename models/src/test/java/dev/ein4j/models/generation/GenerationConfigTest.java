package dev.ein4j.models.generation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ein4j.models.HfFolders;
import dev.ein4j.models.ModelLoadException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Stop and pad tokens as transformers' generate finds them in a folder. */
class GenerationConfigTest {

    @TempDir
    Path directory;

    @Test
    void configJsonsEndTokenPadsWhenThereIsNoPadToken() {
        assertThat(GenerationConfig.read(HfFolders.folder("llama-gqa-biases"))).isEqualTo(GenerationConfig.stoppingAt(1));
        assertThat(GenerationConfig.read(HfFolders.folder("llama-gqa-biases")).padTokenId()).isEqualTo(1);
    }

    @Test
    void generationConfigJsonWinsKeyByKey() throws IOException {
        Path folder = HfFolders.copy("gpt2-untied-relu", directory);
        Files.writeString(folder.resolve(GenerationConfig.FILE), "{\"eos_token_id\": [3, 4], \"pad_token_id\": 7}");
        GenerationConfig both = GenerationConfig.read(folder);
        assertThat(both.eosTokenIds()).containsExactly(3, 4);
        assertThat(both.padTokenId()).isEqualTo(7);
        assertThat(both.isEndOfSequence(4)).isTrue();
        assertThat(both.isEndOfSequence(0)).isFalse();
        Files.writeString(folder.resolve(GenerationConfig.FILE), "{\"pad_token_id\": 7}");
        assertThat(GenerationConfig.read(folder)).as("eos from config.json").isEqualTo(new GenerationConfig(new int[] {0}, 7));
    }

    @Test
    void withoutAnEndTokenInTheConfigsTheTokenizersIsUsed() {
        Path folder = TinyGpt2.write(directory, "gpt2-byte-level", 701, ", \"pad_token_id\": null");
        assertThat(GenerationConfig.read(folder)).isEqualTo(GenerationConfig.stoppingAt(0));
    }

    @Test
    void withoutAnyEndTokenNothingStops() throws IOException {
        Path folder = TinyGpt2.write(directory, "gpt2-byte-level", 701, "");
        Files.delete(folder.resolve("tokenizer.json"));
        assertThat(GenerationConfig.read(folder)).isEqualTo(GenerationConfig.NONE);
        assertThat(GenerationConfig.NONE.eosTokenIds()).isEmpty();
    }

    @Test
    void settingsTransformersWouldApplyAndThisLibraryDoesNotAreListed() throws IOException {
        Path folder = HfFolders.copy("gpt2-untied-relu", directory);
        assertThat(GenerationConfig.unappliedSettings(folder)).as("no generation_config.json").isEmpty();
        Files.writeString(folder.resolve(GenerationConfig.FILE), "{\"eos_token_id\": 0, \"repetition_penalty\": 1.0, "
                + "\"num_beams\": 1, \"do_sample\": false, \"bad_words_ids\": null}");
        assertThat(GenerationConfig.unappliedSettings(folder)).as("neutral values").isEmpty();
        Files.writeString(folder.resolve(GenerationConfig.FILE), "{\"repetition_penalty\": 1.3, \"num_beams\": 4, "
                + "\"do_sample\": true, \"top_k\": 20, \"suppress_tokens\": [5]}");
        assertThat(GenerationConfig.unappliedSettings(folder))
                .containsExactly("repetition_penalty=1.3", "num_beams=4", "do_sample=true", "suppress_tokens=set");
    }

    @Test
    void malformedValuesAreClearErrors() throws IOException {
        Path folder = HfFolders.copy("gpt2-untied-relu", directory);
        Files.writeString(folder.resolve(GenerationConfig.FILE), "{\"eos_token_id\": \"end\"}");
        assertThatThrownBy(() -> GenerationConfig.read(folder)).isInstanceOf(ModelLoadException.class)
                .hasMessageContaining(GenerationConfig.FILE).hasMessageContaining("\"eos_token_id\" is \"end\", but must be an integer");
        Files.writeString(folder.resolve(GenerationConfig.FILE), "[1]");
        assertThatThrownBy(() -> GenerationConfig.read(folder)).isInstanceOf(ModelLoadException.class)
                .hasMessageContaining("must be a JSON object");
        assertThatThrownBy(() -> GenerationConfig.read(directory.resolve("absent"))).isInstanceOf(ModelLoadException.class)
                .hasMessageContaining("config.json: no such file");
        assertThatThrownBy(() -> new GenerationConfig(new int[] {-2}, 0)).isInstanceOf(ModelLoadException.class)
                .hasMessageContaining("must not be negative, got -2");
        assertThatThrownBy(() -> new GenerationConfig(new int[] {2}, -1)).isInstanceOf(ModelLoadException.class)
                .hasMessageContaining("pad token id must be at least 0");
    }
}
