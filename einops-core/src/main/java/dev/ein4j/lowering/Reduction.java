package dev.ein4j.lowering;

import dev.ein4j.error.EinopsException;
import java.util.Locale;

/** How {@code reduce} combines the elements of the axes it removes. */
public enum Reduction {
    /** Σ x. */
    SUM,
    /** Σ x / n (NaN for an empty axis). */
    MEAN,
    /** max x (−∞ for an empty axis). */
    MAX,
    /** min x (+∞ for an empty axis). */
    MIN,
    /** Π x (1 for an empty axis). */
    PROD;

    /**
     * @param name {@code "sum"}, {@code "mean"}, {@code "max"}, {@code "min"} or {@code "prod"}, any case
     * @return the reduction
     * @throws EinopsException for any other name
     */
    public static Reduction of(String name) {
        if (name != null) {
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
