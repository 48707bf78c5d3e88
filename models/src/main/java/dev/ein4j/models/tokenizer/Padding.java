package dev.ein4j.models.tokenizer;

import java.util.Arrays;

/**
 * tokenizer.json's "padding" for a single sequence: padded with {@code padId} up to a fixed length
 * (or its own length, for BatchLongest), rounded up to a multiple of {@code padToMultipleOf},
 * on the right or (direction Left) on the left.
 *
 * @param fixedLength the length of strategy {"Fixed": n}, or -1 for BatchLongest
 * @param padToMultipleOf the multiple to round the length up to, or 0
 * @param padId the padding id
 * @param padOnLeft whether the direction is Left
 */
record Padding(int fixedLength, int padToMultipleOf, int padId, boolean padOnLeft) {

    /**
     * @param ids the final ids of the input
     * @return the ids padded
     */
    int[] apply(int[] ids) {
        int length = fixedLength >= 0 ? fixedLength : ids.length;
        if (padToMultipleOf > 0 && length % padToMultipleOf > 0) {
            length += padToMultipleOf - length % padToMultipleOf;
        }
        if (ids.length >= length) {
            return ids;
        }
        int[] out = new int[length];
        Arrays.fill(out, padId);
        System.arraycopy(ids, 0, out, padOnLeft ? length - ids.length : 0, ids.length);
        return out;
    }
}
