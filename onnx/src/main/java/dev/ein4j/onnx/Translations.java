package dev.ein4j.onnx;

import dev.ein4j.ir.Node;
import dev.ein4j.ir.Op;
import java.util.EnumMap;
import java.util.Map;

/**
 * The table from IR primitives to their ONNX translations: one entry per primitive. A primitive
 * without an entry is refused with {@link OnnxExportException} naming the node.
 *
 * <table>
 *   <caption>What maps to what</caption>
 *   <tr><th>IR</th><th>ONNX</th></tr>
 *   <tr><td>RESHAPE PERMUTE EXPAND</td><td>Reshape, Transpose, Expand (dropped when they change nothing or a
 *       broadcast makes them implicit)</td></tr>
 *   <tr><td>PAD SHRINK FLIP</td><td>Pad (constant), Slice, Slice with step −1</td></tr>
 *   <tr><td>WINDOW</td><td>Gather with constant int64 indices s·h + d·k (under a convolution or pooling: none)</td></tr>
 *   <tr><td>EXP LOG SQRT RECIPROCAL SIN</td><td>Exp, Log, Sqrt, Reciprocal, Sin</td></tr>
 *   <tr><td>CAST</td><td>Cast (float to int32 through int64, which truncates and wraps as ein4j does)</td></tr>
 *   <tr><td>ADD MUL MAX</td><td>Add, Mul, Max (bool: Or, And, Or)</td></tr>
 *   <tr><td>CMPLT CMPEQ WHERE</td><td>Less, Equal, Where</td></tr>
 *   <tr><td>SUM REDUCE_MAX PROD</td><td>ReduceSum, ReduceMax (with a NaN check), ReduceProd, keepdims=1; over windows
 *       AveragePool·k or MaxPool</td></tr>
 *   <tr><td>CONTRACT</td><td>MatMul between Transpose/Reshape; over a window view, Conv</td></tr>
 *   <tr><td>CONST IOTA</td><td>initializers (Expand, Range when a length is dynamic)</td></tr>
 *   <tr><td>RAND</td><td>refused, or frozen as an initializer</td></tr>
 *   <tr><td>INPUT CONTIGUOUS DETACH</td><td>graph inputs or initializers; nothing</td></tr>
 * </table>
 */
final class Translations {

    /** Translates one node, reading its sources through the translation. */
    @FunctionalInterface
    interface OpTranslation {
        /**
         * @param node the node
         * @param translation the translation in progress
         * @return the node's value, of its type, shape and batch factors
         */
        Value translate(Node node, Translation translation);
    }

    private static final Map<Op, OpTranslation> TABLE = new EnumMap<>(Op.class);

    static {
        TABLE.put(Op.RESHAPE, Movements::reshape);
        TABLE.put(Op.PERMUTE, Movements::permute);
        TABLE.put(Op.EXPAND, Movements::expand);
        TABLE.put(Op.PAD, Movements::pad);
        TABLE.put(Op.SHRINK, Movements::shrink);
        TABLE.put(Op.FLIP, Movements::flip);
        TABLE.put(Op.WINDOW, Movements::window);
        TABLE.put(Op.EXP, (node, t) -> Elementwise.unary(node, t, "Exp"));
        TABLE.put(Op.LOG, (node, t) -> Elementwise.unary(node, t, "Log"));
        TABLE.put(Op.SQRT, (node, t) -> Elementwise.unary(node, t, "Sqrt"));
        TABLE.put(Op.RECIPROCAL, (node, t) -> Elementwise.unary(node, t, "Reciprocal"));
        TABLE.put(Op.SIN, (node, t) -> Elementwise.unary(node, t, "Sin"));
        TABLE.put(Op.CAST, Elementwise::cast);
        TABLE.put(Op.ADD, (node, t) -> Elementwise.arithmetic(node, t, "Add", "Or"));
        TABLE.put(Op.MUL, (node, t) -> Elementwise.arithmetic(node, t, "Mul", "And"));
        TABLE.put(Op.MAX, (node, t) -> Elementwise.arithmetic(node, t, "Max", "Or"));
        TABLE.put(Op.CMPLT, (node, t) -> Elementwise.comparison(node, t, "Less"));
        TABLE.put(Op.CMPEQ, (node, t) -> Elementwise.comparison(node, t, "Equal"));
        TABLE.put(Op.WHERE, Elementwise::where);
        TABLE.put(Op.SUM, (node, t) -> Reductions.reduce(node, t, "ReduceSum"));
        TABLE.put(Op.REDUCE_MAX, (node, t) -> Reductions.reduce(node, t, "ReduceMax"));
        TABLE.put(Op.PROD, (node, t) -> Reductions.reduce(node, t, "ReduceProd"));
        TABLE.put(Op.CONTRACT, Contractions::contract);
        TABLE.put(Op.CONST, Creations::constant);
        TABLE.put(Op.IOTA, Creations::iota);
        TABLE.put(Op.RAND, (node, t) -> {
            throw t.error(node, "random numbers drawn for a shape that grows with the batch cannot be exported;"
                    + " call eval() on the model (dropout) or pass the random numbers as an input");
        });
        TABLE.put(Op.INPUT, (node, t) -> {
            throw t.error(node, "data that is neither a sample input nor a constant of the model");
        });
        TABLE.put(Op.CONTIGUOUS, (node, t) -> t.value(node.source(0)));
        TABLE.put(Op.DETACH, (node, t) -> t.value(node.source(0)));
    }

    private Translations() {
    }

    /**
     * @param op a primitive
     * @return its translation, or null when it has none
     */
    static OpTranslation of(Op op) {
        return TABLE.get(op);
    }
}
