package dev.ein4j.onnx;

import dev.ein4j.onnx.proto.ElementType;
import java.util.Arrays;

/**
 * A tensor of the ONNX graph under construction: its name, element type and shape. The shape is
 * the traced one; with a dynamic batch, {@code batch[k]} is c when dimension k has length c·B for
 * the batch size B (the traced length being c times the sample's batch), and 0 when it is fixed.
 *
 * @param name the value's name in the graph
 * @param type its element type
 * @param shape its lengths in the traced call
 * @param batch per dimension, the multiple of the batch size it is, or 0
 */
record Value(String name, ElementType type, int[] shape, int[] batch) {

    Value {
        if (shape.length != batch.length) {
            throw new IllegalArgumentException("shape " + Arrays.toString(shape) + " and batch factors "
                    + Arrays.toString(batch) + " differ in rank");
        }
    }

    /** @return no factor: every length fixed */
    static int[] fixed(int rank) {
        return new int[rank];
    }

    int rank() {
        return shape.length;
    }

    /**
     * The length of several dimensions merged into one, and its batch factor: at most one of them
     * may grow with the batch (the merged one is then c·p times the batch, p the others' product).
     *
     * @param axes the merged dimensions
     * @return {traced length, batch factor}, or null when two of them grow with the batch
     */
    int[] merged(int[] axes) {
        long length = 1;
        long fixed = 1;
        int factor = 0;
        for (int axis : axes) {
            length *= shape[axis];
            if (batch[axis] == 0) {
                fixed *= shape[axis];
            } else if (factor != 0) {
                return null;
            } else {
                factor = batch[axis];
            }
        }
        return new int[] {Math.toIntExact(length), Math.toIntExact(factor * fixed)};
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof Value that && name.equals(that.name);
    }

    @Override
    public int hashCode() {
        return name.hashCode();
    }

    @Override
    public String toString() {
        StringBuilder text = new StringBuilder(name).append(' ').append(type).append('[');
        for (int k = 0; k < shape.length; k++) {
            text.append(k == 0 ? "" : ", ").append(batch[k] == 0 ? Integer.toString(shape[k]) : batch[k] + "B");
        }
        return text.append(']').toString();
    }
}
