package dev.ein4j.autograd;

import dev.ein4j.error.EinopsException;
import dev.ein4j.ir.Node;
import dev.ein4j.ir.Op;
import dev.ein4j.runtime.Lifetimes;
import dev.ein4j.runtime.Realized;
import dev.ein4j.runtime.Realizer;
import dev.ein4j.runtime.Scope;
import dev.ein4j.runtime.Results;
import dev.ein4j.tensor.GradientEngine;
import dev.ein4j.tensor.Tensor;
import dev.ein4j.tensor.internal.TensorInternals;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;

/**
 * {@link Tensor#backward()}: finds the leaves that require gradients below the output (explicit
 * stack, following only nodes that require gradients), differentiates with respect to them, and
 * adds the results to their accumulated gradients. The gradients of all leaves are computed in one
 * realization, together with the output, so the forward intermediates they share are computed once.
 */
public final class AutogradEngine implements GradientEngine {

    @Override
    public List<Tensor> backward(Tensor output, Tensor seed) {
        if (!output.requiresGrad()) {
            throw new EinopsException("backward() on a tensor that does not require gradients: no leaf made with "
                    + "requireGrad() reaches it (or it was made in a no-grad scope, or through a comparison)");
        }
        List<Node> leaves = leaves(TensorInternals.node(output));
        if (leaves.isEmpty()) {
            return List.of();
        }
        List<Tensor> gradients = GradientWalk.gradients(List.of(TensorInternals.node(output)), List.of(seed), leaves);
        List<Tensor> updated = new ArrayList<>();
        List<Tensor> totals = new ArrayList<>();
        for (int i = 0; i < leaves.size(); i++) {
            Tensor leaf = TensorInternals.wrap(leaves.get(i));
            Tensor total = leaf.hasGrad() ? leaf.grad().add(gradients.get(i)) : gradients.get(i);
            totals.add(compact(total));
            updated.add(leaf);
        }
        // The output is computed in the same pass: its forward intermediates are shared with the
        // gradients, and a later loss.item() reads the kept result instead of recomputing it.
        List<Tensor> wanted = new ArrayList<>(totals);
        wanted.add(output);
        Tensor.realizeAll(wanted.toArray(Tensor[]::new));
        for (int i = 0; i < updated.size(); i++) {
            // A fresh leaf over the computed data: the gradient keeps no graph (and no forward buffers)
            // alive. It belongs to its leaf, not to the scope it was computed in: it is released when
            // replaced, by zeroGrad(), or with the leaf.
            Node computed = TensorInternals.node(totals.get(i));
            Realized data = Results.get(computed);
            Node gradient = Scope.unscoped(() -> Realizer.leaf(data, computed.dtype(), false));
            forgetTotal(computed);
            Node previous = TensorInternals.node(updated.get(i)).gradient();
            TensorInternals.setGradient(updated.get(i), TensorInternals.wrap(gradient));
            if (previous != null) {
                Lifetimes.close(previous); // replaced: the old sum is not needed any more
            }
        }
        return updated;
    }

    /**
     * The total made compact: a bias's gradient is a sum over [1, C, 1, 1] reshaped to [C]; computed
     * in the sum's own shape and read as a view of it, it iterates over the same space as the batch's
     * other per-channel sums and shares their pass over the data (a kernel has one output shape).
     */
    private static Tensor compact(Tensor total) {
        Node base = TensorInternals.node(total);
        while (base.op() == Op.RESHAPE) {
            base = base.source(0);
        }
        if (base == TensorInternals.node(total) || base.op().group() != Op.Group.REDUCE) {
            return total.contiguous();
        }
        return TensorInternals.wrap(base).contiguous().reshape(total.shape());
    }

    /** Gives up the compact total's data (and, for a view of a reduction, the reduction's): the leaf holds the buffer now. */
    private static void forgetTotal(Node computed) {
        Lifetimes.forget(computed);
        if (computed.op() == Op.RESHAPE) {
            Lifetimes.forget(computed.source(0));
        }
    }

    private static List<Node> leaves(Node output) {
        List<Node> leaves = new ArrayList<>();
        Set<Node> visited = Collections.newSetFromMap(new IdentityHashMap<>());
        Deque<Node> stack = new ArrayDeque<>();
        if (output.requiresGrad()) {
            stack.push(output);
            visited.add(output);
        }
        while (!stack.isEmpty()) {
            Node node = stack.pop();
            if (node.op() == Op.INPUT) {
                leaves.add(node);
                continue;
            }
            for (int i = 0; i < node.sourceCount(); i++) {
                Node source = node.source(i);
                if (source.requiresGrad() && visited.add(source)) {
                    stack.push(source);
                }
            }
        }
        leaves.sort(java.util.Comparator.comparingLong(Node::id));
        return leaves;
    }
}
