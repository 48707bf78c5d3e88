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
}
