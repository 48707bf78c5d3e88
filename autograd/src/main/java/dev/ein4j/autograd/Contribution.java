package dev.ein4j.autograd;

import dev.ein4j.ir.Node;
import dev.ein4j.tensor.Tensor;

/**
 * A cotangent that a rule sends to a node, to be summed down to the node's shape and added to what
 * the node has already received.
 *
 * @param target the node that receives it (a source of the rule's node, or a source's source when
 *        a rule looks through a single-use EXPAND)
 * @param cotangent the gradient contribution, broadcastable to the target's shape by summation
 */
record Contribution(Node target, Tensor cotangent) {
}
