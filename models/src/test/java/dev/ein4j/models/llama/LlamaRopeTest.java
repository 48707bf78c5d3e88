package dev.ein4j.models.llama;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ein4j.models.ModelConfig;
import dev.ein4j.models.ModelLoadException;
import org.junit.jupiter.api.Test;

/**
 * The inverse frequencies of each rope type against transformers 5.18's ROPE_INIT_FUNCTIONS
 * (hidden 64, 4 heads: head_dim 16), and the older config keys.
 */
class LlamaRopeTest {

    private static double[] frequencies(String json, int sequenceLength) {
        ModelConfig config = ModelConfig.parse("config.json", json);
        float[] values = LlamaRope.from(config, 16, config.integer("max_position_embeddings", 2048)).embedding(sequenceLength)
                .inverseFrequency().toFloatArray();
        double[] widened = new double[values.length];
        for (int i = 0; i < values.length; i++) {
            widened[i] = values[i];
        }
        return widened;
    }

    private static void assertFrequencies(double[] actual, double... expected) {
        assertThat(actual).hasSameSizeAs(expected);
        for (int i = 0; i < expected.length; i++) {
            assertThat(actual[i]).as("inv_freq[%d]", i).isCloseTo(expected[i], org.assertj.core.data.Percentage.withPercentage(1e-4));
        }
    }

    @Test
    void llama3ScalesLowFrequenciesAndSmoothsTheMiddleBand() {
        assertFrequencies(frequencies("""
                {"max_position_embeddings": 8, "rope_parameters": {"rope_type": "llama3", "factor": 8.0,
                 "low_freq_factor": 1.0, "high_freq_factor": 4.0, "original_max_position_embeddings": 64, "rope_theta": 10000.0}}""", 4),
                1.0, 0.24438458681106567, 0.013042256236076355, 0.0039528473280370235, 0.0012499999720603228,
                0.00039528473280370235, 0.0001250000059371814, 3.9528473280370235e-05);
    }

    @Test
    void dynamicScalingDependsOnTheSequenceBeyondTheMaximumPositions() {
        String json = """
                {"max_position_embeddings": 8, "rope_parameters": {"rope_type": "dynamic", "factor": 2.0, "rope_theta": 100.0}}""";
        assertFrequencies(frequencies(json, 20), 1.0, 0.46130847930908203, 0.21280549466609955, 0.0981689840555191,
                0.045286182314157486, 0.020890899002552032, 0.009637149050831795, 0.004445698577910662);
        assertFrequencies(frequencies(json, 5), 1.0, 0.5623413324356079, 0.3162277638912201, 0.17782793939113617,
                0.10000000149011612, 0.05623412877321243, 0.03162277862429619, 0.017782794311642647);
    }

    @Test
    void linearScalingFromTheOlderRopeScalingAndRopeThetaKeys() {
        double[] expected = {0.25, 0.11496581882238388, 0.0528685599565506, 0.02431231178343296, 0.011180340312421322,
            0.005141428206115961, 0.0023643539752811193, 0.0010872796410694718};
        assertFrequencies(frequencies("""
                {"rope_parameters": {"rope_type": "linear", "factor": 4.0, "rope_theta": 500.0}}""", 4), expected);
        assertFrequencies(frequencies("""
                {"rope_theta": 500.0, "rope_scaling": {"type": "linear", "factor": 4.0}}""", 4), expected);
    }

    @Test
    void missingOrBadParametersNameTheirKey() {
        assertThatThrownBy(() -> frequencies("{\"rope_parameters\": {\"rope_type\": \"linear\"}}", 4))
                .isInstanceOf(ModelLoadException.class).hasMessageContaining("\"rope_parameters.factor\" is absent");
        assertThatThrownBy(() -> frequencies("{\"rope_theta\": -1}", 4))
                .isInstanceOf(ModelLoadException.class).hasMessageContaining("\"rope_theta\" is -1, but it must be a finite positive number");
        assertThatThrownBy(() -> frequencies("""
                {"rope_parameters": {"rope_type": "llama3", "factor": 8, "low_freq_factor": 4, "high_freq_factor": 1}}""", 4))
                .isInstanceOf(ModelLoadException.class).hasMessageContaining("0 < low_freq_factor < high_freq_factor");
        assertThatThrownBy(() -> frequencies("""
                {"rope_parameters": {"rope_type": "linear", "factor": 2, "partial_rotary_factor": 0.5}}""", 4))
                .isInstanceOf(ModelLoadException.class).hasMessageContaining("Llama rotates whole heads");
    }
}
