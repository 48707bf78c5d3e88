package dev.ein4j.ir;

import java.util.Arrays;

/**
 * PERMUTE's argument: output dimension k is input dimension {@code order[k]}.
 *
 * @param order a permutation of 0..rank−1
 */
public record PermuteArgument(int[] order) {

    /** @return the inverse permutation */
    public int[] inverse() {
        int[] inverse = new int[order.length];
        for (int k = 0; k < order.length; k++) {
            inverse[order[k]] = k;
        }
        return inverse;
    }

    @Override
    public String toString() {
        return Arrays.toString(order);
    }
}
