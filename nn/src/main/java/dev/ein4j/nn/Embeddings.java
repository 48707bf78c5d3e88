package dev.ein4j.nn;

import dev.ein4j.ir.DType;
import dev.ein4j.tensor.Tensor;
import java.util.Arrays;

/**
 * Embedding lookup as a gather of the weight's rows, {@code weight.indexSelect(0, indices)} reshaped
 * to {@code [..., d]}: O(indices · features) work whatever the vocabulary, fused into the kernel that
 * reads it; the weight's gradient adds each row's cotangent back (a scatter-add). An index outside
 * [0, V) is an {@link dev.ein4j.error.IndexOutOfRangeException} when the lookup runs.
 */
final class Embeddings {

    private Embeddings() {
    }

    /** @param paddingIndex a row in [0, V) that learns nothing, or −1 for none */
    static Tensor embedding(Tensor indices, Tensor weight, int paddingIndex) {
        Checks.notNull(indices, "indices");
        Checks.notNull(weight, "weight");
        Checks.rank(weight, "embedding", "weight", 2);
        if (indices.dtype() != DType.INT32) {
            throw Checks.shapeError("embedding", "indices must be int32, got " + indices.dtype().numpyName(), indices, weight);
        }
        if (!weight.dtype().isFloating()) {
            throw Checks.shapeError("embedding", "the weight must be floating, got " + weight.dtype().numpyName(), weight);
        }
        int features = weight.length(1);
        int[] shape = java.util.Arrays.copyOf(indices.shape(), indices.rank() + 1);
        shape[indices.rank()] = features;
        Tensor rows = weight.indexSelect(0, indices.reshape((int) indices.size())).reshape(shape);
        if (paddingIndex < 0) {
            return rows;
        }
        // The padding row is looked up like any other but learns nothing.
        Tensor isPadding = indices.eq(paddingIndex).unsqueeze(-1);
        return Tensor.where(isPadding, rows.detach(), rows);
    }

    /** A user's padding index in [−V, V) (negative counts from the end, as in PyTorch) as a row. */
    static int paddingRow(int paddingIndex, Tensor weight) {
        int vocabulary = weight.length(0);
        if (paddingIndex < -vocabulary || paddingIndex >= vocabulary) {
            throw Checks.shapeError("embedding", "padding index " + paddingIndex + " is out of range for "
                    + vocabulary + " rows " + Arrays.toString(weight.shape()), weight);
        }
        return paddingIndex < 0 ? paddingIndex + vocabulary : paddingIndex;
    }
}
