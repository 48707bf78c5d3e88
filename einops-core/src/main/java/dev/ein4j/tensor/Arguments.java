package dev.ein4j.tensor;

import dev.ein4j.error.ShapeException;
import dev.ein4j.ir.Shapes;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/** Checks of public arguments, at the call: a null names the parameter, a bad value is the library's exception. */
final class Arguments {

    private Arguments() {
    }

    /**
     * @param value an argument
     * @param name the parameter's name
     * @param <T> its type
     * @return the value
     * @throws NullPointerException naming the parameter if the value is null
     */
    static <T> T notNull(T value, String name) {
        return Objects.requireNonNull(value, name);
    }

    /**
     * @param values an array argument
     * @param name the parameter's name
     * @param <T> its element type
     * @return the array
     * @throws NullPointerException naming the parameter (or {@code name[i]}) if it or an element is null
     */
    static <T> T[] noNulls(T[] values, String name) {
        Objects.requireNonNull(values, name);
        for (int i = 0; i < values.length; i++) {
            Objects.requireNonNull(values[i], name + "[" + i + "]");
        }
        return values;
    }

    /**
     * @param values a list argument
     * @param name the parameter's name
     * @param <T> its element type
     * @return the list
     */
    static <T> List<T> noNulls(List<T> values, String name) {
        Objects.requireNonNull(values, name);
        for (int i = 0; i < values.size(); i++) {
            Objects.requireNonNull(values.get(i), name + "[" + i + "]");
        }
        return values;
    }

    /**
     * A shape given by the user: not null, no negative lengths, a 64-bit size.
     *
     * @param shape the shape
     * @param operation what is being made, for the message
     * @return the number of elements
     */
    static long shape(int[] shape, String operation) {
        Objects.requireNonNull(shape, "shape");
        for (int length : shape) {
            if (length < 0) {
                throw new ShapeException(operation, List.of(Shapes.toLong(shape)), "negative length in shape " + Arrays.toString(shape));
            }
        }
        return Shapes.size(shape);
    }
}
