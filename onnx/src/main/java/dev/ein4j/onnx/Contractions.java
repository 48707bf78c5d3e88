package dev.ein4j.onnx;

import dev.ein4j.ir.AxesArgument;
import dev.ein4j.ir.DType;
import dev.ein4j.ir.Node;
import dev.ein4j.onnx.proto.ElementType;
import java.util.ArrayList;
import java.util.List;

/**
 * CONTRACT, Σ over axes of x·y for two views x and y of one shape: a convolution when the views
 * are windows of an image and of a kernel ({@link Convolutions}), otherwise one MatMul. Every
 * dimension of the joint shape has a role, found from which operand really has it (the other
 * reads it through a broadcast): batch (both, kept), M (x only, kept), N (y only, kept), K (both,
 * summed). x is transposed to [batch, M, K] and reshaped to [B, M, K], y to [B, K, N], and the
 * product [B, M, N] is reshaped and transposed back; the shape operators around it mostly cancel.
 */
final class Contractions {

    /** The role of one dimension of a contraction. */
    enum Role {
        /** Length 1 everywhere: nothing to do. */
        UNIT,
        /** In both operands, kept. */
        BATCH,
        /** In x only, kept. */
        M,
        /** In y only, kept. */
        N,
        /** In both, summed. */
        K,
        /** Summed but in x only: x is summed over it first. */
        SUM_X,
        /** Summed but in y only. */
        SUM_Y,
        /** Summed, in neither: the product is multiplied by the length. */
        SCALE,
        /** Kept, in neither: the product is broadcast. */
        BROADCAST
    }

    private Contractions() {
    }

    static Value contract(Node node, Translation t) {
        Value convolution = Convolutions.recognize(node, t);
        return convolution != null ? convolution : matmul(node, t);
    }

    /**
     * @param node a CONTRACT
     * @param t the translation
     * @param x the node read for the first operand (below its EXPANDs)
     * @param y the node read for the second
     * @return the role of each dimension
     */
    static Role[] roles(Node node, Translation t, Node x, Node y) {
        Node joint = node.source(0);
        int[] shape = joint.shape();
        int[] batch = t.batch(joint);
        AxesArgument summed = (AxesArgument) node.argument();
        Role[] roles = new Role[shape.length];
        int[] xBatch = t.batch(x);
        int[] yBatch = t.batch(y);
        for (int k = 0; k < shape.length; k++) {
            boolean inX = x.length(k) != 1 || xBatch[k] != 0;
            boolean inY = y.length(k) != 1 || yBatch[k] != 0;
            boolean unit = shape[k] == 1 && batch[k] == 0;
            if (unit) {
                roles[k] = Role.UNIT;
            } else if (summed.contains(k)) {
                roles[k] = inX && inY ? Role.K : inX ? Role.SUM_X : inY ? Role.SUM_Y : Role.SCALE;
            } else {
                roles[k] = inX && inY ? Role.BATCH : inX ? Role.M : inY ? Role.N : Role.BROADCAST;
            }
        }
        return roles;
    }

    private static Value matmul(Node node, Translation t) {
        Node xNode = t.expandSource(node.source(0));
        Node yNode = t.expandSource(node.source(1));
        Role[] roles = roles(node, t, xNode, yNode);
        GraphOps ops = t.ops();
        DType type = node.dtype() == DType.BOOL ? DType.INT32 : node.dtype(); // a bool product is an int32 one, non-zero
        Value x = t.value(xNode, type);
        Value y = t.value(yNode, type);
        List<Integer> batchAxes = axesOf(roles, Role.BATCH);
        List<Integer> mAxes = axesOf(roles, Role.M);
        List<Integer> nAxes = axesOf(roles, Role.N);
        List<Integer> kAxes = axesOf(roles, Role.K);
        x = ops.reduce("ReduceSum", x, toArray(axesOf(roles, Role.SUM_X)));
        y = ops.reduce("ReduceSum", y, toArray(axesOf(roles, Role.SUM_Y)));
        Value left = matrices(ops, x, batchAxes, mAxes, kAxes, node, t);
        Value right = matrices(ops, y, batchAxes, kAxes, nAxes, node, t);
        int[] productShape = left.shape().clone();
        int[] productBatch = left.batch().clone();
        productShape[productShape.length - 1] = right.shape()[right.rank() - 1];
        productBatch[productBatch.length - 1] = right.batch()[right.rank() - 1];
        Value product = ops.op("MatMul", List.of(left, right), List.of(), left.type(), productShape, productBatch);
        List<Integer> kept = new ArrayList<>(batchAxes);
        kept.addAll(mAxes);
        kept.addAll(nAxes);
        Value arranged = arrange(ops, product, kept, node, t);
        for (int k = 0; k < roles.length; k++) {
            if (roles[k] == Role.SCALE) {
                if (t.batch(node.source(0))[k] != 0) {
                    throw t.error(node, "a sum over a broadcast dimension whose length grows with the batch");
                }
                arranged = ops.op("Mul", List.of(arranged, ops.graph().scalar(arranged.type(), node.source(0).length(k))),
                        List.of(), arranged.type(), arranged.shape(), arranged.batch());
            }
        }
        arranged = ops.expand(arranged, node.shape(), t.batch(node));
        return ops.cast(arranged, ElementType.of(node.dtype()));
    }

