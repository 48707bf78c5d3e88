package dev.ein4j.ir;

import java.util.Arrays;

/**
 * SHRINK's argument: the box {@code [starts[k], ends[k])} of each dimension.
 *
 * @param starts first kept index per dimension
 * @param ends one past the last kept index per dimension
 */
public record ShrinkArgument(int[] starts, int[] ends) {

    @Override
    public String toString() {
        return Arrays.toString(starts) + ".." + Arrays.toString(ends);
    }
}
