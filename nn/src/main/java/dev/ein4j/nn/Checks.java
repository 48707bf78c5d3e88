package dev.ein4j.nn;

import dev.ein4j.error.ShapeException;
import dev.ein4j.tensor.Tensor;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/** Argument checks shared by the layers and functions: nulls name the parameter, shapes give a ShapeException. */
final class Checks {

    private Checks() {
    }

    static <T> T notNull(T value, String name) {
        return Objects.requireNonNull(value, name);
    }

    static ShapeException shapeError(String operation, String reason, Tensor... tensors) {
        List<long[]> shapes = Arrays.stream(tensors).filter(Objects::nonNull)
                .map(t -> Arrays.stream(t.shape()).asLongStream().toArray()).toList();
        return new ShapeException(operation, shapes, reason);
    }

    static void rank(Tensor tensor, String operation, String name, int... allowed) {
        for (int rank : allowed) {
            if (tensor.rank() == rank) {
                return;
            }
        }
        throw shapeError(operation, name + " must have " + describe(allowed) + " dimensions, got shape "
                + Arrays.toString(tensor.shape()), tensor);
    }

    private static String describe(int[] ranks) {
        if (ranks.length == 1) {
            return Integer.toString(ranks[0]);
        }
        return Arrays.toString(ranks).replace("[", "").replace("]", "").replaceFirst(", (\\d+)$", " or $1");
    }

    static int[] range(int from, int to) {
        return java.util.stream.IntStream.range(from, to).toArray();
    }

    /** @return the numpy broadcast of two shapes, or null if they do not broadcast */
    static int[] broadcast(int[] a, int[] b) {
        int rank = Math.max(a.length, b.length);
        int[] shape = new int[rank];
        for (int i = 0; i < rank; i++) {
            int x = i < rank - a.length ? 1 : a[i - (rank - a.length)];
            int y = i < rank - b.length ? 1 : b[i - (rank - b.length)];
            if (x != y && x != 1 && y != 1) {
                return null;
            }
            shape[i] = x == 1 ? y : x;
        }
        return shape;
    }

    /** @return whether a shape broadcasts to exactly the target shape */
    static boolean broadcastsTo(int[] shape, int[] target) {
        int[] joined = broadcast(shape, target);
        return joined != null && Arrays.equals(joined, target);
    }

    static int positive(int value, String name) {
        if (value < 1) {
            throw new dev.ein4j.error.EinopsException(name + " must be at least 1, got " + value);
        }
        return value;
    }
}
