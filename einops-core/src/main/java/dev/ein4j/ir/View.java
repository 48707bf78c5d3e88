package dev.ein4j.ir;

import java.util.Arrays;

/**
 * How a tensor of some shape reads a flat buffer: element (i0, i1, ...) lives at
 * {@code offset + Σ ik·strides[k]}, unless a mask is set and some ik lies outside
 * {@code [maskStart[k], maskEnd[k])}, in which case the element is {@code padValue} and the buffer is
 * not read. Strides may be 0 (expanded axes) or negative (flipped axes).
 *
 * <p>Every movement primitive maps a view to a new view without touching data; the methods return
 * {@code null} when the result is not expressible as one strided view (reshaping a permuted or
 * padded view, say), and the runtime then makes the source contiguous first.
 *
 * <p>Views are immutable.
 */
public final class View {

    private final int[] shape;
    private final long[] strides;
    private final long offset;
    private final int[] maskStart;
    private final int[] maskEnd;
    private final double padValue;

    private View(int[] shape, long[] strides, long offset, int[] maskStart, int[] maskEnd, double padValue) {
        this.shape = shape;
        this.strides = strides;
        this.offset = offset;
        boolean fullMask = maskStart != null;
        for (int k = 0; fullMask && k < shape.length; k++) {
            fullMask = maskStart[k] == 0 && maskEnd[k] == shape[k];
        }
        this.maskStart = fullMask ? null : maskStart;
        this.maskEnd = fullMask ? null : maskEnd;
        this.padValue = maskStart == null || fullMask ? 0.0 : padValue;
    }

    /**
     * A row-major view of a compact buffer.
     *
     * @param shape the shape
     * @return the view with strides (…, shape[n−1], 1) and offset 0
     */
    public static View contiguous(int[] shape) {
        return new View(shape.clone(), Shapes.contiguousStrides(shape), 0, null, null, 0.0);
    }

    /**
     * A view of a single element repeated over a shape (all strides 0).
     *
     * @param shape the shape
     * @return the view
     */
    public static View broadcastScalar(int[] shape) {
        return new View(shape.clone(), new long[shape.length], 0, null, null, 0.0);
    }

    /**
     * The same strides and offset over another shape of the same rank (an indexed read whose
     * iteration shape differs from the source's along the indexed axis).
     *
     * @param newShape the shape
     * @return the view, without a mask
     * @throws IllegalArgumentException if this view has a mask or the rank differs
     */
    public View withShape(int[] newShape) {
        if (hasMask() || newShape.length != shape.length) {
            throw new IllegalArgumentException("withShape needs an unmasked view of the same rank");
        }
        return new View(newShape.clone(), strides.clone(), offset, null, null, 0.0);
    }

    /** @return a copy of the shape */
    public int[] shape() {
        return shape.clone();
    }

    /** @return a copy of the strides */
    public long[] strides() {
        return strides.clone();
    }

    /** @return the buffer index of element (0, 0, ...) */
    public long offset() {
        return offset;
    }

    /** @return whether some elements are padding rather than buffer reads */
    public boolean hasMask() {
        return maskStart != null;
    }

    /** @return a copy of the valid region's starts, or null without a mask */
    public int[] maskStart() {
        return maskStart == null ? null : maskStart.clone();
    }

    /** @return a copy of the valid region's ends (exclusive), or null without a mask */
    public int[] maskEnd() {
        return maskEnd == null ? null : maskEnd.clone();
    }

    /** @return the value of elements outside the mask */
    public double padValue() {
        return padValue;
    }

    /** @return the number of dimensions */
    public int rank() {
        return shape.length;
    }

    /** @return the number of elements */
    public long size() {
        return Shapes.size(shape);
    }

    /**
     * @param axis a dimension
     * @return its stride
     */
    public long stride(int axis) {
        return strides[axis];
    }

    /**
     * @param axis a dimension
     * @return its length
     */
    public int length(int axis) {
        return shape[axis];
    }

