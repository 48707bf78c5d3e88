package dev.ein4j.backend;

import dev.ein4j.ir.DType;

/**
 * A flat array of elements owned by a backend (a Java array, an OpenCL buffer, ...). The core never
 * looks inside; it hands buffers back to the backend that made them.
 */
public interface DeviceBuffer {

    /** @return the element type */
    DType dtype();

    /** @return the number of elements */
    long size();
}
