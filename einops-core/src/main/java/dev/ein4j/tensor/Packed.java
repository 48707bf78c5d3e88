package dev.ein4j.tensor;

import java.util.List;

/**
 * What {@link Ein#pack} returns: the packed tensor, and the shape each input had at the
 * {@code *} (what {@link Ein#unpack} needs to undo it).
 *
 * @param tensor the packed tensor
 * @param packedShapes per input, the lengths of the axes that {@code *} packed
 */
public record Packed(Tensor tensor, List<int[]> packedShapes) {

    /** Checks the components. */
    public Packed {
        Arguments.notNull(tensor, "tensor");
        Arguments.noNulls(packedShapes, "packedShapes");
    }
}
