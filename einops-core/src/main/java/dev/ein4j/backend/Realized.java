package dev.ein4j.backend;

import dev.ein4j.ir.View;

/**
 * A computed tensor: a storage read through a view. Several realized tensors may share one storage
 * (a rearranged tensor is a view of its input).
 *
 * @param storage the buffer and its owner
 * @param view how the tensor's elements are found in it
 */
public record Realized(Storage storage, View view) {

    /** @return the operand form that backends receive */
    public BufferView bufferView() {
        return new BufferView(storage.buffer(), view);
    }
}
