package dev.ein4j.reference;

import dev.ein4j.backend.DeviceBuffer;
import dev.ein4j.ir.DType;
import dev.ein4j.kernel.HostData;

/** The reference backend's buffer: a host array of the buffer's own type. */
final class ReferenceBuffer implements DeviceBuffer {

    final HostData data;

    ReferenceBuffer(DType dtype, int size) {
        this.data = HostData.allocate(dtype, size);
    }

    @Override
    public DType dtype() {
        return data.dtype();
    }

    @Override
    public long size() {
        return data.length();
    }
}
