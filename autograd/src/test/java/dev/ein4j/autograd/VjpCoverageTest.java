package dev.ein4j.autograd;

import static dev.ein4j.autograd.GradTesting.input;
import static dev.ein4j.autograd.GradTesting.positive;
import static dev.ein4j.autograd.GradTesting.tieFree;
import static org.assertj.core.api.Assertions.assertThat;

import dev.ein4j.ir.DType;
import dev.ein4j.ir.Node;
import dev.ein4j.ir.Op;
import dev.ein4j.tensor.Tensor;
import dev.ein4j.tensor.internal.TensorInternals;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/**
 * Every primitive of the IR either has a vector-Jacobian rule that a gradient check exercises, or is
 * declared non-differentiable. Enumerates {@link Op#values()}: a new primitive without an exemplar here
 * (and so without a checked rule) fails.
 */
class VjpCoverageTest {

    private static final Set<Op> EXPECTED_NON_DIFFERENTIABLE =
            EnumSet.of(Op.CMPLT, Op.CMPEQ, Op.CONST, Op.IOTA, Op.RAND, Op.DETACH, Op.INPUT);

    private record Exemplar(Function<List<Tensor>, Tensor> function, List<Tensor> inputs) {
    }

    /** One small gradient check per differentiable primitive. */
    private static Map<Op, Exemplar> exemplars() {
        Map<Op, Exemplar> map = new EnumMap<>(Op.class);
        map.put(Op.RESHAPE, new Exemplar(in -> in.get(0).reshape(4, 3).sin(), List.of(input(1, 2, 6))));
        map.put(Op.PERMUTE, new Exemplar(in -> in.get(0).permute(1, 2, 0).sin(), List.of(input(2, 2, 3, 2))));
        map.put(Op.EXPAND, new Exemplar(in -> in.get(0).add(in.get(1)).sin(), List.of(input(3, 3, 1), input(4, 1, 4))));
        map.put(Op.PAD, new Exemplar(in -> in.get(0).pad(new int[] {1, 0}, new int[] {0, 2}, 3.0).sin(), List.of(input(5, 2, 3))));
        map.put(Op.SHRINK, new Exemplar(in -> in.get(0).shrink(new int[] {1, 0}, new int[] {3, 2}).sin(), List.of(input(6, 4, 3))));
        map.put(Op.FLIP, new Exemplar(in -> in.get(0).flip(1).mul(in.get(0)), List.of(input(7, 2, 3))));
        map.put(Op.EXP, new Exemplar(in -> in.get(0).exp(), List.of(input(8, 2, 3))));
        map.put(Op.LOG, new Exemplar(in -> in.get(0).log(), List.of(positive(9, 2, 3))));
        map.put(Op.SQRT, new Exemplar(in -> in.get(0).sqrt(), List.of(positive(10, 2, 3))));
        map.put(Op.RECIPROCAL, new Exemplar(in -> in.get(0).reciprocal(), List.of(positive(11, 2, 3))));
        map.put(Op.SIN, new Exemplar(in -> in.get(0).sin(), List.of(input(12, 2, 3))));
        map.put(Op.CAST, new Exemplar(in -> in.get(0).cast(DType.FLOAT32).cast(DType.FLOAT64), List.of(input(13, 2, 3))));
        map.put(Op.ADD, new Exemplar(in -> in.get(0).add(in.get(1)), List.of(input(14, 2, 3), input(15, 2, 3))));
        map.put(Op.MUL, new Exemplar(in -> in.get(0).mul(in.get(1)), List.of(input(16, 2, 3), input(17, 2, 3))));
        map.put(Op.MAX, new Exemplar(in -> in.get(0).maximum(in.get(1)),
                List.of(tieFree(18, 2, 3), tieFree(19, 2, 3).add(0.02).realize())));
        map.put(Op.WHERE, new Exemplar(in -> Tensor.where(in.get(0).gt(0.0), in.get(0).sin(), in.get(1)),
                List.of(input(20, 2, 3), input(21, 2, 3))));
        map.put(Op.SUM, new Exemplar(in -> TensorInternals.reduce(in.get(0), Op.SUM, new int[] {1}).sin(), List.of(input(22, 2, 3))));
        map.put(Op.REDUCE_MAX, new Exemplar(in -> TensorInternals.reduce(in.get(0), Op.REDUCE_MAX, new int[] {0}),
                List.of(tieFree(23, 3, 2))));
        map.put(Op.PROD, new Exemplar(in -> TensorInternals.reduce(in.get(0), Op.PROD, new int[] {1}), List.of(input(24, 2, 3))));
        map.put(Op.CONTRACT, new Exemplar(in -> TensorInternals.contract(in.get(0), in.get(1), 1),
                List.of(input(25, 2, 3), input(26, 2, 3))));
        map.put(Op.WINDOW, new Exemplar(in -> in.get(0).rearrange("a (2*h + k) -> a h k", dev.ein4j.tensor.Axes.of("k", 2)).sin(),
                List.of(input(28, 2, 7))));
        map.put(Op.CONTIGUOUS, new Exemplar(in -> in.get(0).permute(1, 0).contiguous().sin(), List.of(input(27, 2, 3))));
        // a repeated index: the gradient adds both reads back
        map.put(Op.GATHER, new Exemplar(in -> in.get(0).gather(1, Tensor.of(new int[] {2, 0, 2, 1, 1, 0}, 2, 3)).sin(),
                List.of(input(29, 2, 4))));
        // writes over the base (its overwritten elements get nothing) and, in another call, adds with duplicates
        map.put(Op.SCATTER, new Exemplar(in -> in.get(0).scatter(0, Tensor.of(new int[] {2, 0, 1}, 1, 3), in.get(1)).sin()
                .add(in.get(0).scatterAdd(0, Tensor.of(new int[] {1, 1, 0, 1, 2, 1}, 2, 3), in.get(1)).square()),
                List.of(input(30, 3, 3), input(31, 2, 3))));
        return map;
    }

