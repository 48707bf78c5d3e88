package dev.ein4j.onnx;

import dev.ein4j.ir.Node;
import dev.ein4j.onnx.proto.ElementType;
import java.util.Arrays;
import java.util.List;

/**
 * CONST and IOTA where they are not written as initializers: when a length grows with the batch
 * (or an iota is large). A constant is one element expanded to the shape; an iota is a Range.
 */
final class Creations {

    private Creations() {
    }

    static Value constant(Node node, Translation t) {
        GraphOps ops = t.ops();
        ElementType type = ElementType.of(node.dtype());
        int[] ones = new int[node.rank()];
        Arrays.fill(ones, 1);
        Value element = ops.reshape(ops.graph().scalar(type, node.constantValue()), ones, Value.fixed(node.rank()));
        return ops.expand(element, node.shape(), t.batch(node));
    }

    /** Range(0, size, 1) in int32, reshaped to the node's shape. */
    static Value iota(Node node, Translation t) {
        GraphOps ops = t.ops();
        int[] batch = t.batch(node);
        long size = node.size();
        int factor = 0;
        long fixed = 1;
        for (int k = 0; k < node.rank(); k++) {
            if (batch[k] != 0) {
                if (factor != 0) {
                    throw t.error(node, "an iota whose size grows faster than the batch");
                }
                factor = batch[k];
            } else {
                fixed *= node.length(k);
            }
        }
        Value limit;
        if (factor == 0) {
            limit = ops.graph().scalar(ElementType.INT32, size);
        } else {
            Value count = ops.batchMultiple(Math.toIntExact(factor * fixed));
            Value scalar = ops.reshape(count, new int[0], new int[0]);
            limit = ops.cast(scalar, ElementType.INT32);
        }
        Value start = ops.graph().scalar(ElementType.INT32, 0);
        Value delta = ops.graph().scalar(ElementType.INT32, 1);
        int[] flatBatch = {factor == 0 ? 0 : Math.toIntExact(factor * fixed)};
        Value range = ops.op("Range", List.of(start, limit, delta), List.of(), ElementType.INT32,
                new int[] {Math.toIntExact(size)}, flatBatch);
        return ops.reshape(range, node.shape(), batch);
    }
}
