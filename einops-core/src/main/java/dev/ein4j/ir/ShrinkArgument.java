package dev.ein4j.ir;

import java.util.Arrays;

/**
 * SHRINK's argument: the box {@code [starts[k], ends[k])} of each dimension.
 *
 * @param starts first kept index per dimension
 * @param ends one past the last kept index per dimension
 */
public record ShrinkArgument(int[] starts, int[] ends) implements OpArgument {

    @Override
    public void encodeStructure(StructureSink sink) {
        OpArgument.encode(starts, sink);
        OpArgument.encode(ends, sink);
    }

    @Override
    public String toString() {
        return Arrays.toString(starts) + ".." + Arrays.toString(ends);
    }
}
