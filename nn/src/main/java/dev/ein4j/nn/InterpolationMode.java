package dev.ein4j.nn;

import dev.ein4j.error.EinopsException;
import java.util.Locale;

/** How {@link Functional#interpolate} reads the input: PyTorch's {@code mode} argument. */
public enum InterpolationMode {
    /** PyTorch's legacy nearest: source index ⌊dst · scale⌋. */
    NEAREST("nearest"),
    /** Pixel-centred nearest: source index ⌊(dst + ½) · scale⌋. */
    NEAREST_EXACT("nearest-exact"),
    /** Linear interpolation along one spatial dimension (inputs [N, C, L]). */
    LINEAR("linear"),
    /** Linear interpolation along two spatial dimensions (inputs [N, C, H, W]). */
    BILINEAR("bilinear"),
    /** Linear interpolation along three spatial dimensions (inputs [N, C, D, H, W]). */
    TRILINEAR("trilinear");

    private final String label;

    InterpolationMode(String label) {
        this.label = label;
    }

    /**
     * @param name PyTorch's name: "nearest", "nearest-exact", "linear", "bilinear" or "trilinear"
     * @return the mode
     * @throws EinopsException for any other name
     */
    public static InterpolationMode of(String name) {
        Checks.notNull(name, "name");
        for (InterpolationMode mode : values()) {
            if (mode.label.equals(name.trim().toLowerCase(Locale.ROOT))) {
                return mode;
            }
        }
        throw new EinopsException("unknown interpolation mode '" + name
                + "': use nearest, nearest-exact, linear, bilinear or trilinear");
    }

    /** @return PyTorch's name */
    public String label() {
        return label;
    }

    /** @return whether the mode interpolates linearly (and so takes align_corners) */
    boolean isLinear() {
        return this == LINEAR || this == BILINEAR || this == TRILINEAR;
    }

    /** @return the spatial dimensions a linear mode needs, or 0 for the nearest modes (any) */
    int spatialDimensions() {
        return switch (this) {
            case LINEAR -> 1;
            case BILINEAR -> 2;
            case TRILINEAR -> 3;
            default -> 0;
        };
    }
}