    /**
     * An operand as a stack of matrices: transposed to [batch, rows, columns, the rest (length
     * 1)] and reshaped to [B, R, C], or [R, C] without batch axes.
     */
    private static Value matrices(GraphOps ops, Value x, List<Integer> batchAxes, List<Integer> rows, List<Integer> columns,
            Node node, Translation t) {
        List<Integer> order = new ArrayList<>(batchAxes);
        order.addAll(rows);
        order.addAll(columns);
        for (int k = 0; k < x.rank(); k++) {
            if (!order.contains(k)) {
                order.add(k);
            }
        }
        Value transposed = ops.transpose(x, toArray(order));
        int groups = batchAxes.isEmpty() ? 2 : 3;
        int[] shape = new int[groups];
        int[] batch = new int[groups];
        int[][] parts = {toArray(batchAxes), toArray(rows), toArray(columns)};
        for (int g = 0; g < groups; g++) {
            int[] merged = x.merged(parts[groups == 3 ? g : g + 1]);
            if (merged == null) {
                throw t.error(node, "two dimensions that grow with the batch are multiplied together");
            }
            shape[g] = merged[0];
            batch[g] = merged[1];
        }
        return ops.reshape(transposed, shape, batch);
    }

    /**
     * Brings a result whose dimensions are some of the node's (in the listed order, each of the
     * node's length, length-1 ones possibly missing) to the node's layout: reshaped to those
     * dimensions followed by length 1 for the others, then transposed into place.
     *
     * @param ops the operators
     * @param result the result, whose size is the product of the listed dimensions
     * @param dimensions the node's dimensions, in the result's order
     * @param node the node (its shape, with its summed dimensions as 1)
     * @param t the translation
     * @return the result in the node's shape, except dimensions the result broadcasts (length 1)
     */
    static Value arrange(GraphOps ops, Value result, List<Integer> dimensions, Node node, Translation t) {
        int rank = node.rank();
        int[] nodeBatch = t.batch(node);
        List<Integer> order = new ArrayList<>(dimensions);
        for (int k = 0; k < rank; k++) {
            if (!order.contains(k)) {
                order.add(k);
            }
        }
        int[] shape = new int[rank];
        int[] batch = new int[rank];
        for (int i = 0; i < rank; i++) {
            int k = order.get(i);
            boolean listed = i < dimensions.size();
            shape[i] = listed ? node.length(k) : 1;
            batch[i] = listed ? nodeBatch[k] : 0;
        }
        Value reshaped = ops.reshape(result, shape, batch);
        int[] inverse = new int[rank];
        for (int i = 0; i < rank; i++) {
            inverse[order.get(i)] = i;
        }
        return ops.transpose(reshaped, inverse);
    }

    static List<Integer> axesOf(Role[] roles, Role role) {
        List<Integer> axes = new ArrayList<>();
        for (int k = 0; k < roles.length; k++) {
            if (roles[k] == role) {
                axes.add(k);
            }
        }
        return axes;
    }

    static int[] toArray(List<Integer> values) {
        return values.stream().mapToInt(Integer::intValue).toArray();
    }
}
