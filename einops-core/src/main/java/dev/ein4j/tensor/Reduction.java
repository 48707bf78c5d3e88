package dev.ein4j.tensor;

import dev.ein4j.error.EinopsException;
import java.util.Locale;

/**
 * How {@code reduce} combines the elements of the axes it removes. Reducing an empty axis gives
 * 0 (sum), NaN (mean) and 1 (prod); max and min of an empty axis have no value and are a
 * {@link dev.ein4j.error.ShapeException}.
 */
public enum Reduction {
    /** Σ x. */
    SUM,
    /** Σ x / n (NaN for an empty axis). */
    MEAN,
    /** max x (NaN if any element is NaN). */
    MAX,
    /** min x (NaN if any element is NaN). */
    MIN,
    /** Π x (1 for an empty axis). */
    PROD;

    /**
     * @param name {@code "sum"}, {@code "mean"}, {@code "max"}, {@code "min"} or {@code "prod"}, any case
     * @return the reduction
     * @throws EinopsException for any other name
     */
    public static Reduction of(String name) {
        java.util.Objects.requireNonNull(name, "name");
        {
            for (Reduction reduction : values()) {
                if (reduction.name().equalsIgnoreCase(name.trim())) {
                    return reduction;
                }
            }
        }
        throw new EinopsException("unknown reduction '" + name + "': use sum, mean, max, min or prod");
    }

    /** @return the einops name, {@code "sum"} ... */
    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }
}
