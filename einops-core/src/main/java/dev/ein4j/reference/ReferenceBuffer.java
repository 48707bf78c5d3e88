package dev.ein4j.reference;

import dev.ein4j.backend.DeviceBuffer;
import dev.ein4j.ir.DType;

/** The reference backend's buffer: doubles, each already rounded to the buffer's type. */
final class ReferenceBuffer implements DeviceBuffer {

    private final DType dtype;
    final double[] data;

    ReferenceBuffer(DType dtype, int size) {
        this.dtype = dtype;
        this.data = new double[size];
    }

    @Override
    public DType dtype() {
        return dtype;
    }

    @Override
    public int size() {
        return data.length;
    }

    void set(int index, double value) {
        data[index] = dtype.round(value);
    }
}
