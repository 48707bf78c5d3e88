package dev.ein4j.ir;

import java.util.Arrays;

/**
 * PAD's argument: {@code before[k]} and {@code after[k]} elements of value {@code fill} around
 * dimension k.
 *
 * @param before elements added before, per dimension
 * @param after elements added after, per dimension
 * @param fill the value of the added elements
 */
public record PadArgument(int[] before, int[] after, double fill) implements OpArgument {

    @Override
    public void encodeStructure(StructureSink sink) {
        OpArgument.encode(before, sink);
        OpArgument.encode(after, sink);
        sink.add(Double.doubleToLongBits(fill));
    }

    @Override
    public String toString() {
        return "before " + Arrays.toString(before) + " after " + Arrays.toString(after) + " fill " + fill;
    }
}
