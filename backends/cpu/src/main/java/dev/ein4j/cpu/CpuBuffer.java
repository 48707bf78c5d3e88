package dev.ein4j.cpu;

import dev.ein4j.backend.DeviceBuffer;
import dev.ein4j.ir.DType;
import dev.ein4j.kernel.HostData;

/** A CPU buffer: a Java array of the buffer's own type (float32 as float[], bool as byte[]). */
final class CpuBuffer implements DeviceBuffer {

    final HostData data;
    volatile boolean released;

    CpuBuffer(HostData data) {
        this.data = data;
    }

    @Override
    public DType dtype() {
        return data.dtype();
    }

    @Override
    public long size() {
        return data.length();
    }

    @Override
    public String toString() {
        return "CpuBuffer[" + data.dtype().numpyName() + " " + data.length() + (released ? ", released]" : "]");
    }
}
