package dev.ein4j.tensor;

import dev.ein4j.error.EinopsException;
import dev.ein4j.error.ShapeException;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Axis lengths given by name, einops' keyword arguments: {@code x.rearrange("b (h p) -> b h p",
 * Axes.of("p", 2))}. Immutable.
 */
public final class Axes {

    private static final Axes NONE = new Axes(Map.of());

    private final Map<String, Integer> lengths;

    private Axes(Map<String, Integer> lengths) {
        this.lengths = Collections.unmodifiableMap(lengths);
    }

    /** @return no lengths */
    public static Axes none() {
        return NONE;
    }

    /**
     * @param name an axis name
     * @param length its length, at least 1
     * @return the lengths
     */
    public static Axes of(String name, int length) {
        return NONE.and(Arguments.notNull(name, "name"), length);
    }

    /**
     * @param name1 first name
     * @param length1 its length
     * @param name2 second name
     * @param length2 its length
     * @return the lengths
     */
    public static Axes of(String name1, int length1, String name2, int length2) {
        Arguments.notNull(name1, "name1");
        Arguments.notNull(name2, "name2");
        return of(name1, length1).and(name2, length2);
    }

    /**
     * @param name1 first name
     * @param length1 its length
     * @param name2 second name
     * @param length2 its length
     * @param name3 third name
     * @param length3 its length
     * @return the lengths
     */
    public static Axes of(String name1, int length1, String name2, int length2, String name3, int length3) {
        Arguments.notNull(name1, "name1");
        Arguments.notNull(name2, "name2");
        Arguments.notNull(name3, "name3");
        return of(name1, length1, name2, length2).and(name3, length3);
    }

    /**
     * @param lengths lengths by name
     * @return the lengths
     */
    public static Axes from(Map<String, Integer> lengths) {
        Arguments.notNull(lengths, "lengths");
        Axes axes = NONE;
        for (Map.Entry<String, Integer> entry : lengths.entrySet()) {
            axes = axes.and(entry.getKey(), Arguments.notNull(entry.getValue(), "lengths[" + entry.getKey() + "]"));
        }
        return axes;
    }

    /**
     * @param name an axis name
     * @param length its length, at least 1
     * @return these lengths and one more
     * @throws NullPointerException for a null name
     * @throws EinopsException for an empty or repeated name
     * @throws ShapeException for a length below 1, like every other length that does not fit
     */
    public Axes and(String name, int length) {
        Arguments.notNull(name, "name");
        if (name.isEmpty()) {
            throw new EinopsException("an axis length needs a name");
        }
        if (length < 1) {
            throw new ShapeException(name, java.util.List.of(), "axis " + name + ": a length must be at least 1, got " + length);
        }
        if (lengths.containsKey(name)) {
            throw new EinopsException("axis " + name + " is given twice");
        }
        Map<String, Integer> more = new LinkedHashMap<>(lengths);
        more.put(name, length);
        return new Axes(more);
    }

    /**
     * Lengths measured on a tensor (what {@link Tensor#checkShape} returns): unlike given lengths
     * they may be 0, for an empty axis.
     *
     * @param lengths lengths by name, in the pattern's order, none negative
     * @return the lengths
     */
    static Axes measured(Map<String, Integer> lengths) {
        return new Axes(new LinkedHashMap<>(lengths));
    }

    /** @return the lengths by name, unmodifiable, in the order they were given */
    public Map<String, Integer> asMap() {
        return lengths;
    }

    /**
     * @param name an axis name
     * @return whether a length is given for it
     */
    public boolean contains(String name) {
        return lengths.containsKey(Arguments.notNull(name, "name"));
    }

    /**
     * {@code x.checkShape("b c h w").length("c")}.
     *
     * @param name an axis name
     * @return its length
     * @throws EinopsException naming the axis and the names there are, if it has none
     */
    public int length(String name) {
        Integer length = lengths.get(Arguments.notNull(name, "name"));
        if (length == null) {
            throw new EinopsException("axis " + name + " has no length here; there are " + lengths.keySet());
        }
        return length;
    }

    /** Equal when the same names have the same lengths, in any order. */
    @Override
    public boolean equals(Object other) {
        return other instanceof Axes that && lengths.equals(that.lengths);
    }

    @Override
    public int hashCode() {
        return lengths.hashCode();
    }

    @Override
    public String toString() {
        return lengths.toString();
    }
}
