package dev.ein4j.ir;

import java.util.Arrays;

/**
 * The argument of FLIP, of the reductions and of CONTRACT: the dimensions they act on.
 *
 * @param axes dimension indices, ascending, without repeats
 */
public record AxesArgument(int[] axes) implements OpArgument {

    @Override
    public void encodeStructure(StructureSink sink) {
        OpArgument.encode(axes, sink);
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof AxesArgument that && Arrays.equals(axes, that.axes);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(axes);
    }

    /**
     * @param axis a dimension index
     * @return whether it is one of the axes
     */
    public boolean contains(int axis) {
        for (int a : axes) {
            if (a == axis) {
                return true;
            }
        }
        return false;
    }

    @Override
    public String toString() {
        return "axes " + Arrays.toString(axes);
    }
}
