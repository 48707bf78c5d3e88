package dev.ein4j.models.generation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import dev.ein4j.error.EinopsException;
import dev.ein4j.tensor.Generator;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/**
 * The host-side choice of a token: the warpers against transformers' (processors.json, written by
 * generate_generation_fixtures.py: temperature, top-k with ties, top-p, in generate()'s order), the
 * greedy argmax, and the draw by the inverse of the cumulative distribution.
 *
 * <p>Top-p sorts the scores, and which of several equal logits at its boundary is removed depends on
 * the order torch's (unstable) sort gives ties, which is not specified: on rows with repeated logits a
 * top-p case is compared as a multiset of probabilities (the same count removed, the same values
 * kept), every other case token by token.
 */
class TokenSamplerTest {

    @Test
    void warpedDistributionsEqualTransformers() throws IOException {
        JsonObject fixture;
        try (InputStream in = TokenSamplerTest.class.getResourceAsStream("/generation/processors.json")) {
            fixture = JsonParser.parseString(new String(in.readAllBytes(), StandardCharsets.UTF_8)).getAsJsonObject();
        }
        JsonArray rows = fixture.getAsJsonArray("logits");
        int vocabulary = rows.get(0).getAsJsonArray().size();
        float[] logits = new float[rows.size() * vocabulary];
        for (int r = 0; r < rows.size(); r++) {
            JsonArray row = rows.get(r).getAsJsonArray();
            for (int i = 0; i < vocabulary; i++) {
                logits[r * vocabulary + i] = row.get(i).getAsFloat();
            }
        }
        int checked = 0;
        for (JsonElement element : fixture.getAsJsonArray("cases")) {
            JsonObject expected = element.getAsJsonObject();
            GenerationOptions options = GenerationOptions.sampling(1, new Generator(0));
            if (expected.get("temperature").getAsDouble() != 1.0) {
                options = options.temperature(expected.get("temperature").getAsDouble());
            }
            options = options.topK(expected.get("top_k").getAsInt());
            if (expected.get("top_p").getAsDouble() < 1.0) {
                options = options.topP(expected.get("top_p").getAsDouble());
            }
            TokenSampler sampler = new TokenSampler(options);
            for (int r = 0; r < rows.size(); r++) {
                double[] probabilities = TokenSampler.softmax(sampler.scores(logits, r * vocabulary, vocabulary));
                JsonArray kept = expected.getAsJsonArray("kept").get(r).getAsJsonArray();
                JsonArray reference = expected.getAsJsonArray("probabilities").get(r).getAsJsonArray();
                double[] expectedProbabilities = new double[vocabulary];
                for (int i = 0; i < vocabulary; i++) {
                    expectedProbabilities[i] = reference.get(i).getAsDouble();
                }
                String row = options + ", row " + r;
                if (options.topP() < 1 && hasTies(logits, r * vocabulary, vocabulary)) {
                    double[] sorted = probabilities.clone();
                    double[] sortedExpected = expectedProbabilities.clone();
                    Arrays.sort(sorted);
                    Arrays.sort(sortedExpected);
                    assertThat(sorted).as("the kept probabilities of " + row).containsExactly(sortedExpected, within(1e-6));
                } else {
                    for (int i = 0; i < vocabulary; i++) {
                        String what = row + ", token " + i;
                        assertThat(probabilities[i] > 0).as("kept: " + what).isEqualTo(kept.get(i).getAsBoolean());
                        assertThat(probabilities[i]).as(what).isCloseTo(expectedProbabilities[i], within(1e-6));
                    }
                }
                checked++;
            }
        }
        assertThat(checked).isEqualTo(45);
    }

    private static boolean hasTies(float[] logits, int from, int vocabulary) {
        float[] row = Arrays.copyOfRange(logits, from, from + vocabulary);
        Arrays.sort(row);
        for (int i = 1; i < row.length; i++) {
            if (row[i] == row[i - 1]) {
                return true;
            }
        }
        return false;
    }

    @Test
    void greedyTakesTheFirstLargestLogitAndNaNCountsAsLargest() {
        float[] logits = {0, 3, 1, 3, /* row 1 */ 5, Float.NaN, 9, Float.NaN};
        TokenSampler greedy = new TokenSampler(GenerationOptions.greedy(1));
        assertThat(greedy.choose(logits, 0, 4, 0.5)).isEqualTo(1);
        assertThat(greedy.choose(logits, 1, 4, 0.5)).as("torch.argmax: NaN is the maximum").isEqualTo(1);
    }

    @Test
    void aDrawInvertsTheCumulativeDistribution() {
        // softmax of ln(1), ln(2), ln(-inf → removed), ln(5): probabilities 1/8, 2/8, 0, 5/8
        float[] logits = {0f, (float) Math.log(2), Float.NEGATIVE_INFINITY, (float) Math.log(5)};
        TokenSampler sampler = new TokenSampler(GenerationOptions.sampling(1, new Generator(0)));
        assertThat(sampler.choose(logits, 0, 4, 0.0)).isEqualTo(0);
        assertThat(sampler.choose(logits, 0, 4, 0.124)).isEqualTo(0);
        assertThat(sampler.choose(logits, 0, 4, 0.126)).isEqualTo(1);
        assertThat(sampler.choose(logits, 0, 4, 0.374)).isEqualTo(1);
        assertThat(sampler.choose(logits, 0, 4, 0.376)).as("a removed token is never drawn").isEqualTo(3);
        assertThat(sampler.choose(logits, 0, 4, 0.9999999999)).isEqualTo(3);
    }

    @Test
    void samplingLogitsThatHoldNoDistributionIsAClearError() {
        TokenSampler sampler = new TokenSampler(GenerationOptions.sampling(1, new Generator(0)));
        float[] removed = {Float.NEGATIVE_INFINITY, Float.NEGATIVE_INFINITY};
        assertThatThrownBy(() -> sampler.choose(removed, 0, 2, 0.5)).isInstanceOf(EinopsException.class)
                .hasMessageContaining("cannot sample");
        float[] nan = {0, Float.NaN};
        assertThatThrownBy(() -> sampler.choose(nan, 0, 2, 0.5)).isInstanceOf(EinopsException.class)
                .hasMessageContaining("NaN");
    }
}
