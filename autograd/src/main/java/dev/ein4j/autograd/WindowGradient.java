package dev.ein4j.autograd;

import dev.ein4j.ir.WindowArgument;
import dev.ein4j.tensor.Tensor;

/**
 * The vector-Jacobian rule of WINDOW, an overlap-add: input element i receives the cotangent of
 * every (h, k) with s·h + d·k = i. For each offset k, the positions h are spread out with stride s
 * (zeros between) and shifted by d·k; the K placed copies are summed. Made of views and additions
 * only, so it differentiates again.
 */
final class WindowGradient {

    private WindowGradient() {
    }

    /**
     * @param g the cotangent of the window view, [..., H, K, ...]
     * @param window the window
     * @param inputShape the windowed tensor's shape
     * @return the cotangent of the windowed tensor
     */
    static Tensor overlapAdd(Tensor g, WindowArgument window, int[] inputShape) {
        int axis = window.axis();
        int length = inputShape[axis];
        Tensor sum = null;
        for (int k = 0; k < window.kernelLength(); k++) {
            Tensor positions = dilate(g.slice(axis + 1, k, k + 1).squeeze(axis + 1), axis, window.stride());
            int[] before = new int[inputShape.length];
            int[] after = new int[inputShape.length];
            before[axis] = window.dilation() * k;
            after[axis] = length - before[axis] - positions.length(axis);
            Tensor placed = positions.pad(before, after, 0.0);
            sum = sum == null ? placed : sum.add(placed);
        }
        return sum != null ? sum : Tensor.zeros(g.dtype(), inputShape);
    }

    /**
     * Puts s − 1 zeros between consecutive elements along an axis: length n becomes (n − 1)·s + 1.
     *
     * @param x a tensor
     * @param axis the axis
     * @param stride s
     * @return the spread tensor
     */
    static Tensor dilate(Tensor x, int axis, int stride) {
        if (stride == 1 || x.length(axis) == 0) {
            return x;
        }
        int[] before = new int[x.rank() + 1];
        int[] after = new int[x.rank() + 1];
        after[axis + 1] = stride - 1;
        Tensor spread = x.unsqueeze(axis + 1).pad(before, after, 0.0);
        int[] shape = x.shape();
        shape[axis] *= stride;
        return spread.reshape(shape).slice(axis, 0, (x.length(axis) - 1) * stride + 1);
    }
}
