package dev.ein4j.runtime;

import dev.ein4j.ir.View;

/**
 * A computed tensor: a storage read through a view. Several realized tensors may share one storage
 * (a rearranged tensor is a view of its input).
 *
 * @param storage the buffer and its owner
 * @param view how the tensor's elements are found in it
 */
public record Realized(Storage storage, View view) {

    /** @return whether the view reads the whole buffer, compact and in order */
    public boolean isCompact() {
        return view.isContiguous() && storage.buffer().size() == view.size();
    }
}
