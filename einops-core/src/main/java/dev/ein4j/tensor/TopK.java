package dev.ein4j.tensor;

/**
 * The result of {@link Tensor#topk}: the k largest (or smallest) values along a dimension, largest
 * first, and their int32 positions in that dimension.
 *
 * @param values the values, the input's shape with the dimension of length k
 * @param indices their positions, int32, the same shape
 */
public record TopK(Tensor values, Tensor indices) {
}
