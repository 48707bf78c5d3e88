package dev.ein4j.onnx;

import dev.ein4j.ir.GraphOrder;
import dev.ein4j.ir.Node;
import dev.ein4j.runtime.Lifetimes;
import dev.ein4j.tensor.Tensor;
import dev.ein4j.tensor.internal.TensorInternals;
import dev.ein4j.testing.RandomGraphs;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class DebugSeedTest {
    @Test
    void dump() {
        long seed = Long.getLong("seed", 7085);
        List<Tensor> targets = RandomGraphs.build(seed);
        List<Node> roots = targets.stream().map(TensorInternals::node).toList();
        List<Tensor> leaves = new ArrayList<>();
        for (Node node : GraphOrder.postOrder(roots, node -> Lifetimes.data(node) == null)) {
            StringBuilder s = new StringBuilder(NodeDescription.of(node));
            if (Lifetimes.data(node) != null) {
                leaves.add(TensorInternals.wrap(node));
                s.append(" [leaf]");
            }
            System.out.println(s);
        }
        Onnx.export(inputs -> targets, leaves, Path.of("/tmp/seed.onnx"), ExportOptions.defaults().freezeRandom());
    }
}
