package dev.ein4j.onnx;

import dev.ein4j.ir.Node;
import dev.ein4j.ir.Op;
import dev.ein4j.ir.ShrinkArgument;
import dev.ein4j.runtime.Lifetimes;
import dev.ein4j.tensor.internal.TensorInternals;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Finds which lengths of a traced graph grow with the batch, by comparing the graphs of two calls
 * whose batch sizes are B₁ and B₂ = B₁ + 1: node by node (both in post-order), the structure must
 * agree, and a length that differs must be c·B₁ in the first and c·B₂ in the second, giving the
 * factor c. Arguments must agree, except the end of a SHRINK that keeps a dimension to its end.
 * A graph that fails this (a loop over the batch, a mean over it, a length like B + 1) cannot be
 * exported with a dynamic batch.
 */
final class BatchFactors {

    private BatchFactors() {
    }

    static void compare(TracedGraph first, TracedGraph second, int firstBatch, int secondBatch) {
        List<Node> a = first.order();
        List<Node> b = second.order();
        if (a.size() != b.size()) {
            throw new OnnxExportException("the traced graph has " + a.size() + " nodes for a batch of " + firstBatch
                    + " but " + b.size() + " for a batch of " + secondBatch + ": its structure depends on the batch size,"
                    + " so it cannot be exported with a dynamic batch (export it with fixed shapes)");
        }
        for (int i = 0; i < a.size(); i++) {
            Node x = a.get(i);
            Node y = b.get(i);
            String mismatch = structureMismatch(x, y, first, second);
            if (mismatch == null && !first.inputs().contains(x)) {
                mismatch = argumentMismatch(x, y);
            }
            if (mismatch != null) {
                throw NodeDescription.error(x, first, "with a batch of " + secondBatch + " instead of " + firstBatch
                        + " the traced graph has " + NodeDescription.of(y) + " here: " + mismatch
                        + "; export it with fixed shapes");
            }
            int[] factors = new int[x.rank()];
            for (int k = 0; k < x.rank(); k++) {
                long lengthA = x.length(k);
                long lengthB = y.length(k);
                if (lengthA == lengthB) {
                    continue;
                }
                if (lengthA % firstBatch != 0 || lengthA / firstBatch * secondBatch != lengthB) {
                    throw NodeDescription.error(x, first, "its length " + lengthA + " in dimension " + k + " becomes "
                            + lengthB + " for a batch of " + secondBatch + " instead of " + firstBatch
                            + ": not a multiple of the batch size, so it cannot be dynamic");
                }
                factors[k] = (int) (lengthA / firstBatch);
            }
            first.setBatch(x, factors);
        }
    }

    private static String structureMismatch(Node x, Node y, TracedGraph first, TracedGraph second) {
        if (first.inputs().contains(x) && second.inputs().contains(y)) {
            return first.inputs().indexOf(x) == second.inputs().indexOf(y) ? null : "another input";
        }
        if (x.op() != y.op() || x.dtype() != y.dtype() || x.rank() != y.rank() || x.sourceCount() != y.sourceCount()) {
            return "another primitive, type or rank";
        }
        if (first.inputs().contains(x) || second.inputs().contains(y)) {
            return "an input where the other call has a computed node";
        }
        if (x != y && x.op() == Op.INPUT && Lifetimes.data(x) != null) {
            // data made inside the call (Tensor.of) is a constant of the model: it must not vary
            if (!Arrays.equals(x.shape(), y.shape())) {
                return "data of another shape, made for this batch size";
            }
            if (!Arrays.equals(TensorInternals.wrap(x).toDoubleArray(), TensorInternals.wrap(y).toDoubleArray())) {
                return "other data, made for this batch size";
            }
        }
        for (int j = 0; j < x.sourceCount(); j++) {
            if (first.position(x.source(j)) != second.position(y.source(j))) {
                return "other sources";
            }
        }
        return null;
    }

    private static String argumentMismatch(Node x, Node y) {
        if (x.op() == Op.CONST) {
            return Double.compare(x.constantValue(), y.constantValue()) == 0 ? null
                    : "the constant " + y.constantValue() + " instead of " + x.constantValue()
                    + " (a value computed from the batch size, such as a mean over the batch)";
        }
        if (x.op() == Op.SHRINK) {
            ShrinkArgument p = (ShrinkArgument) x.argument();
            ShrinkArgument q = (ShrinkArgument) y.argument();
            for (int k = 0; k < x.rank(); k++) {
                boolean sameEnd = p.ends()[k] == q.ends()[k]
                        || (p.ends()[k] == x.source(0).length(k) && q.ends()[k] == y.source(0).length(k));
                if (p.starts()[k] != q.starts()[k] || !sameEnd) {
                    return "another slice in dimension " + k;
                }
            }
            return null;
        }
        return Arrays.equals(structure(x), structure(y)) ? null : "another argument (" + y.argument() + ")";
    }

    private static long[] structure(Node node) {
        if (node.argument() == null) {
            return new long[0];
        }
        List<Long> values = new ArrayList<>();
        node.argument().encodeStructure(values::add);
        return values.stream().mapToLong(Long::longValue).toArray();
    }
}