    /** @return whether this view reads a compact row-major buffer from offset 0 */
    public boolean isContiguous() {
        if (maskStart != null) {
            return false;
        }
        if (size() == 0) {
            return true;
        }
        long[] compact = Shapes.contiguousStrides(shape);
        for (int k = 0; k < shape.length; k++) {
            if (shape[k] != 1 && strides[k] != compact[k]) {
                return false; // the stride of a length-1 dimension is never used
            }
        }
        return offset == 0;
    }

    /**
     * Where an element lives.
     *
     * @param index the element's multi-index, one entry per dimension, within the shape
     * @return the buffer index, or −1 if the element is padding
     */
    public long bufferIndex(int[] index) {
        long position = offset;
        for (int k = 0; k < index.length; k++) {
            if (maskStart != null && (index[k] < maskStart[k] || index[k] >= maskEnd[k])) {
                return -1;
            }
            position += (long) index[k] * strides[k];
        }
        return position;
    }

    // ------------------------------------------------------------------ movement

    /**
     * @param order a permutation of 0..rank−1: dimension k of the result is dimension order[k] here
     * @return the permuted view
     */
    public View permute(int[] order) {
        int n = order.length;
        int[] newShape = new int[n];
        long[] newStrides = new long[n];
        int[] newStart = maskStart == null ? null : new int[n];
        int[] newEnd = maskStart == null ? null : new int[n];
        for (int k = 0; k < n; k++) {
            newShape[k] = shape[order[k]];
            newStrides[k] = strides[order[k]];
            if (newStart != null) {
                newStart[k] = maskStart[order[k]];
                newEnd[k] = maskEnd[order[k]];
            }
        }
        return new View(newShape, newStrides, offset, newStart, newEnd, padValue);
    }

    /**
     * @param newShape the target shape: equal to this shape except where this shape has length 1
     * @return the view with stride 0 on the expanded dimensions
     */
    public View expand(int[] newShape) {
        long[] newStrides = strides.clone();
        int[] newStart = maskStart == null ? null : maskStart.clone();
        int[] newEnd = maskEnd == null ? null : maskEnd.clone();
        for (int k = 0; k < shape.length; k++) {
            if (shape[k] != newShape[k]) {
                newStrides[k] = 0;
                if (newStart != null) {
                    boolean valid = newEnd[k] > newStart[k];
                    newStart[k] = 0;
                    newEnd[k] = valid ? newShape[k] : 0;
                }
            }
        }
        return new View(newShape.clone(), newStrides, offset, newStart, newEnd, padValue);
    }

    /**
     * @param starts first kept index per dimension
     * @param ends one past the last kept index per dimension
     * @return the view of the sub-box
     */
    public View shrink(int[] starts, int[] ends) {
        int n = shape.length;
        int[] newShape = new int[n];
        long newOffset = offset;
        int[] newStart = maskStart == null ? null : new int[n];
        int[] newEnd = maskStart == null ? null : new int[n];
        boolean empty = false;
        for (int k = 0; k < n; k++) {
            newShape[k] = ends[k] - starts[k];
            empty |= newShape[k] == 0;
            newOffset += (long) starts[k] * strides[k];
            if (newStart != null) {
                newStart[k] = clamp(maskStart[k] - starts[k], newShape[k]);
                newEnd[k] = clamp(maskEnd[k] - starts[k], newShape[k]);
                if (newEnd[k] <= newStart[k]) {
                    newStart[k] = 0;
                    newEnd[k] = 0;
                }
            }
        }
        if (empty) {
            return contiguous(newShape);
        }
        return new View(newShape, strides.clone(), newOffset, newStart, newEnd, padValue);
    }

