package dev.ein4j.models.tokenizer;

import java.util.Arrays;

/**
 * tokenizer.json's "truncation" for a single sequence: at most {@code maxLength} ids, counting the
 * special tokens the post-processor adds, cut from the end (direction Right) or the start (Left).
 *
 * @param maxLength the most ids an encoding may have
 * @param stride the overlap of overflowing windows (which are not produced here); must be below the
 *     length left for the input, as Hugging Face requires
 * @param cutFromStart whether the direction is Left
 * @param onlySecond whether the strategy is OnlySecond (an error for a single sequence)
 */
record Truncation(int maxLength, int stride, boolean cutFromStart, boolean onlySecond) {

    /**
     * @param ids the ids of the input, before post-processing
     * @param addedBySpecialTokens how many ids the post-processor will add
     * @return the ids that fit
     * @throws TokenizerException for OnlySecond, or a stride that is not below the length left
     */
    int[] apply(int[] ids, int addedBySpecialTokens) {
        // a max_length below the special tokens' count keeps max(max_length, 1) ids in Hugging Face 0.23
        int limit = maxLength >= addedBySpecialTokens ? maxLength - addedBySpecialTokens : Math.max(maxLength, 1);
        if (limit == 0) {
            return new int[0];
        }
        if (ids.length <= limit) {
            return ids;
        }
        if (onlySecond) {
            throw new TokenizerException("truncation with strategy OnlySecond needs a second sequence");
        }
        if (stride >= limit) {
            throw new TokenizerException("the truncation stride " + stride + " must be below the length left for the input, "
                    + limit + " (max_length " + maxLength + " less " + addedBySpecialTokens + " special tokens)");
        }
        return cutFromStart ? Arrays.copyOfRange(ids, ids.length - limit, ids.length) : Arrays.copyOf(ids, limit);
    }
}
