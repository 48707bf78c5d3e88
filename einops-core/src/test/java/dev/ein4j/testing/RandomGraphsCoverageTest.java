package dev.ein4j.testing;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ein4j.ir.Node;
import dev.ein4j.ir.Op;
import dev.ein4j.tensor.Tensor;
import dev.ein4j.tensor.internal.TensorInternals;
import java.util.ArrayDeque;
import java.util.Collections;
import java.util.Deque;
import java.util.EnumSet;
import java.util.IdentityHashMap;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The programs of the cross-backend agreement fuzz ({@link Agreement#randomGraphsAgree}, seeds 31,000
 * and up: every backend's tests run at least 300 of them) hold every primitive of the IR, so a
 * primitive added to {@link Op} without a generator case here fails this test.
 */
class RandomGraphsCoverageTest {

    @Test
    void theAgreementProgramsHoldEveryPrimitive() {
        Set<Op> seen = EnumSet.noneOf(Op.class);
        for (int graph = 0; graph < 300; graph++) {
            for (Tensor target : RandomGraphs.build(31_000 + graph)) {
                collect(TensorInternals.node(target), seen);
            }
        }
        assertThat(seen).containsExactlyInAnyOrder(Op.values());
    }

    private static void collect(Node root, Set<Op> seen) {
        Set<Node> visited = Collections.newSetFromMap(new IdentityHashMap<>());
        Deque<Node> stack = new ArrayDeque<>();
        stack.push(root);
        while (!stack.isEmpty()) {
            Node node = stack.pop();
            if (visited.add(node)) {
                seen.add(node.op());
                for (int i = 0; i < node.sourceCount(); i++) {
                    stack.push(node.source(i));
                }
            }
        }
    }
}
