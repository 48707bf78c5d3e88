package dev.ein4j.onnx;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ein4j.ir.GraphOrder;
import dev.ein4j.ir.Node;
import dev.ein4j.ir.Op;
import dev.ein4j.onnx.testing.OnnxRuntime;
import dev.ein4j.runtime.Lifetimes;
import dev.ein4j.tensor.Tensor;
import dev.ein4j.tensor.internal.TensorInternals;
import dev.ein4j.testing.RandomGraphs;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Random programs of every IR primitive ({@link RandomGraphs}: elementwise ops of four types,
 * comparisons, where, casts, reductions, contractions, every movement), exported with their
 * computed leaves as graph inputs, run by ONNX Runtime and compared with ein4j.
 */
class RandomGraphExportTest {

    private static final int GRAPHS = 150;

    @TempDir
    Path directory;

    @Test
    void randomGraphsAgreeWithOnnxRuntime() {
        Set<Op> seen = EnumSet.noneOf(Op.class);
        for (int graph = 0; graph < GRAPHS; graph++) {
            long seed = 7_000 + graph;
            List<Tensor> targets = RandomGraphs.build(seed);
            List<Tensor> leaves = leaves(targets, seen);
            Path file = directory.resolve("graph" + graph + ".onnx");
            Onnx.export(inputs -> targets, leaves, file, ExportOptions.defaults().freezeRandom());
            List<OnnxRuntime.Output> outputs = OnnxRuntime.run(file, leaves);
            assertThat(outputs).hasSize(targets.size());
            for (int t = 0; t < targets.size(); t++) {
                Tensor expected = targets.get(t);
                OnnxRuntime.assertAgrees("seed " + seed + " target " + t, expected, outputs.get(t),
                        expected.dtype() == dev.ein4j.ir.DType.FLOAT64 ? 1e-6 : 2e-3); // float64 targets may have float32 parts
            }
        }
        assertThat(seen).as("the programs use every computing primitive").containsAll(EnumSet.of(Op.RESHAPE, Op.PERMUTE,
                Op.EXPAND, Op.PAD, Op.SHRINK, Op.FLIP, Op.SIN, Op.SQRT, Op.RECIPROCAL, Op.CAST, Op.ADD, Op.MUL, Op.MAX,
                Op.CMPLT, Op.WHERE, Op.SUM, Op.REDUCE_MAX, Op.PROD, Op.CONTRACT, Op.EXP, Op.CONST));
    }

    /** The computed nodes the targets read (the programs' leaves): the graph inputs. */
    private static List<Tensor> leaves(List<Tensor> targets, Set<Op> seen) {
        List<Node> roots = targets.stream().map(TensorInternals::node).toList();
        List<Tensor> leaves = new ArrayList<>();
        for (Node node : GraphOrder.postOrder(roots, node -> Lifetimes.data(node) == null)) {
            if (Lifetimes.data(node) != null) {
                leaves.add(TensorInternals.wrap(node));
            } else {
                seen.add(node.op());
            }
        }
        return leaves;
    }
}
