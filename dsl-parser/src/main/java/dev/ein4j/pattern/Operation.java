package dev.ein4j.pattern;

/** The operations a pattern can be written for; each has its own rules about what a pattern may say. */
public enum Operation {
    /** {@code "b h w c -> b c h w"}: reorder, split and merge axes; the same names on both sides. */
    REARRANGE("rearrange"),
    /** {@code "b c h w -> b c"}: like rearrange, and axes missing on the right are reduced. */
    REDUCE("reduce"),
    /** {@code "h w -> h w c"}: like rearrange, and axes new on the right are repeated. */
    REPEAT("repeat"),
    /** {@code "b i d, b j d -> b i j"}: einsum in einops notation, space-separated names. */
    EINSUM("einsum"),
    /** {@code "bid,bjd->bij"}: einsum in numpy notation, one letter per axis, output optional. */
    NUMPY_EINSUM("einsum"),
    /** {@code "b * c"}: several tensors packed along the axes at {@code *}. */
    PACK("pack"),
    /** {@code "b * c"}: the inverse of pack. */
    UNPACK("unpack"),
    /** {@code "b _ h w"}: read axis lengths from a shape by name; {@code _} skips an axis. */
    PARSE_SHAPE("parse_shape"),
    /**
     * {@code "b c (h w)"}: assert a shape, einops' {@code check_shape}; like parse_shape, and
     * compositions of names and lengths describe one dimension each.
     */
    CHECK_SHAPE("check_shape");

    private final String displayName;

    Operation(String displayName) {
        this.displayName = displayName;
    }

    /** @return the name users know the operation by, as in einops ({@code "rearrange"}, ...) */
    public String displayName() {
        return displayName;
    }

    /** @return whether patterns of this operation have the form {@code left -> right} with one input */
    public boolean isArrow() {
        return this == REARRANGE || this == REDUCE || this == REPEAT;
    }

    /** @return whether this is einsum in either notation */
    public boolean isEinsum() {
        return this == EINSUM || this == NUMPY_EINSUM;
    }
}
