package dev.ein4j.nn.io;

import java.util.Arrays;

/** The size checks every reader makes on a header's claims before it allocates anything. */
final class Limits {

    /** The most elements a Java array (and so a tensor) holds: the JDK's own array size limit. */
    static final int MAX_ELEMENTS = Integer.MAX_VALUE - 8;

    private Limits() {
    }

    /**
     * @param source the file or stream, for messages
     * @param dims the dimensions a header claims
     * @return them as a tensor shape
     * @throws TensorFormatException for a negative length, one past int range, or more elements than
     *     an array holds
     */
    static int[] shape(String source, long[] dims) {
        int[] shape = new int[dims.length];
        for (int i = 0; i < dims.length; i++) {
            if (dims[i] < 0) {
                throw fail(source, "negative length " + dims[i] + " in shape " + Arrays.toString(dims));
            }
            if (dims[i] > Integer.MAX_VALUE) {
                throw fail(source, "length " + dims[i] + " in shape " + Arrays.toString(dims)
                        + " is longer than a dimension can be (" + Integer.MAX_VALUE + ")");
            }
            shape[i] = (int) dims[i];
        }
        count(source, shape);
        return shape;
    }

    /**
     * @param source the file or stream, for messages
     * @param shape a shape of non-negative lengths
     * @return its number of elements
     * @throws TensorFormatException if it is more than {@link #MAX_ELEMENTS}
     */
    static int count(String source, int[] shape) {
        for (int length : shape) {
            if (length == 0) {
                return 0;
            }
        }
        long count = 1;
        for (int length : shape) {
            count *= length; // both factors are at most 2^31 - 1 here, so no overflow
            if (count > MAX_ELEMENTS) {
                throw fail(source, "shape " + Arrays.toString(shape) + " holds more than " + MAX_ELEMENTS
                        + " elements, the most a Java array holds");
            }
        }
        return (int) count;
    }

    /**
     * @param count a number of elements
     * @param type their type
     * @return the number of bytes they take
     */
    static long bytes(int count, ElementType type) {
        return Math.multiplyExact((long) count, type.bytes());
    }

    static TensorFormatException fail(String source, String problem) {
        return new TensorFormatException(source + ": " + problem);
    }
}
