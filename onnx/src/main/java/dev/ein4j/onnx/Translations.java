package dev.ein4j.onnx;

import dev.ein4j.ir.Node;
import dev.ein4j.ir.Op;

/**
 * The table from IR primitives to their ONNX translations: one entry per primitive.
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
 *   <tr><td>GATHER SCATTER</td><td>GatherElements (Gather for whole slices: an embedding), ScatterElements
 *       (reduction none or add), int64 indices</td></tr>
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

    private Translations() {
    }

    /**
     * The table itself: a switch over every primitive with no default, so that a new primitive
     * does not compile until it has an entry here.
     *
     * @param op a primitive
     * @return its translation
     */
    static OpTranslation of(Op op) {
        return switch (op) {
            case RESHAPE -> Movements::reshape;
            case PERMUTE -> Movements::permute;
            case EXPAND -> Movements::expand;
            case PAD -> Movements::pad;
            case SHRINK -> Movements::shrink;
            case FLIP -> Movements::flip;
            case WINDOW -> Movements::window;
            case EXP -> (node, t) -> Elementwise.unary(node, t, "Exp");
            case LOG -> (node, t) -> Elementwise.unary(node, t, "Log");
            case SQRT -> (node, t) -> Elementwise.unary(node, t, "Sqrt");
            case RECIPROCAL -> (node, t) -> Elementwise.unary(node, t, "Reciprocal");
            case SIN -> (node, t) -> Elementwise.unary(node, t, "Sin");
            case CAST -> Elementwise::cast;
            case ADD -> (node, t) -> Elementwise.arithmetic(node, t, "Add", "Or");
            case MUL -> (node, t) -> Elementwise.arithmetic(node, t, "Mul", "And");
            case MAX -> (node, t) -> Elementwise.arithmetic(node, t, "Max", "Or");
            case CMPLT -> (node, t) -> Elementwise.comparison(node, t, "Less");
            case CMPEQ -> (node, t) -> Elementwise.comparison(node, t, "Equal");
            case WHERE -> Elementwise::where;
            case SUM -> (node, t) -> Reductions.reduce(node, t, "ReduceSum");
            case REDUCE_MAX -> (node, t) -> Reductions.reduce(node, t, "ReduceMax");
            case PROD -> (node, t) -> Reductions.reduce(node, t, "ReduceProd");
            case CONTRACT -> Contractions::contract;
            case GATHER -> Indexing::gather;
            case SCATTER -> Indexing::scatter;
            case CONST -> Creations::constant;
            case IOTA -> Creations::iota;
            case RAND -> (node, t) -> {
                throw t.error(node, "random numbers drawn for a shape that grows with the batch cannot be exported;"
                        + " call eval() on the model (dropout) or pass the random numbers as an input");
            };
            case INPUT -> (node, t) -> {
                throw t.error(node, "data that is neither a sample input nor a constant of the model");
            };
            case CONTIGUOUS, DETACH -> (node, t) -> t.value(node.source(0));
        };
    }
}
