package dev.ein4j.autograd;

import dev.ein4j.ir.Op;
import dev.ein4j.tensor.Tensor;
import dev.ein4j.ir.DType;
import dev.ein4j.tensor.internal.TensorInternals;

/**
 * For PROD's gradient: element i of a reduced group gets Π_{j≠i} x_j, computed without dividing
 * by x_i, so zeros in the input are handled exactly. The reduced axes are moved last and flattened
 * to one axis of length n; a [.., n, n] tensor holds x_j off the diagonal and 1 on it; its PROD over
 * the last axis is the answer. O(n²) per group, and made of primitives that differentiate again.
 */
final class ProductOfOthers {

    private ProductOfOthers() {
    }

    static Tensor of(Tensor x, int[] axes) {
        int rank = x.rank();
        int[] shape = x.shape();
        int[] order = new int[rank];
        int next = 0;
        boolean[] reduced = new boolean[rank];
        for (int axis : axes) {
            reduced[axis] = true;
        }
        for (int k = 0; k < rank; k++) {
            if (!reduced[k]) {
                order[next++] = k;
            }
        }
        int kept = next;
        int n = 1;
        for (int axis : axes) {
            order[next++] = axis;
            n *= shape[axis];
        }
        Tensor moved = x.permute(order);
        int[] movedShape = moved.shape();
        int[] flatShape = new int[kept + 1];
        System.arraycopy(movedShape, 0, flatShape, 0, kept);
        flatShape[kept] = n;
        Tensor flat = moved.reshape(flatShape);

        int[] square = java.util.Arrays.copyOf(flatShape, kept + 2);
        square[kept + 1] = n;
        int[] rows = java.util.Arrays.copyOf(flatShape, kept + 2);
        rows[kept] = 1;
        rows[kept + 1] = n;
        Tensor others = TensorInternals.broadcastTo(flat.reshape(rows), square);             // [.., i, j] = x_j
        Tensor diagonal = TensorInternals.broadcastTo(Tensor.eye(n, DType.BOOL), square);
        Tensor ones = Tensor.ones(x.dtype(), square);
        Tensor product = TensorInternals.reduce(Tensor.where(diagonal, ones, others), Op.PROD, kept + 1);

        Tensor back = product.reshape(movedShape);
        int[] inverse = new int[rank];
        for (int k = 0; k < rank; k++) {
            inverse[order[k]] = k;
        }
        return back.permute(inverse);
    }
}
