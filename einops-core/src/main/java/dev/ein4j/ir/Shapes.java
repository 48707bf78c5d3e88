package dev.ein4j.ir;

import dev.ein4j.error.ShapeException;
import java.util.Arrays;
import java.util.List;

/** Sizes of shapes, computed in 64 bits and checked: a size that does not fit is an error, never a wrapped number. */
public final class Shapes {

    private Shapes() {
    }

    /**
     * @param shape a shape of non-negative lengths
     * @return the number of elements
     * @throws ShapeException if a length is negative or the product exceeds 2^63 − 1
     */
    public static long size(int[] shape) {
        long size = 1;
        for (int length : shape) {
            if (length < 0) {
                throw new ShapeException("shape", List.of(toLong(shape)), "negative length in shape " + Arrays.toString(shape));
            }
            try {
                size = Math.multiplyExact(size, length);
            } catch (ArithmeticException overflow) {
                throw new ShapeException("shape", List.of(toLong(shape)), "shape " + Arrays.toString(shape)
                        + " has more than 2^63 - 1 elements");
            }
        }
        return size;
    }

    /**
     * @param shape a shape
     * @return the same lengths as longs (the form error messages carry)
     */
    public static long[] toLong(int[] shape) {
        return Arrays.stream(shape).asLongStream().toArray();
    }

    /**
     * @param shape a shape
     * @return row-major strides for it (a length-0 or length-1 dimension counts as 1)
     */
    public static long[] contiguousStrides(int[] shape) {
        long[] strides = new long[shape.length];
        long stride = 1;
        for (int k = shape.length - 1; k >= 0; k--) {
            strides[k] = stride;
            stride *= Math.max(shape[k], 1);
        }
        return strides;
    }
}
