package dev.ein4j.autograd;

import dev.ein4j.error.ShapeException;
import dev.ein4j.ir.GraphOrder;
import dev.ein4j.ir.Node;
import dev.ein4j.ir.Op;
import dev.ein4j.tensor.Tensor;
import dev.ein4j.tensor.internal.TensorInternals;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Reverse-mode differentiation over the IR graph: orders the outputs' ancestors with an explicit
 * stack, keeps only nodes on a path from a wanted input to an output, and walks them in reverse
 * order applying {@link VjpRules}. Each cotangent is summed down to its target's shape and added
 * to what the target has received (the one place where broadcasting is undone).
 */
final class GradientWalk {

    private final Set<Node> inputs = Collections.newSetFromMap(new IdentityHashMap<>());
    private final Set<Node> onPath = Collections.newSetFromMap(new IdentityHashMap<>());
    private final Map<Node, Integer> consumers = new IdentityHashMap<>();
    private final Map<Node, Tensor> cotangents = new IdentityHashMap<>();

    private GradientWalk(List<Node> inputs) {
        this.inputs.addAll(inputs);
    }

    /**
     * @param outputs the differentiated nodes
     * @param seeds ∂L/∂output, one per output, same shapes
     * @param inputs the nodes to differentiate with respect to (treated as independent)
     * @return ∂L/∂input per input, zeros where no path leads to an output
     */
    static List<Tensor> gradients(List<Node> outputs, List<Tensor> seeds, List<Node> inputs) {
        GradientWalk walk = new GradientWalk(inputs);
        List<Node> order = walk.order(outputs);
        walk.markPaths(order);
        for (int i = 0; i < outputs.size(); i++) {
            Node output = outputs.get(i);
            Tensor seed = seeds.get(i);
            if (!Arrays.equals(seed.shape(), output.shape())) {
                throw new ShapeException("grad", List.of(longs(output.shape()), longs(seed.shape())),
                        "the seed of output " + i + " must have the output's shape");
            }
            if (walk.onPath.contains(output)) {
                walk.accumulate(output, seed.cast(output.dtype()));
            }
        }
        for (int k = order.size() - 1; k >= 0; k--) {
            Node node = order.get(k);
            Tensor cotangent = walk.cotangents.get(node);
            if (cotangent == null || walk.inputs.contains(node)) {
                continue;
            }
            walk.cotangents.remove(node);
            for (Contribution contribution : VjpRules.apply(node, cotangent, walk.onPath::contains, walk::isSingleUse)) {
                walk.accumulate(contribution.target(), contribution.cotangent());
            }
        }
        List<Tensor> result = new ArrayList<>();
        for (Node input : inputs) {
            Tensor gradient = walk.cotangents.get(input);
            result.add(gradient != null ? gradient : Tensor.zeros(input.dtype(), input.shape()));
        }
        return result;
    }

    /** Post-order of the outputs' ancestors, not descending below the inputs or through non-differentiable ops. */
    private List<Node> order(List<Node> outputs) {
        return GraphOrder.postOrder(outputs, node -> !inputs.contains(node) && VjpRules.passesGradient(node));
    }

    /** A node is on a path if it is an input, or differentiable with a source on a path. */
    private void markPaths(List<Node> order) {
        for (Node node : order) {
            boolean reached = inputs.contains(node);
            if (!reached && VjpRules.passesGradient(node)) {
                for (int i = 0; i < node.sourceCount() && !reached; i++) {
                    reached = onPath.contains(node.source(i));
                }
            }
            if (reached) {
                onPath.add(node);
                if (!inputs.contains(node)) {
                    for (int i = 0; i < node.sourceCount(); i++) {
                        if (onPath.contains(node.source(i))) {
                            consumers.merge(node.source(i), 1, Integer::sum);
                        }
                    }
                }
            }
        }
    }

    /** A node differentiated through, not with respect to, read by one node on the paths. */
    private boolean isSingleUse(Node node) {
        return !inputs.contains(node) && consumers.getOrDefault(node, 0) == 1;
    }

    /** Sums the cotangent down to the target's shape (undoing broadcasting) and adds it. */
    private void accumulate(Node target, Tensor cotangent) {
        Tensor reduced = sumTo(cotangent, target.shape()).cast(target.dtype());
        cotangents.merge(target, reduced, Tensor::add);
    }

    static Tensor sumTo(Tensor cotangent, int[] shape) {
        int[] current = cotangent.shape();
        if (Arrays.equals(current, shape)) {
            return cotangent;
        }
        if (current.length != shape.length) {
            throw new IllegalStateException("cotangent of rank " + current.length + " for a node of rank " + shape.length);
        }
        int[] axes = java.util.stream.IntStream.range(0, shape.length)
                .filter(k -> shape[k] == 1 && current[k] != 1).toArray();
        return TensorInternals.reduce(cotangent, Op.SUM, axes);
    }

    private static long[] longs(int[] shape) {
        return Arrays.stream(shape).asLongStream().toArray();
    }
}
