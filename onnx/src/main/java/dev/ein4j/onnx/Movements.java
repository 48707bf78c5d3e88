package dev.ein4j.onnx;

import dev.ein4j.ir.AxesArgument;
import dev.ein4j.ir.Node;
import dev.ein4j.ir.PadArgument;
import dev.ein4j.ir.PermuteArgument;
import dev.ein4j.ir.ShrinkArgument;
import dev.ein4j.ir.WindowArgument;
import dev.ein4j.onnx.proto.Attribute;
import dev.ein4j.onnx.proto.TensorData;
import java.util.ArrayList;
import java.util.List;

/** The movement primitives: views in ein4j, shape operators in ONNX. */
final class Movements {

    private Movements() {
    }

    static Value reshape(Node node, Translation t) {
        return t.ops().reshape(t.value(node.source(0)), node.shape(), t.batch(node));
    }

    static Value permute(Node node, Translation t) {
        return t.ops().transpose(t.value(node.source(0)), ((PermuteArgument) node.argument()).order());
    }

    static Value expand(Node node, Translation t) {
        return t.ops().expand(t.value(node.source(0)), node.shape(), t.batch(node));
    }

    /** Pad, mode constant, with the fill value in the tensor's type. */
    static Value pad(Node node, Translation t) {
        PadArgument argument = (PadArgument) node.argument();
        Value x = t.value(node.source(0));
        int rank = node.rank();
        long[] pads = new long[2 * rank];
        boolean any = false;
        for (int k = 0; k < rank; k++) {
            pads[k] = argument.before()[k];
            pads[rank + k] = argument.after()[k];
            any |= argument.before()[k] != 0 || argument.after()[k] != 0;
        }
        if (!any) {
            return x;
        }
        GraphOps ops = t.ops();
        Value fill = ops.graph().scalar(x.type(), argument.fill());
        return ops.op("Pad", List.of(x, ops.graph().longs(pads), fill), List.of(Attribute.ofString("mode", "constant")),
                x.type(), node.shape(), t.batch(node));
    }

    /** Slice of the dimensions SHRINK cuts; an end at a dynamic length is "to the end". */
    static Value shrink(Node node, Translation t) {
        ShrinkArgument argument = (ShrinkArgument) node.argument();
        Node source = node.source(0);
        int[] sourceBatch = t.batch(source);
        List<long[]> cuts = new ArrayList<>();
        for (int k = 0; k < node.rank(); k++) {
            int start = argument.starts()[k];
            int end = argument.ends()[k];
            if (start == 0 && end == source.length(k)) {
                continue;
            }
            long sliceEnd = sourceBatch[k] != 0 && end == source.length(k) ? Long.MAX_VALUE : end;
            cuts.add(new long[] {k, start, sliceEnd, 1});
        }
        return t.ops().slice(t.value(source), cuts, node.shape(), t.batch(node));
    }

    /** Slice from the last element to before the first, step −1, of each flipped dimension longer than 1. */
    static Value flip(Node node, Translation t) {
        List<long[]> cuts = new ArrayList<>();
        for (int axis : ((AxesArgument) node.argument()).axes()) {
            if (node.length(axis) > 1 || t.batch(node)[axis] != 0) {
                cuts.add(new long[] {axis, -1, Long.MIN_VALUE, -1});
            }
        }
        return t.ops().slice(t.value(node.source(0)), cuts, node.shape(), t.batch(node));
    }

    /**
     * The general window: Gather along the axis with the constant indices s·h + d·k, an int64
     * [H, K] tensor, which replaces the axis by [H, K] as WINDOW does. Windows under a
     * convolution or pooling are read by Conv, MaxPool or AveragePool instead.
     */
    static Value window(Node node, Translation t) {
        WindowArgument argument = (WindowArgument) node.argument();
        int positions = argument.outLength();
        int kernel = argument.kernelLength();
        long[] indices = new long[positions * kernel];
        for (int h = 0; h < positions; h++) {
            for (int k = 0; k < kernel; k++) {
                indices[h * kernel + k] = (long) argument.stride() * h + (long) argument.dilation() * k;
            }
        }
        GraphOps ops = t.ops();
        Value table = ops.graph().constant(TensorData.ofLongs("", new long[] {positions, kernel}, indices),
                new int[] {positions, kernel});
        Value x = t.value(node.source(0));
        return ops.op("Gather", List.of(x, table), List.of(Attribute.ofInt("axis", argument.axis())), x.type(),
                node.shape(), t.batch(node));
    }
}
