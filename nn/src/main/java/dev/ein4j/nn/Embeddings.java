package dev.ein4j.nn;

import dev.ein4j.ir.DType;
import dev.ein4j.tensor.Ein;
import dev.ein4j.tensor.Tensor;
import java.util.Arrays;

/**
 * Embedding lookup as a contraction with a one-hot encoding:
 * {@code einsum("... v, v d -> ... d", one_hot(indices), weight)}. The one-hot operand is an
 * elementwise comparison fused into the contraction, and the weight's gradient is the same
 * contraction transposed. The work is O(indices · vocabulary · features), fine for the vocabularies
 * of classifiers and small language models; the IR has no gather.
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
        int vocabulary = weight.length(0);
        indices.checkIndices(vocabulary, "embedding");
        Tensor table = weight;
        if (paddingIndex >= 0) {
            // The padding row is looked up like any other but learns nothing.
            Tensor isPadding = Tensor.arange(vocabulary).eq(paddingIndex).reshape(vocabulary, 1);
            table = Tensor.where(isPadding, weight.detach(), weight);
        }
        Tensor oneHot = indices.unsqueeze(-1).eq(Tensor.arange(vocabulary)).cast(weight.dtype());
        return Ein.einsum("... v, v d -> ... d", oneHot, table);
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
