package dev.ein4j.models.generation;

import dev.ein4j.error.EinopsException;
import java.util.Arrays;
import java.util.Comparator;
import java.util.stream.IntStream;

/**
 * Chooses the next token from one row of logits, on the host: the argmax when greedy, otherwise a
 * draw from softmax of the logits after transformers' warpers in their order (temperature, top-k,
 * top-p; a removed token's score is −∞). Arithmetic is float64 on the float32 logits.
 */
final class TokenSampler {

    private final GenerationOptions options;

    TokenSampler(GenerationOptions options) {
        this.options = options;
    }

    /**
     * @param logits rows of V logits
     * @param row which row
     * @param vocabulary V
     * @param uniform a draw from [0, 1) (unused when greedy)
     * @return the chosen token
     * @throws EinopsException if sampling meets logits that are all −∞ or NaN
     */
    int choose(float[] logits, int row, int vocabulary, double uniform) {
        int from = row * vocabulary;
        if (!options.isSampling()) {
            return argmax(logits, from, vocabulary);
        }
        double[] scores = scores(logits, from, vocabulary);
        return draw(scores, uniform);
    }

    /**
     * torch.argmax's choice: the first largest logit, a NaN counting as largest.
     *
     * @return the index within the row
     */
    static int argmax(float[] logits, int from, int vocabulary) {
        int best = 0;
        for (int i = 0; i < vocabulary; i++) {
            float value = logits[from + i];
            if (Float.isNaN(value)) {
                return i;
            }
            if (value > logits[from + best]) {
                best = i;
            }
        }
        return best;
    }

    /**
     * The scores that sampling draws from: logits / T, then top-k, then top-p, removed tokens −∞.
     *
     * @param logits rows of logits
     * @param from the first logit of the row
     * @param vocabulary V
     * @return V scores
     */
    double[] scores(float[] logits, int from, int vocabulary) {
        double[] scores = new double[vocabulary];
        for (int i = 0; i < vocabulary; i++) {
            scores[i] = logits[from + i] / options.temperature();
        }
        if (options.topK() > 0) {
            keepTopK(scores, Math.min(options.topK(), vocabulary));
        }
        if (options.topP() < 1) {
            keepTopP(scores, options.topP());
        }
        return scores;
    }

    /** TopKLogitsWarper: scores below the k-th largest (counting repeats) become −∞. */
    private static void keepTopK(double[] scores, int k) {
        double[] sorted = scores.clone();
        Arrays.sort(sorted);
        double kth = sorted[sorted.length - k];
        for (int i = 0; i < scores.length; i++) {
            if (scores[i] < kth) {
                scores[i] = Double.NEGATIVE_INFINITY;
            }
        }
    }

    /**
     * TopPLogitsWarper: in ascending order of score, a token is removed while the cumulative
     * probability up to and including it is at most 1 − p; the most likely token always stays.
     */
    private static void keepTopP(double[] scores, double p) {
        Integer[] order = IntStream.range(0, scores.length).boxed().toArray(Integer[]::new);
        Arrays.sort(order, Comparator.comparingDouble(i -> scores[i]));
        double[] probabilities = softmax(scores);
        double cumulative = 0;
        for (int rank = 0; rank < order.length - 1; rank++) {
            cumulative += probabilities[order[rank]];
            if (cumulative > 1 - p) {
                return;
            }
            scores[order[rank]] = Double.NEGATIVE_INFINITY;
        }
    }

    /** @return softmax of the scores, −∞ giving 0 */
    static double[] softmax(double[] scores) {
        double max = Double.NEGATIVE_INFINITY;
        for (double score : scores) {
            max = Math.max(max, score);
        }
        double[] probabilities = new double[scores.length];
        double total = 0;
        for (int i = 0; i < scores.length; i++) {
            probabilities[i] = Math.exp(scores[i] - max);
            total += probabilities[i];
        }
        for (int i = 0; i < scores.length; i++) {
            probabilities[i] /= total;
        }
        return probabilities;
    }

    /** torch.multinomial of softmax(scores), by the inverse of the cumulative distribution at u. */
    private static int draw(double[] scores, double uniform) {
        double[] probabilities = softmax(scores);
        double target = uniform;
        double cumulative = 0;
        int last = -1;
        for (int i = 0; i < probabilities.length; i++) {
            if (Double.isNaN(probabilities[i])) {
                throw new EinopsException("cannot sample: the logits hold NaN or are all -inf");
            }
            if (probabilities[i] > 0) {
                cumulative += probabilities[i];
                last = i;
                if (cumulative > target) {
                    return i;
                }
            }
        }
        if (last < 0) {
            throw new EinopsException("cannot sample: the logits hold NaN or are all -inf");
        }
        return last; // u within rounding of 1
    }
}
