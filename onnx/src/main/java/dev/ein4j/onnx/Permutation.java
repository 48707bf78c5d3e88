package dev.ein4j.onnx;

/** Transposes the row-major bytes of a constant, as ONNX's Transpose would, without recursion. */
final class Permutation {

    private Permutation() {
    }

    /**
     * @param data the elements, row-major over shape
     * @param shape the input shape
     * @param order output dimension k is input dimension order[k]
     * @param elementBytes bytes per element
     * @return the transposed elements, row-major over the output shape
     */
    static byte[] bytes(byte[] data, int[] shape, int[] order, int elementBytes) {
        int rank = shape.length;
        long[] inputStrides = new long[rank];
        long stride = 1;
        for (int k = rank - 1; k >= 0; k--) {
            inputStrides[k] = stride;
            stride *= shape[k];
        }
        int[] outShape = new int[rank];
        long[] strides = new long[rank];
        for (int k = 0; k < rank; k++) {
            outShape[k] = shape[order[k]];
            strides[k] = inputStrides[order[k]];
        }
        byte[] result = new byte[data.length];
        int elements = data.length / elementBytes;
        int[] index = new int[rank];
        long source = 0;
        for (int target = 0; target < elements; target++) {
            System.arraycopy(data, (int) source * elementBytes, result, target * elementBytes, elementBytes);
            for (int k = rank - 1; k >= 0; k--) { // the next output index, odometer-style
                index[k]++;
                source += strides[k];
                if (index[k] < outShape[k]) {
                    break;
                }
                source -= strides[k] * index[k];
                index[k] = 0;
            }
        }
        return result;
    }
}