    /**
     * Sliding windows: dimension {@code axis} becomes [H, K] with strides [s·t, d·t], t its stride.
     *
     * @param window the window
     * @return the windowed view, or null if the dimension is padded (a masked axis cannot be windowed in place)
     */
    public View window(WindowArgument window) {
        int axis = window.axis();
        if (maskStart != null && (maskStart[axis] != 0 || maskEnd[axis] != shape[axis])) {
            return null;
        }
        int[] newShape = window.shapeAfter(shape);
        long[] newStrides = new long[newShape.length];
        int[] newStart = maskStart == null ? null : new int[newShape.length];
        int[] newEnd = maskStart == null ? null : new int[newShape.length];
        for (int k = 0, source = 0; k < newShape.length; k++) {
            if (k == axis) {
                newStrides[k] = strides[axis] * window.stride();
            } else if (k == axis + 1) {
                newStrides[k] = strides[axis] * window.dilation();
            } else {
                newStrides[k] = strides[source];
            }
            if (newStart != null) {
                newStart[k] = k == axis || k == axis + 1 ? 0 : maskStart[source];
                newEnd[k] = k == axis || k == axis + 1 ? newShape[k] : maskEnd[source];
            }
            if (k != axis) {
                source++;
            }
        }
        if (Shapes.size(newShape) == 0) {
            return contiguous(newShape);
        }
        return new View(newShape, newStrides, offset, newStart, newEnd, padValue);
    }

    /**
     * @param axes true for each dimension to reverse
     * @return the view reading those dimensions backwards
     */
    public View flip(boolean[] axes) {
        long[] newStrides = strides.clone();
        long newOffset = offset;
        int[] newStart = maskStart == null ? null : maskStart.clone();
        int[] newEnd = maskEnd == null ? null : maskEnd.clone();
        for (int k = 0; k < shape.length; k++) {
            if (axes[k] && shape[k] > 0) {
                newOffset += (long) (shape[k] - 1) * strides[k];
                newStrides[k] = -strides[k];
                if (newStart != null) {
                    newStart[k] = shape[k] - maskEnd[k];
                    newEnd[k] = shape[k] - maskStart[k];
                }
            }
        }
        return new View(shape.clone(), newStrides, newOffset, newStart, newEnd, padValue);
    }

    /**
     * @param before elements added before each dimension
     * @param after elements added after each dimension
     * @param fill the value of the added elements
     * @return the padded view, or null if this view already pads with another value
     */
    public View pad(int[] before, int[] after, double fill) {
        if (maskStart != null && Double.compare(fill, padValue) != 0) {
            return null;
        }
        int n = shape.length;
        int[] newShape = new int[n];
        int[] newStart = new int[n];
        int[] newEnd = new int[n];
        long newOffset = offset;
        for (int k = 0; k < n; k++) {
            newShape[k] = Math.addExact(shape[k], before[k] + after[k]);
            newOffset -= (long) before[k] * strides[k];
            int start = maskStart == null ? 0 : maskStart[k];
            int end = maskEnd == null ? shape[k] : maskEnd[k];
            newStart[k] = end > start ? start + before[k] : 0;
            newEnd[k] = end > start ? end + before[k] : 0;
        }
        return new View(newShape, strides.clone(), newOffset, newStart, newEnd, fill);
    }

    /**
     * Reinterprets the elements in row-major order under a new shape of the same size, without
     * copying where the strides allow it (numpy's no-copy reshape, extended to zero strides).
     *
     * @param newShape the new shape, same number of elements
     * @return the reshaped view, or null if it needs a copy
     */
    public View reshape(int[] newShape) {
        if (Arrays.equals(shape, newShape)) {
            return this;
        }
        if (size() == 0) {
            return contiguous(newShape);
        }
        if (maskStart != null) {
            return reshapeMasked(newShape);
        }
        long[] newStrides = reshapeStrides(shape, strides, newShape);
        return newStrides == null ? null : new View(newShape.clone(), newStrides, offset, null, null, 0.0);
    }

