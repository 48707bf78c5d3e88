package dev.ein4j.ir;

/**
 * WINDOW's argument: dimension {@code axis} of length L becomes two, output positions h of length
 * {@code outLength} and kernel offsets k of length {@code kernelLength}, element (h, k) being input
 * element {@code stride·h + dilation·k}. Requires stride·(outLength − 1) + dilation·(kernelLength −
 * 1) &lt; L.
 *
 * @param axis the windowed dimension
 * @param outLength H, the number of window positions
 * @param kernelLength K, the window's length
 * @param stride s, the step between positions
 * @param dilation d, the step within a window
 */
public record WindowArgument(int axis, int outLength, int kernelLength, int stride, int dilation) implements OpArgument {

    @Override
    public void encodeStructure(StructureSink sink) {
        sink.add(axis);
        sink.add(outLength);
        sink.add(kernelLength);
        sink.add(stride);
        sink.add(dilation);
    }

    /**
     * @param inputShape the windowed tensor's shape
     * @return the window view's shape: the axis replaced by [H, K]
     */
    public int[] shapeAfter(int[] inputShape) {
        int[] shape = new int[inputShape.length + 1];
        System.arraycopy(inputShape, 0, shape, 0, axis);
        shape[axis] = outLength;
        shape[axis + 1] = kernelLength;
        System.arraycopy(inputShape, axis + 1, shape, axis + 2, inputShape.length - axis - 1);
        return shape;
    }

    /**
     * @param length L, the input length
     * @param kernel K
     * @param stride s
     * @param dilation d
     * @return H = ⌊(L − d·(K − 1) − 1) / s⌋ + 1, or 0 if the window is longer than the input
     */
    public static int outLength(long length, long kernel, long stride, long dilation) {
        long span = dilation * (kernel - 1) + 1;
        return span > length ? 0 : (int) ((length - span) / stride + 1);
    }

    @Override
    public String toString() {
        return "axis " + axis + " -> [" + outLength + ", " + kernelLength + "] stride " + stride + " dilation " + dilation;
    }
}
