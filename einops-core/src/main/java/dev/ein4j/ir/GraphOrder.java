package dev.ein4j.ir;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;
import java.util.function.Predicate;

/** Topological order of IR graphs, by explicit stack: graphs of any depth, no recursion. */
public final class GraphOrder {

    private GraphOrder() {
    }

    /**
     * Post-order (every node after its sources) of the nodes reachable from the roots.
     *
     * @param roots where the walk starts
     * @param descend whether to visit a node's sources; a node for which it is false is still listed
     * @return each reached node once, sources first
     */
    public static List<Node> postOrder(List<Node> roots, Predicate<Node> descend) {
        List<Node> order = new ArrayList<>();
        Set<Node> visited = Collections.newSetFromMap(new IdentityHashMap<>());
        Deque<Node> stack = new ArrayDeque<>();
        Deque<Integer> nextSource = new ArrayDeque<>();
        for (Node root : roots) {
            if (!visited.add(root)) {
                continue;
            }
            stack.push(root);
            nextSource.push(0);
            while (!stack.isEmpty()) {
                Node node = stack.peek();
                int next = nextSource.pop();
                if (next < node.sourceCount() && descend.test(node)) {
                    nextSource.push(next + 1);
                    Node source = node.source(next);
                    if (visited.add(source)) {
                        stack.push(source);
                        nextSource.push(0);
                    }
                } else {
                    stack.pop();
                    order.add(node);
                }
            }
        }
        return order;
    }
}
