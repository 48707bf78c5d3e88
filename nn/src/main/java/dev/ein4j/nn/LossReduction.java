package dev.ein4j.nn;

import dev.ein4j.error.EinopsException;
import java.util.Locale;

/** How a loss combines per-element losses: PyTorch's {@code reduction} argument. */
public enum LossReduction {
    /** The mean over all elements. */
    MEAN,
    /** The sum over all elements. */
    SUM,
    /** No combination: one loss per element. */
    NONE;

    /**
     * @param name "mean", "sum" or "none", any case
     * @return the reduction
     * @throws EinopsException for any other name
     */
    public static LossReduction of(String name) {
        java.util.Objects.requireNonNull(name, "name");
        {
            for (LossReduction reduction : values()) {
                if (reduction.name().equalsIgnoreCase(name.trim())) {
                    return reduction;
                }
            }
        }
        throw new EinopsException("unknown loss reduction '" + name + "': use mean, sum or none");
    }

    /** @return PyTorch's name */
    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }
}