    /** A masked view reshapes only by adding or removing length-1 dimensions. */
    private View reshapeMasked(int[] newShape) {
        int[] kept = nonUnitDimensions(shape);
        int[] newKept = nonUnitDimensions(newShape);
        if (kept.length != newKept.length) {
            return null;
        }
        long[] newStrides = new long[newShape.length];
        int[] newStart = new int[newShape.length];
        int[] newEnd = new int[newShape.length];
        for (int k = 0; k < newShape.length; k++) {
            newEnd[k] = newShape[k];
        }
        for (int j = 0; j < kept.length; j++) {
            if (shape[kept[j]] != newShape[newKept[j]]) {
                return null;
            }
            newStrides[newKept[j]] = strides[kept[j]];
            newStart[newKept[j]] = maskStart[kept[j]];
            newEnd[newKept[j]] = maskEnd[kept[j]];
        }
        for (int k = 0; k < shape.length; k++) {
            if (shape[k] == 1 && maskEnd[k] <= maskStart[k]) {
                return null; // a fully padded unit dimension would be lost
            }
        }
        return new View(newShape.clone(), newStrides, offset, newStart, newEnd, padValue);
    }

    private static int[] nonUnitDimensions(int[] shape) {
        return java.util.stream.IntStream.range(0, shape.length).filter(k -> shape[k] != 1).toArray();
    }

    /**
     * Strides for a no-copy reshape: dimensions are grouped into runs whose sizes multiply to the
     * same product on both sides; inside each run the old dimensions must be laid out like a
     * row-major block, and the new dimensions then take row-major strides based on the run's
     * innermost stride.
     */
    private static long[] reshapeStrides(int[] oldShape, long[] oldStrides, int[] newShape) {
        int[] oldDims = nonUnitDimensions(oldShape);
        long[] newStrides = new long[newShape.length];
        int o = 0;
        int n = 0;
        while (n < newShape.length || o < oldDims.length) {
            if (n < newShape.length && newShape[n] == 1) {
                newStrides[n++] = 0;
                continue;
            }
            if (o >= oldDims.length || n >= newShape.length) {
                return null;
            }
            int oldStart = o;
            int newStart = n;
            long oldProduct = oldShape[oldDims[o++]];
            long newProduct = newShape[n++];
            while (oldProduct != newProduct) {
                if (oldProduct < newProduct) {
                    if (o >= oldDims.length) {
                        return null;
                    }
                    oldProduct *= oldShape[oldDims[o++]];
                } else {
                    while (n < newShape.length && newShape[n] == 1) {
                        newStrides[n++] = 0;
                    }
                    if (n >= newShape.length) {
                        return null;
                    }
                    newProduct *= newShape[n++];
                }
            }
            for (int k = oldStart; k < o - 1; k++) {
                int outer = oldDims[k];
                int inner = oldDims[k + 1];
                if (oldStrides[outer] != oldStrides[inner] * oldShape[inner]) {
                    return null;
                }
            }
            long stride = oldStrides[oldDims[o - 1]];
            for (int k = n - 1; k >= newStart; k--) {
                if (newShape[k] == 1) {
                    newStrides[k] = 0;
                    continue;
                }
                newStrides[k] = stride;
                stride *= newShape[k];
            }
        }
        return newStrides;
    }

    private static int clamp(int value, int length) {
        return Math.max(0, Math.min(value, length));
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof View view && offset == view.offset && Arrays.equals(shape, view.shape)
                && Arrays.equals(strides, view.strides) && Arrays.equals(maskStart, view.maskStart)
                && Arrays.equals(maskEnd, view.maskEnd) && Double.compare(padValue, view.padValue) == 0;
    }

    @Override
    public int hashCode() {
        int hash = Arrays.hashCode(shape);
        hash = 31 * hash + Arrays.hashCode(strides);
        hash = 31 * hash + Long.hashCode(offset);
        hash = 31 * hash + Arrays.hashCode(maskStart);
        hash = 31 * hash + Arrays.hashCode(maskEnd);
        return 31 * hash + Double.hashCode(padValue);
    }

    @Override
    public String toString() {
        return "View" + Arrays.toString(shape) + " strides " + Arrays.toString(strides) + " offset " + offset
                + (maskStart == null ? "" : " mask " + Arrays.toString(maskStart) + ".." + Arrays.toString(maskEnd)
                + " pad " + padValue);
    }
}
