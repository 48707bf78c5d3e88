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
     * CAST. Float to int32 as ein4j does it: truncated toward zero in int64, then wrapped modulo
     * 2³² into int32's range (NaN, which int64 holds as −2⁶³, becomes 0; from 2⁶³ up, where Java's
     * conversion saturates, −1). ONNX Runtime's own
     * float-to-int32 and int64-to-int32 casts saturate out of range instead.
     */
    static Value cast(Node node, Translation t) {
        Value x = t.value(node.source(0));
        ElementType target = ElementType.of(node.dtype());
        GraphOps ops = t.ops();
        if (target == ElementType.INT32 && (x.type() == ElementType.FLOAT || x.type() == ElementType.DOUBLE)) {
            Value truncated = ops.cast(x, ElementType.INT64);
            Value modulus = ops.graph().scalar(ElementType.INT64, 1L << 32);
            Value residue = ops.op("Mod", List.of(truncated, modulus), List.of(), ElementType.INT64, x.shape(), x.batch());
            Value high = ops.op("Less", List.of(ops.graph().scalar(ElementType.INT64, Integer.MAX_VALUE), residue), List.of(),
                    ElementType.BOOL, x.shape(), x.batch());
            Value negative = ops.op("Sub", List.of(residue, modulus), List.of(), ElementType.INT64, x.shape(), x.batch());
            Value wrapped = ops.op("Where", List.of(high, negative, residue), List.of(), ElementType.INT64, x.shape(),
                    x.batch());
            // from 2^63 up (infinity included) Java's long conversion saturates, and the wrapped int is -1
            double belowLimit = x.type() == ElementType.FLOAT ? Math.nextDown(0x1p63f) : Math.nextDown(0x1p63);
            Value saturated = ops.op("Less", List.of(ops.graph().scalar(x.type(), belowLimit), x), List.of(),
                    ElementType.BOOL, x.shape(), x.batch());
            x = ops.op("Where", List.of(saturated, ops.graph().scalar(ElementType.INT64, -1), wrapped), List.of(),
                    ElementType.INT64, x.shape(), x.batch());
        }
        return ops.cast(x, target);
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

    /** WHERE: Where(condition, x, y); bool values are chosen as int32 (ONNX Runtime's Where has no bool). */
    static Value where(Node node, Translation t) {
        List<Value> operands = operandsAsIs(node, t);
        GraphOps ops = t.ops();
        ElementType type = ElementType.of(node.dtype());
        ElementType chosen = type == ElementType.BOOL ? ElementType.INT32 : type;
        List<Value> typed = List.of(ops.cast(operands.get(0), ElementType.BOOL), ops.cast(operands.get(1), chosen),
                ops.cast(operands.get(2), chosen));
        return ops.cast(ops.op("Where", typed, List.of(), chosen, node.shape(), t.batch(node)), type);
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
