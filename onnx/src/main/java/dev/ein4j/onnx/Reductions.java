package dev.ein4j.onnx;

import dev.ein4j.ir.AxesArgument;
import dev.ein4j.ir.DType;
import dev.ein4j.ir.Node;
import dev.ein4j.onnx.proto.ElementType;
import java.util.List;

/**
 * SUM, REDUCE_MAX and PROD: pooling when they reduce windows ({@link Pools}), else ReduceSum,
 * ReduceMax and ReduceProd with keepdims=1, as the IR keeps reduced dimensions. ONNX Runtime's
 * ReduceMax and MaxPool skip NaN where ein4j (and PyTorch) propagate it, so a floating maximum
 * also reduces an is-NaN flag and gives NaN where it is set. Bool reductions run in int32 (a sum
 * of bools is an or, a product an and).
 */
final class Reductions {

    private Reductions() {
    }

    static Value reduce(Node node, Translation t, String opType) {
        boolean max = opType.equals("ReduceMax");
        if (max || opType.equals("ReduceSum")) {
            Value pooled = Pools.recognize(node, t, max);
            if (pooled != null) {
                return pooled;
            }
        }
        GraphOps ops = t.ops();
        DType type = node.dtype() == DType.BOOL ? DType.INT32 : node.dtype();
        Value x = t.value(node.source(0), type);
        int[] axes = ((AxesArgument) node.argument()).axes();
        Value reduced = ops.reduce(opType, x, axes);
        if (max && type.isFloating()) {
            Value flags = ops.cast(ops.unary("IsNaN", x, ElementType.BOOL), x.type());
            reduced = withNaN(ops, reduced, ops.reduce("ReduceMax", flags, axes));
        }
        return ops.cast(reduced, ElementType.of(node.dtype()));
    }

    /**
     * @param ops the operators
     * @param maximum a maximum that ignores NaN
     * @param anyNaN the same reduction of the is-NaN flags (1 where a NaN was reduced)
     * @return the maximum, NaN where the flag is set
     */
    static Value withNaN(GraphOps ops, Value maximum, Value anyNaN) {
        Value condition = ops.cast(anyNaN, ElementType.BOOL);
        Value nan = ops.graph().scalar(maximum.type(), Double.NaN);
        return ops.op("Where", List.of(condition, nan, maximum), List.of(), maximum.type(), maximum.shape(), maximum.batch());
    }
}
