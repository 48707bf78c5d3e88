package dev.ein4j.conformance;

import dev.ein4j.ir.DType;
import java.util.Arrays;

/**
 * A TENSOR of the fixture format: shape, dtype and row-major data.
 *
 * @param shape the shape ([] for a scalar)
 * @param dtype float32, float64, int32 or bool
 * @param data the elements, read as doubles and rounded to the dtype
 */
record TensorData(int[] shape, DType dtype, double[] data) {

    @Override
    public String toString() {
        return dtype.numpyName() + Arrays.toString(shape);
    }
}
