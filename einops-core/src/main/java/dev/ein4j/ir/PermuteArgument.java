package dev.ein4j.ir;

import java.util.Arrays;

/**
 * PERMUTE's argument: output dimension k is input dimension {@code order[k]}.
 *
 * @param order a permutation of 0..rank−1
 */
public record PermuteArgument(int[] order) implements OpArgument {

    @Override
    public void encodeStructure(StructureSink sink) {
        OpArgument.encode(order, sink);
    }

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
