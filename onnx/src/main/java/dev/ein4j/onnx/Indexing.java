package dev.ein4j.onnx;

import dev.ein4j.ir.GatherArgument;
import dev.ein4j.ir.Node;
import dev.ein4j.ir.ScatterArgument;
import dev.ein4j.onnx.proto.Attribute;
import dev.ein4j.onnx.proto.ElementType;
import java.util.List;

/**
 * GATHER and SCATTER, PyTorch's gather and scatter along one axis: GatherElements and
 * ScatterElements (reduction none or add) with the int32 index cast to int64. An index that is one
 * position per slice, broadcast along every other dimension (an embedding lookup), is a plain
 * Gather of whole slices.
 */
final class Indexing {

    private Indexing() {
    }

    static Value gather(Node node, Translation t) {
        int axis = ((GatherArgument) node.argument()).axis();
        GraphOps ops = t.ops();
        Node source = node.source(0);
        Value x = t.value(source);
        Node positions = t.expandSource(node.source(1));
        if (readsWholeSlices(node, source, positions, axis, t)) {
            int length = positions.length(axis);
            int[] batch = t.batch(positions);
            Value flat = ops.reshape(t.value(positions), new int[] {length}, new int[] {batch[axis]});
            return ops.op("Gather", List.of(x, ops.cast(flat, ElementType.INT64)), List.of(Attribute.ofInt("axis", axis)),
                    x.type(), node.shape(), t.batch(node));
        }
        Value index = ops.cast(t.value(node.source(1)), ElementType.INT64);
        return ops.op("GatherElements", List.of(x, index), List.of(Attribute.ofInt("axis", axis)), x.type(), node.shape(),
                t.batch(node));
    }

    /** Whether the index varies along the axis only and the output keeps every other dimension of the source whole. */
    private static boolean readsWholeSlices(Node node, Node source, Node positions, int axis, Translation t) {
        int[] positionBatch = t.batch(positions);
        int[] sourceBatch = t.batch(source);
        int[] nodeBatch = t.batch(node);
        for (int k = 0; k < node.rank(); k++) {
            if (k == axis) {
                continue;
            }
            boolean broadcast = positions.length(k) == 1 && positionBatch[k] == 0;
            boolean whole = node.length(k) == source.length(k) && nodeBatch[k] == sourceBatch[k];
            if (!broadcast || !whole) {
                return false;
            }
        }
        return positions.rank() == node.rank();
    }

    static Value scatter(Node node, Translation t) {
        ScatterArgument argument = (ScatterArgument) node.argument();
        GraphOps ops = t.ops();
        ElementType type = ElementType.of(node.dtype());
        Value base = ops.cast(t.value(node.source(0)), type);
        Value index = ops.cast(t.value(node.source(1)), ElementType.INT64);
        Value updates = ops.cast(t.value(node.source(2)), type);
        return ops.op("ScatterElements", List.of(base, index, updates), List.of(Attribute.ofInt("axis", argument.axis()),
                Attribute.ofString("reduction", argument.accumulate() ? "add" : "none")), type, node.shape(), t.batch(node));
    }
}
