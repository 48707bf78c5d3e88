package dev.ein4j.backend;

import dev.ein4j.ir.View;

/**
 * An operand of a backend kernel: a buffer read through a view (shape, strides, offset, mask).
 *
 * @param buffer the buffer, made by the backend that receives it
 * @param view how the operand's elements are found in the buffer
 */
public record BufferView(DeviceBuffer buffer, View view) {
}
