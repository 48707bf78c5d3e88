package dev.ein4j.models;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Typed reads of config.json with transformers' defaults, and errors naming the key and value. */
class ModelConfigTest {

    private static final ModelConfig CONFIG = ModelConfig.parse("models/x/config.json", """
            {"hidden_size": 64, "big": 3e9, "whole": 32.0, "eps": 1e-05, "flag": true, "act": "gelu",
             "pad_token_id": null, "sizes": [1, 2, 3], "image_size": [16, 24], "patch_size": 4,
             "rope_parameters": {"rope_type": "linear", "factor": "two"}, "id2label": {"0": "a", "1": "b", "2": "c"}}""");

    @Test
    void valuesAreReadWithTheirTypesAndDefaults() {
        assertThat(CONFIG.integer("hidden_size", 1)).isEqualTo(64);
        assertThat(CONFIG.integer("whole", 1)).isEqualTo(32);
        assertThat(CONFIG.integer("absent", 7)).isEqualTo(7);
        assertThat(CONFIG.number("eps", 0)).isEqualTo(1e-5);
        assertThat(CONFIG.bool("flag", false)).isTrue();
        assertThat(CONFIG.string("act", "relu")).isEqualTo("gelu");
        assertThat(CONFIG.integers("sizes", new int[0])).containsExactly(1, 2, 3);
        assertThat(CONFIG.pair("image_size", 224)).containsExactly(16, 24);
        assertThat(CONFIG.pair("patch_size", 16)).containsExactly(4, 4);
        assertThat(CONFIG.pair("absent", 16)).containsExactly(16, 16);
        assertThat(CONFIG.nullableInteger("pad_token_id", 0)).isNull();
        assertThat(CONFIG.nullableInteger("absent", 0)).isZero();
        assertThat(CONFIG.has("pad_token_id")).isFalse();
        assertThat(CONFIG.numLabels()).isEqualTo(3);
        assertThat(ModelConfig.parse("c", "{}").numLabels()).isEqualTo(2);
        assertThat(ModelConfig.parse("c", "{\"num_labels\": 0}").numLabels()).isZero();
        assertThat(CONFIG.object("rope_parameters").string("rope_type", "default")).isEqualTo("linear");
        assertThat(CONFIG.object("absent")).isNull();
    }

    @Test
    void wrongTypesAndUnsupportedValuesNameTheFileTheKeyAndTheValue() {
        assertThatThrownBy(() -> CONFIG.integer("big", 0)).isInstanceOf(ModelLoadException.class)
                .hasMessage("models/x/config.json: \"big\" is 3e9, but must be an integer in the int range");
        assertThatThrownBy(() -> CONFIG.integer("eps", 0)).hasMessageContaining("\"eps\" is 1e-05, but must be an integer");
        assertThatThrownBy(() -> CONFIG.bool("act", false)).hasMessageContaining("\"act\" is \"gelu\", but must be true or false");
        assertThatThrownBy(() -> CONFIG.choice("act", "relu", List.of("relu", "silu")))
                .hasMessage("models/x/config.json: \"act\" is \"gelu\", which is not supported (supported: relu, silu)");
        assertThatThrownBy(() -> CONFIG.object("rope_parameters").number("factor", 1))
                .hasMessageContaining("\"rope_parameters.factor\" is \"two\", but must be a number");
        assertThatThrownBy(() -> CONFIG.positiveInteger("absent", 0)).hasMessageContaining("\"absent\" is absent, must be a positive integer");
        assertThatThrownBy(() -> CONFIG.pair("sizes", 1)).hasMessageContaining("must be an integer or [height, width]");
        assertThatThrownBy(() -> CONFIG.strings("act")).hasMessageContaining("must be an array of strings");
        assertThatThrownBy(() -> ModelConfig.parse("c", "{\"a\": 1,}x")).isInstanceOf(ModelLoadException.class)
                .hasMessageStartingWith("c: not valid JSON");
    }
}
