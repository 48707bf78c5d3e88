package dev.ein4j.onnx;

import dev.ein4j.ir.DType;
import dev.ein4j.ir.Node;
import dev.ein4j.onnx.proto.ElementType;
import java.util.ArrayList;
import java.util.List;

/**
 * The elementwise primitives. Their operands are read through their broadcasts
 * ({@link Translation#broadcastSource}): ONNX's operators broadcast as numpy does, so an
 * expanded constant is written as one element.
 */
final class Elementwise {

    private Elementwise() {
    }

    /** EXP, LOG, SQRT, RECIPROCAL, SIN: the ONNX operator of the same name, in the node's (floating) type. */
    static Value unary(Node node, Translation t, String opType) {
        return t.ops().unary(opType, t.value(node.source(0), node.dtype()));
    }

    /**
     * CAST. Float to int32 goes through int64: ein4j truncates toward zero and wraps modulo 2³²,
     * and maps NaN to 0; a direct float-to-int32 Cast is undefined out of range.
     */
    static Value cast(Node node, Translation t) {
        Value x = t.value(node.source(0));
        ElementType target = ElementType.of(node.dtype());
        if (target == ElementType.INT32 && (x.type() == ElementType.FLOAT || x.type() == ElementType.DOUBLE)) {
            x = t.ops().cast(x, ElementType.INT64);
        }
        return t.ops().cast(x, target);
    }

    /** ADD, MUL, MAX: numeric operators, or the logical one for bool (or, and, or). */
    static Value arithmetic(Node node, Translation t, String numeric, String logical) {
        boolean bool = node.dtype() == DType.BOOL;
        List<Value> operands = operands(node, t, node.dtype());
        return t.ops().op(bool ? logical : numeric, operands, List.of(), ElementType.of(node.dtype()), node.shape(),
                t.batch(node));
    }

    /** CMPLT, CMPEQ: Less and Equal give bool; bool operands are compared as int32 (Less has no bool). */
    static Value comparison(Node node, Translation t, String opType) {
        DType operandType = node.source(0).dtype().promote(node.source(1).dtype());
        if (operandType == DType.BOOL && opType.equals("Less")) {
            operandType = DType.INT32;
        }
        return t.ops().op(opType, operands(node, t, operandType), List.of(), ElementType.BOOL, node.shape(),
                t.batch(node));
    }

    /** WHERE: Where(condition, x, y). */
    static Value where(Node node, Translation t) {
        List<Value> operands = operandsAsIs(node, t);
        GraphOps ops = t.ops();
        ElementType type = ElementType.of(node.dtype());
        List<Value> typed = List.of(ops.cast(operands.get(0), ElementType.BOOL), ops.cast(operands.get(1), type),
                ops.cast(operands.get(2), type));
        return ops.op("Where", typed, List.of(), type, node.shape(), t.batch(node));
    }

    private static List<Value> operands(Node node, Translation t, DType type) {
        List<Value> operands = operandsAsIs(node, t);
        List<Value> typed = new ArrayList<>();
        for (Value operand : operands) {
            typed.add(t.ops().cast(operand, ElementType.of(type)));
        }
        return typed;
    }

    /**
     * The sources' values, each read through its broadcast when the operands still broadcast to
     * the node's shape; otherwise the first is read as it is (it has the node's shape).
     */
    private static List<Value> operandsAsIs(Node node, Translation t) {
        List<Value> peeled = new ArrayList<>();
        for (int i = 0; i < node.sourceCount(); i++) {
            peeled.add(t.value(t.broadcastSource(node.source(i))));
        }
        if (!broadcastsTo(peeled, node.shape(), t.batch(node))) {
            peeled.set(0, t.value(node.source(0)));
        }
        return peeled;
    }

    /** Whether numpy broadcasting of the values (aligned from the right) gives exactly the shape. */
    static boolean broadcastsTo(List<Value> values, int[] shape, int[] batch) {
        int rank = shape.length;
        for (int k = 0; k < rank; k++) {
            int length = 1;
            int factor = 0;
            for (Value value : values) {
                int axis = value.rank() - rank + k;
                if (axis < 0) {
                    continue;
                }
                int l = value.shape()[axis];
                int f = value.batch()[axis];
                if (l == 1 && f == 0) {
                    continue;
                }
                if ((length != 1 || factor != 0) && (l != length || f != factor)) {
                    return false;
                }
                length = l;
                factor = f;
            }
            if (length != shape[k] || factor != batch[k]) {
                return false;
            }
        }
        int largest = 0;
        for (Value value : values) {
            largest = Math.max(largest, value.rank());
        }
        return largest == rank; // the result has the largest rank of the operands

    }
}