    @Test
    void nonDifferentiableSetIsExactlyTheDeclaredOne() {
        Set<Op> declared = EnumSet.noneOf(Op.class);
        for (Op op : Op.values()) {
            if (!op.isDifferentiable()) {
                declared.add(op);
            }
        }
        assertThat(declared).containsExactlyInAnyOrderElementsOf(EXPECTED_NON_DIFFERENTIABLE);
    }

    @Test
    void nodesOfIntegerAndBoolTypesNeverCarryGradients() {
        Tensor x = input(30, 2, 3).requireGrad();
        assertThat(x.gt(0.0).requiresGrad()).as("a comparison").isFalse();
        assertThat(x.cast(DType.INT32).requiresGrad()).as("a cast to int32").isFalse();
        assertThat(x.cast(DType.INT32).cast(DType.FLOAT64).requiresGrad()).as("through an int32").isFalse();
        assertThat(x.mul(2.0).requiresGrad()).isTrue();
    }

    @Test
    void everyPrimitiveHasACheckedRuleOrIsDeclaredNonDifferentiable() {
        Map<Op, Exemplar> exemplars = exemplars();
        List<String> problems = new ArrayList<>();
        for (Op op : Op.values()) {
            boolean declared = !op.isDifferentiable();
            if (declared) {
                if (exemplars.containsKey(op)) {
                    problems.add(op + " has a gradient exemplar but is declared non-differentiable");
                }
                continue;
            }
            Exemplar exemplar = exemplars.get(op);
            if (exemplar == null) {
                problems.add(op + " has a rule but no gradient check exercises it: add an exemplar to VjpCoverageTest");
                continue;
            }
            Set<Op> present = GradTesting.opsIn(exemplar.function().apply(exemplar.inputs()));
            if (!present.contains(op)) {
                problems.add(op + "'s exemplar does not contain the primitive (graph has " + present + ")");
                continue;
            }
            double tolerance = op == Op.CAST ? 1e-3 : GradTesting.TOLERANCE;
            double epsilon = op == Op.CAST ? 1e-3 : GradCheck.EPSILON;
            try {
                GradCheck.Result result = GradCheck.check(exemplar.function(), exemplar.inputs(), epsilon);
                if (!result.passed(tolerance)) {
                    problems.add(op + " fails its gradient check: " + result);
                }
            } catch (RuntimeException e) {
                problems.add(op + " throws in its gradient check: " + e);
            }
        }
        assertThat(problems).as("primitives without a checked gradient").isEmpty();
    }

    @Test
    void theRuleOfEveryDifferentiablePrimitiveGivesOneCotangentPerSourceOfItsShape() {
        // VjpRules.apply directly on a node of each op (every source needing a gradient): a missing case throws
        for (Map.Entry<Op, Exemplar> entry : exemplars().entrySet()) {
            Op op = entry.getKey();
            Node node = firstNodeOf(TensorInternals.node(entry.getValue().function().apply(entry.getValue().inputs())), op);
            Tensor cotangent = Tensor.ones(node.dtype(), node.shape());
            List<Contribution> contributions = VjpRules.apply(node, cotangent, source -> true, source -> false);
            // integer and bool sources (WHERE's condition, an index) get no cotangent
            int differentiableSources = (int) java.util.stream.IntStream.range(0, node.sourceCount())
                    .filter(i -> node.source(i).dtype().isFloating()).count();
            assertThat(contributions).as("contributions of %s", node).hasSize(differentiableSources);
            for (Contribution contribution : contributions) {
                int[] target = contribution.target().shape();
                int[] reduced = GradientWalk.sumTo(contribution.cotangent(), target).shape();
                assertThat(reduced).as("cotangent of %s for %s", node, contribution.target()).containsExactly(target);
                assertThat(contribution.cotangent().toDoubleArray()).as("%s cotangent values", op).doesNotContain(Double.NaN);
            }
        }
    }

    private static Node firstNodeOf(Node root, Op op) {
        java.util.Deque<Node> stack = new java.util.ArrayDeque<>();
        Set<Node> seen = java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
        stack.push(root);
        while (!stack.isEmpty()) {
            Node node = stack.pop();
            if (node.op() == op) {
                return node;
            }
            for (int i = 0; i < node.sourceCount(); i++) {
                if (seen.add(node.source(i))) {
                    stack.push(node.source(i));
                }
            }
        }
        throw new AssertionError("no " + op + " node below " + root);
    }
}
