package dev.ein4j.opencl;

import dev.ein4j.ir.DType;
import dev.ein4j.kernel.HostData;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.jocl.Pointer;

/**
 * The bridge between {@link HostData} and the bytes OpenCL copies: each host type already has the
 * device layout (float32 as 4-byte floats, bool as bytes 0/1), so transfers are plain copies.
 */
final class HostArrays {

    private HostArrays() {
    }

    /**
     * @param data host elements
     * @return a pointer to the array itself, for blocking transfers only (JOCL pins it for the call)
     */
    static Pointer pointerTo(HostData data) {
        if (data instanceof HostData.Float32 f) {
            return Pointer.to(f.values());
        }
        if (data instanceof HostData.Float64 d) {
            return Pointer.to(d.values());
        }
        if (data instanceof HostData.Int32 i) {
            return Pointer.to(i.values());
        }
        return Pointer.to(((HostData.Bool) data).values());
    }

    /**
     * @param data host elements
     * @return a direct buffer holding a copy, in the device's (native) byte order, which an
     *         asynchronous write may read after the call returns
     */
    static ByteBuffer directCopy(HostData data) {
        ByteBuffer buffer = ByteBuffer.allocateDirect(data.length() * data.dtype().bytes()).order(ByteOrder.nativeOrder());
        if (data instanceof HostData.Float32 f) {
            buffer.asFloatBuffer().put(f.values());
        } else if (data instanceof HostData.Float64 d) {
            buffer.asDoubleBuffer().put(d.values());
        } else if (data instanceof HostData.Int32 i) {
            buffer.asIntBuffer().put(i.values());
        } else {
            buffer.put(((HostData.Bool) data).values());
            buffer.rewind();
        }
        return buffer;
    }

    /**
     * @param data host elements of any type
     * @param dtype the type wanted
     * @return the same data if already of that type, else a copy rounded to it
     */
    static HostData convert(HostData data, DType dtype) {
        if (data.dtype() == dtype) {
            return data;
        }
        HostData converted = HostData.allocate(dtype, data.length());
        for (int i = 0; i < data.length(); i++) {
            converted.set(i, data.get(i));
        }
        return converted;
    }
}
