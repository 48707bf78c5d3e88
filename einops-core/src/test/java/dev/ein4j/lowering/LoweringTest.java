package dev.ein4j.lowering;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.ein4j.error.EinopsException;
import dev.ein4j.error.PatternSyntaxException;
import dev.ein4j.error.ShapeException;
import dev.ein4j.ir.DType;
import dev.ein4j.pattern.Operation;
import dev.ein4j.tensor.Axes;
import dev.ein4j.tensor.Ein;
import dev.ein4j.tensor.Packed;
import dev.ein4j.tensor.Reduction;
import dev.ein4j.tensor.Tensor;
import dev.ein4j.testing.Close;
import dev.ein4j.testing.NdArray;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.stream.Stream;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class LoweringTest {

    private static NdArray random(long seed, int... shape) {
        return NdArray.random(new SplittableRandom(seed), shape, -1, 1);
    }

    private static Tensor of(NdArray array) {
        return Tensor.of(array.data, array.shape);
    }

    private static List<String> describe(List<Step> steps) {
        return steps.stream().map(Step::toString).toList();
    }

    // =================================================================== arrow plans

    static Stream<Arguments> arrowPlans() {
        return Stream.of(
                // rearrange: at most reshape -> permute -> reshape, nothing needless
                Arguments.of(Operation.REARRANGE, "a b -> a b", Map.of(), new int[] {2, 3}, List.of()),
                Arguments.of(Operation.REARRANGE, "... -> ...", Map.of(), new int[] {2, 3}, List.of()),
                Arguments.of(Operation.REARRANGE, "b h w c -> b c h w", Map.of(), new int[] {2, 3, 4, 5},
                        List.of("permute [0, 3, 1, 2] -> [2, 5, 3, 4]")),
                Arguments.of(Operation.REARRANGE, "a b c -> c b a", Map.of(), new int[] {2, 3, 4},
                        List.of("permute [2, 1, 0] -> [4, 3, 2]")),
                Arguments.of(Operation.REARRANGE, "b (h w) -> b h w", Map.of("h", 3), new int[] {2, 12},
                        List.of("reshape -> [2, 3, 4]")),
                Arguments.of(Operation.REARRANGE, "b h w c -> b (h w) c", Map.of(), new int[] {2, 3, 4, 5},
                        List.of("reshape -> [2, 12, 5]")),
                Arguments.of(Operation.REARRANGE, "a b () -> a b", Map.of(), new int[] {2, 3, 1},
                        List.of("reshape -> [2, 3]")),
                Arguments.of(Operation.REARRANGE, "a b -> a () b", Map.of(), new int[] {2, 3},
                        List.of("reshape -> [2, 1, 3]")),
                Arguments.of(Operation.REARRANGE, "b ... c -> b c ...", Map.of(), new int[] {2, 3, 4, 5},
                        List.of("permute [0, 3, 1, 2] -> [2, 5, 3, 4]")),
                Arguments.of(Operation.REARRANGE, "(a b) c -> (b a) c", Map.of("a", 2), new int[] {6, 5},
                        List.of("reshape -> [2, 3, 5]", "permute [1, 0, 2] -> [3, 2, 5]", "reshape -> [6, 5]")),
                Arguments.of(Operation.REARRANGE, "b c (h p1) (w p2) -> b (h w) (p1 p2 c)", Map.of("p1", 2, "p2", 2),
                        new int[] {2, 3, 8, 8},
                        List.of("reshape -> [2, 3, 4, 2, 4, 2]", "permute [0, 2, 4, 3, 5, 1] -> [2, 4, 4, 2, 2, 3]",
                                "reshape -> [2, 16, 12]")),
                // reduce: exactly one Reduce step
                Arguments.of(Operation.REDUCE, "b c h w -> b c", Map.of(), new int[] {2, 3, 4, 5},
                        List.of("reduce axes [2, 3] -> [2, 3]")),
                Arguments.of(Operation.REDUCE, "b c h w -> c", Map.of(), new int[] {2, 3, 4, 5},
                        List.of("reduce axes [0, 2, 3] -> [3]")),
                Arguments.of(Operation.REDUCE, "b c h w -> c b", Map.of(), new int[] {2, 3, 4, 5},
                        List.of("reduce axes [2, 3] -> [2, 3]", "permute [1, 0] -> [3, 2]")),
                Arguments.of(Operation.REDUCE, "b c (h 2) (w 2) -> b c h w", Map.of(), new int[] {2, 3, 8, 8},
                        List.of("reshape -> [2, 3, 4, 2, 4, 2]", "reduce axes [3, 5] -> [2, 3, 4, 4]")),
                Arguments.of(Operation.REDUCE, "b c h w -> b c () ()", Map.of(), new int[] {2, 3, 4, 5},
                        List.of("reduce axes [2, 3] -> [2, 3]", "reshape -> [2, 3, 1, 1]")),
                Arguments.of(Operation.REDUCE, "b (h w) -> b h", Map.of("w", 4), new int[] {2, 12},
                        List.of("reshape -> [2, 3, 4]", "reduce axes [2] -> [2, 3]")),
                Arguments.of(Operation.REDUCE, "... c -> ...", Map.of(), new int[] {2, 3, 4},
                        List.of("reduce axes [2] -> [2, 3]")),
                Arguments.of(Operation.REDUCE, "a b -> a b", Map.of(), new int[] {2, 3}, List.of()),
                // repeat: Expand
                Arguments.of(Operation.REPEAT, "h w -> h w c", Map.of("c", 3), new int[] {2, 3},
                        List.of("reshape -> [2, 3, 1]", "expand -> [2, 3, 3]")),
                Arguments.of(Operation.REPEAT, "h w -> c h w", Map.of("c", 2), new int[] {2, 3},
                        List.of("reshape -> [1, 2, 3]", "expand -> [2, 2, 3]")),
                Arguments.of(Operation.REPEAT, "h w -> w h c", Map.of("c", 2), new int[] {2, 3},
                        List.of("permute [1, 0] -> [3, 2]", "reshape -> [3, 2, 1]", "expand -> [3, 2, 2]")),
                Arguments.of(Operation.REPEAT, "h w -> (h 2) (w 2)", Map.of(), new int[] {2, 3},
                        List.of("reshape -> [2, 1, 3, 1]", "expand -> [2, 2, 3, 2]", "reshape -> [4, 6]")));
    }

    @ParameterizedTest(name = "{0} \"{1}\" {2} on {3}")
    @MethodSource("arrowPlans")
    void arrowPlanSteps(Operation operation, String pattern, Map<String, Integer> axes, int[] shape, List<String> expected) {
        LoweringPlan plan = ArrowLowering.plan(operation, pattern, axes, shape);
        assertThat(describe(plan.steps())).containsExactlyElementsOf(expected);
        assertThat(plan.inputShape()).containsExactly(shape);
        long reduces = plan.steps().stream().filter(Step.Reduce.class::isInstance).count();
        long expands = plan.steps().stream().filter(Step.Expand.class::isInstance).count();
        if (operation == Operation.REDUCE && !expected.isEmpty()) {
            assertThat(reduces).as("one Reduce step").isEqualTo(1);
        }
        if (operation == Operation.REPEAT) {
            assertThat(expands).as("one Expand step").isEqualTo(1);
        }
        if (operation == Operation.REARRANGE) {
            assertThat(plan.steps().size()).isLessThanOrEqualTo(3);
            assertThat(plan.steps().stream().filter(Step.Permute.class::isInstance).count()).isLessThanOrEqualTo(1);
        }
        // no two consecutive steps of the same kind, no step that leaves the shape and order unchanged
        int[] current = shape;
        for (int i = 0; i < plan.steps().size(); i++) {
            Step step = plan.steps().get(i);
            if (i > 0) {
                assertThat(step.getClass()).as("consecutive " + step).isNotEqualTo(plan.steps().get(i - 1).getClass());
            }
            if (step instanceof Step.Reshape) {
                assertThat(step.shapeAfter()).as("needless reshape").isNotEqualTo(current);
            }
            current = step.shapeAfter();
        }
    }

    /** Merging and splitting without a permute is one reinterpretation of the data: one reshape. */
    @Test
    void reshapeOnlyRearrangeIsOneReshape() {
        LoweringPlan plan = ArrowLowering.plan(Operation.REARRANGE, "a (b c) -> (a b) c", Map.of("b", 3), new int[] {2, 12});
        assertThat(describe(plan.steps())).as(plan.explain()).containsExactly("reshape -> [6, 4]");
    }

    @Test
    void plansExecuteCorrectly() {
        NdArray x = random(1, 2, 3, 8, 8);
        Tensor t = of(x);
        // b c (h p1) (w p2) -> b (h w) (p1 p2 c), by hand
        Tensor patches = t.rearrange("b c (h p1) (w p2) -> b (h w) (p1 p2 c)", Axes.of("p1", 2, "p2", 2));
        assertThat(patches.shape()).containsExactly(2, 16, 12);
        double[] expected = new double[2 * 16 * 12];
        for (int b = 0; b < 2; b++) {
            for (int c = 0; c < 3; c++) {
                for (int h = 0; h < 4; h++) {
                    for (int p1 = 0; p1 < 2; p1++) {
                        for (int w = 0; w < 4; w++) {
                            for (int p2 = 0; p2 < 2; p2++) {
                                double value = x.get(b, c, h * 2 + p1, w * 2 + p2);
                                expected[(b * 16 + h * 4 + w) * 12 + (p1 * 2 + p2) * 3 + c] = value;
                            }
                        }
                    }
                }
            }
        }
        Close.assertExact("patches", patches.toDoubleArray(), expected);

        // 2x2 max pooling
        Tensor pooled = t.reduce("b c (h 2) (w 2) -> b c h w", "max");
        double[] pool = new double[2 * 3 * 4 * 4];
        for (int b = 0; b < 2; b++) {
            for (int c = 0; c < 3; c++) {
                for (int h = 0; h < 4; h++) {
                    for (int w = 0; w < 4; w++) {
                        pool[((b * 3 + c) * 4 + h) * 4 + w] = Math.max(Math.max(x.get(b, c, 2 * h, 2 * w), x.get(b, c, 2 * h, 2 * w + 1)),
                                Math.max(x.get(b, c, 2 * h + 1, 2 * w), x.get(b, c, 2 * h + 1, 2 * w + 1)));
                    }
                }
            }
        }
        Close.assertExact("max pool", pooled.toDoubleArray(), pool);

        // reduce with every reduction over (h w), and keeping dims as ()
        for (Reduction reduction : Reduction.values()) {
            NdArray expectedReduce = x.reduceKeep(NdArray.Kind.valueOf(reduction.name()), 2, 3);
            Tensor reduced = t.reduce("b c h w -> b c () ()", reduction);
            assertThat(reduced.shape()).containsExactly(2, 3, 1, 1);
            Close.assertClose(reduction.label(), reduced.toDoubleArray(), expectedReduce.data, 1e-13, 1e-15);
        }
        Tensor summedMean = t.reduce("b c h w -> c", "mean");
        Close.assertClose("mean to c", summedMean.toDoubleArray(), x.reduceKeep(NdArray.Kind.MEAN, 0, 2, 3).data, 1e-13, 0);

        // repeat
        NdArray small = random(2, 2, 3);
        Tensor repeated = of(small).repeat("h w -> (h 2) w c", Axes.of("c", 2));
        assertThat(repeated.shape()).containsExactly(4, 3, 2);
        double[] rep = new double[24];
        for (int h = 0; h < 4; h++) {
            for (int w = 0; w < 3; w++) {
                for (int c = 0; c < 2; c++) {
                    rep[(h * 3 + w) * 2 + c] = small.get(h / 2, w);
                }
            }
        }
        Close.assertExact("repeat", repeated.toDoubleArray(), rep);
        Tensor tiled = of(small).repeat("h w -> (2 h) w");
        double[] tile = new double[12];
        for (int h = 0; h < 4; h++) {
            for (int w = 0; w < 3; w++) {
                tile[h * 3 + w] = small.get(h % 2, w);
            }
        }
        Close.assertExact("tile", tiled.toDoubleArray(), tile);
    }

    @Test
    void explainListsEveryStepWithShapes() {
        LoweringPlan plan = ArrowLowering.plan(Operation.REARRANGE, "b c (h p1) (w p2) -> b (h w) (p1 p2 c)",
                Map.of("p1", 2, "p2", 2), new int[] {2, 3, 8, 8});
        String text = plan.explain();
        assertThat(text).startsWith("rearrange \"b c (h p1) (w p2) -> b (h w) (p1 p2 c)\" on [2, 3, 8, 8]")
                .contains("p1=2").contains("p2=2")
                .contains("\n  1. reshape -> [2, 3, 4, 2, 4, 2]")
                .contains("\n  2. permute [0, 2, 4, 3, 5, 1] -> [2, 4, 4, 2, 2, 3]")
                .contains("\n  3. reshape -> [2, 16, 12]");
        assertThat(plan.toString()).isEqualTo(text);
        assertThat(plan.outputShape()).containsExactly(2, 16, 12);
        assertThat(plan.axisLengths()).containsEntry("h", 4).containsEntry("w", 4).containsEntry("p1", 2)
                .containsEntry("b", 2).containsEntry("c", 3);
        assertThat(ArrowLowering.plan(Operation.REARRANGE, "a b -> a b", Map.of(), new int[] {2, 3}).explain())
                .contains("(no steps: the result is the input)");
        assertThat(ArrowLowering.plan(Operation.REARRANGE, "a b -> a b", Map.of(), new int[] {2, 3}).outputShape())
                .containsExactly(2, 3);
        assertThat(Ein.explainReduce("b c (h 2) (w 2) -> b c h w", Reduction.MAX, Axes.none(), 2, 3, 8, 8))
                .contains("1. reshape -> [2, 3, 4, 2, 4, 2]").contains("2. max over axes [3, 5] -> [2, 3, 4, 4]");
        assertThat(Ein.explainRepeat("h w -> h w c", Axes.of("c", 3), 2, 3))
                .contains("1. reshape -> [2, 3, 1]").contains("2. expand -> [2, 3, 3]");
        assertThat(Ein.explainRearrange("b h w c -> b c h w", Axes.none(), 2, 3, 4, 5))
                .contains("1. permute [0, 3, 1, 2] -> [2, 5, 3, 4]");
    }

    // =================================================================== caches

    @Test
    void plansAreCachedBySameInputs() {
        int[] shape = {2, 3, 8, 8};
        String pattern = "b c (h p1) (w p2) -> b (h w) (p1 p2 c)";
        LoweringPlan first = ArrowLowering.plan(Operation.REARRANGE, pattern, Map.of("p1", 2, "p2", 2), shape);
        Map<String, Integer> otherOrder = new LinkedHashMap<>();
        otherOrder.put("p2", 2);
        otherOrder.put("p1", 2);
        LoweringPlan second = ArrowLowering.plan(Operation.REARRANGE, pattern, otherOrder, shape.clone());
        assertThat(second).isSameAs(first);
        shape[0] = 5; // the cache must not keep the caller's array
        assertThat(ArrowLowering.plan(Operation.REARRANGE, pattern, Map.of("p1", 2, "p2", 2), new int[] {2, 3, 8, 8}))
                .isSameAs(first);

        LoweringPlan otherShape = ArrowLowering.plan(Operation.REARRANGE, pattern, Map.of("p1", 2, "p2", 2), new int[] {2, 3, 16, 8});
        assertThat(otherShape).isNotSameAs(first);
        assertThat(otherShape.outputShape()).containsExactly(2, 32, 12);
        LoweringPlan otherLengths = ArrowLowering.plan(Operation.REARRANGE, pattern, Map.of("p1", 4, "p2", 2), new int[] {2, 3, 8, 8});
        assertThat(otherLengths).isNotSameAs(first);
        assertThat(otherLengths.outputShape()).containsExactly(2, 8, 24);
        LoweringPlan otherNames = ArrowLowering.plan(Operation.REARRANGE, pattern, Map.of("h", 4, "w", 4), new int[] {2, 3, 8, 8});
        assertThat(otherNames.outputShape()).containsExactly(2, 16, 12);
        assertThat(ArrowLowering.plan(Operation.REARRANGE, pattern, Map.of("p1", 2, "p2", 2), new int[] {2, 3, 8, 8}))
                .isSameAs(first);
        // the same pattern for another operation is another recipe
        LoweringPlan asReduce = ArrowLowering.plan(Operation.REDUCE, "a b -> a", Map.of(), new int[] {2, 3});
        assertThat(asReduce.steps()).hasSize(1);
    }

    /**
     * Plans are documented as immutable and are shared through the cache, but the step records
     * hand out their int[] components; a caller that writes into one corrupts the plan for every
     * later call with the same pattern and shape. (Unique pattern and shape: a corrupted entry
     * cannot leak into other tests.)
     */
    @Test
    void cachedPlansCannotBeCorruptedThroughStepArrays() {
        LoweringPlan plan = ArrowLowering.plan(Operation.REARRANGE, "a (b c) -> a b c", Map.of("b", 11), new int[] {7, 143});
        Step.Reshape reshape = (Step.Reshape) plan.steps().get(0);
        int[] leaked = reshape.shape();
        leaked[1] = 99;
        LoweringPlan again = ArrowLowering.plan(Operation.REARRANGE, "a (b c) -> a b c", Map.of("b", 11), new int[] {7, 143});
        assertThat(describe(again.steps())).containsExactly("reshape -> [7, 11, 13]");
        assertThat(Tensor.zeros(7, 143).rearrange("a (b c) -> a b c", Axes.of("b", 11)).shape()).containsExactly(7, 11, 13);
    }

    @Test
    void cachedEinsumPlansCannotBeCorruptedThroughTheirArrays() {
        List<int[]> shapes = List.of(new int[] {17, 19}, new int[] {19, 23});
        EinsumPlan plan = EinsumLowering.plan(Operation.EINSUM, "i j, j k -> i k", shapes);
        plan.contractions().get(0).resultShape()[0] = 1;
        plan.operands().get(0).inputShape()[0] = 1;
        EinsumPlan again = EinsumLowering.plan(Operation.EINSUM, "i j, j k -> i k", List.of(new int[] {17, 19}, new int[] {19, 23}));
        assertThat(again.contractions().get(0).resultShape()).containsExactly(17, 23);
        assertThat(again.operands().get(0).inputShape()).containsExactly(17, 19);
    }

    /**
     * An ellipsis inside a composition still makes one dimension, so "b (...)" describes exactly two
     * dimensions. The rank check counts the ellipsis as if it stood for the surplus dimensions
     * (ellipsisLength = rank − fixed), and the lowering then never looks at the extra input
     * dimensions: a rank-3 input with a trailing 1 is silently rearranged to rank 2, and one with
     * a longer trailing dimension fails later in Tensor.reshape with an error that names "reshape"
     * instead of the pattern.
     */
    @Test
    void anEllipsisInsideACompositionDoesNotSwallowInputDimensions() {
        Throwable silent = catchThrowable(() -> Tensor.arange(6).reshape(2, 3, 1).rearrange("b (...) -> b ..."));
        assertThat(silent).as("a 2-dimension pattern on a 3-dimension input").isInstanceOfAny(ShapeException.class, PatternSyntaxException.class);
        Throwable reduced = catchThrowable(() -> Tensor.zeros(2, 3, 4).reduce("b (...) -> b", "sum"));
        assertThat(reduced).isInstanceOfAny(ShapeException.class, PatternSyntaxException.class);
        String pattern = reduced instanceof ShapeException shape ? shape.pattern() : ((PatternSyntaxException) reduced).pattern();
        assertThat(pattern).as("the error names the user's pattern").isEqualTo("b (...) -> b");
    }

    @Test
    void anEinsumOperandWithAnEllipsisInsideACompositionDoesNotSwallowDimensions() {
        Throwable silent = catchThrowable(() -> Ein.einsum("(...) i -> i", Tensor.ones(2, 3, 1)));
        assertThat(silent).as("a 2-dimension operand on a 3-dimension tensor").isInstanceOfAny(ShapeException.class, PatternSyntaxException.class);
    }

    @Test
    void errorsAreNotCached() {
        String pattern = "(h w) c -> h w c";
        assertThatThrownBy(() -> ArrowLowering.plan(Operation.REARRANGE, pattern, Map.of("h", 4), new int[] {6, 2}))
                .isInstanceOf(ShapeException.class);
        LoweringPlan plan = ArrowLowering.plan(Operation.REARRANGE, pattern, Map.of("h", 4), new int[] {8, 2});
        assertThat(plan.outputShape()).containsExactly(4, 2, 2);
        assertThatThrownBy(() -> ArrowLowering.plan(Operation.REARRANGE, pattern, Map.of("h", 4), new int[] {6, 2}))
                .isInstanceOf(ShapeException.class);
        // a recipe made for one rank with one set of names does not validate another call
        assertThatThrownBy(() -> ArrowLowering.plan(Operation.REARRANGE, pattern, Map.of("h", 4), new int[] {8, 2, 1}))
                .isInstanceOf(ShapeException.class);
    }

    @Test
    void einsumPlansAreCached() {
        List<int[]> shapes = List.of(new int[] {2, 3}, new int[] {3, 4});
        EinsumPlan first = EinsumLowering.plan(Operation.EINSUM, "i j, j k -> i k", shapes);
        EinsumPlan second = EinsumLowering.plan(Operation.EINSUM, "i j, j k -> i k", List.of(new int[] {2, 3}, new int[] {3, 4}));
        assertThat(second).isSameAs(first);
        EinsumPlan other = EinsumLowering.plan(Operation.EINSUM, "i j, j k -> i k", List.of(new int[] {2, 3}, new int[] {3, 5}));
        assertThat(other).isNotSameAs(first);
        assertThat(other.outputShape()).containsExactly(2, 5);
    }

    // =================================================================== shape errors

    @Test
    void indivisibleLengthNamesTheAxisAndPointsAtTheComposition() {
        ShapeException error = (ShapeException) catchThrowable(() -> Tensor.zeros(4, 33).reduce("b (h 2) -> b h", "sum"));
        assertThat(error).isNotNull();
        assertThat(error.reason()).isEqualTo("axis h: length 33 cannot be split into (h 2), 33 is not divisible by 2");
        assertThat(error.pattern()).isEqualTo("b (h 2) -> b h");
        assertThat(error.column()).isEqualTo(3);
        assertThat(error.shapes()).hasSize(1);
        assertThat(error.shapes().get(0)).containsExactly(4, 33);
        assertThat(error.getMessage()).isEqualTo("axis h: length 33 cannot be split into (h 2), 33 is not divisible by 2"
                + "\n  b (h 2) -> b h\n    ^\n  input shape: [4, 33]");
    }

    private static ShapeException shapeError(Runnable call) {
        Throwable thrown = catchThrowable(call::run);
        assertThat(thrown).isInstanceOf(ShapeException.class);
        return (ShapeException) thrown;
    }

    @Test
    void wrongNumberOfDimensions() {
        ShapeException error = shapeError(() -> Tensor.zeros(2, 3).rearrange("a b c -> c b a"));
        assertThat(error.reason()).isEqualTo("the pattern's left side has 3 dimensions but the input has 2");
        assertThat(error.pattern()).isEqualTo("a b c -> c b a");
        assertThat(error.shapes().get(0)).containsExactly(2, 3);
        ShapeException ellipsis = shapeError(() -> Tensor.zeros(2).rearrange("a b ... -> ... a b"));
        assertThat(ellipsis.reason()).isEqualTo("the pattern's left side has 2 dimensions besides '...' but the input has 1");
        ShapeException one = shapeError(() -> Tensor.zeros(2, 3).reduce("a -> ", "sum"));
        assertThat(one.reason()).isEqualTo("the pattern's left side has 1 dimension but the input has 2");
    }

    @Test
    void givenAxisNotInPattern() {
        ShapeException error = shapeError(() -> Tensor.zeros(2, 3).rearrange("a b -> b a", Axes.of("z", 2)));
        assertThat(error.reason()).isEqualTo("axis z is given a length but does not appear in the pattern");
        assertThat(error.axisLengths()).containsEntry("z", 2L);
        assertThat(error.getMessage()).contains("axis lengths: {z=2}").contains("input shape: [2, 3]");
    }

    @Test
    void repeatNewAxisWithoutLength() {
        ShapeException error = shapeError(() -> Tensor.zeros(2, 3).repeat("h w -> h w c"));
        assertThat(error.reason()).isEqualTo("axis c is new on the right side of repeat: give its length, e.g. axes(\"c\", 3)");
        assertThat(error.column()).isEqualTo(12);
        assertThat(error.getMessage()).contains("\n  h w -> h w c\n             ^");
    }

    @Test
    void inconsistentGivenLength() {
        ShapeException single = shapeError(() -> Tensor.zeros(2, 3).rearrange("a b -> b a", Axes.of("a", 5)));
        assertThat(single.reason()).isEqualTo("axis a: the input has length 2 but 5 is expected");
        assertThat(single.axisLengths()).containsEntry("a", 5L);
        assertThat(single.column()).isEqualTo(1);
        ShapeException product = shapeError(() -> Tensor.zeros(6, 4).rearrange("(h w) c -> h w c", Axes.of("h", 4, "w", 2)));
        assertThat(product.reason()).isEqualTo("dimension (h w) has length 6, but its axes multiply to 8");
        ShapeException split = shapeError(() -> Tensor.zeros(6, 4).rearrange("(h w) c -> h w c", Axes.of("h", 4)));
        assertThat(split.reason()).isEqualTo("axis w: length 6 cannot be split into (h w), 6 is not divisible by 4");
        ShapeException anonymous = shapeError(() -> Tensor.zeros(2, 3).reduce("a 2 -> a", "sum"));
        assertThat(anonymous.reason()).isEqualTo("anonymous axis 2: the input has length 3 but 2 is expected");
    }

    @Test
    void twoUnknownsInAComposition() {
        ShapeException error = shapeError(() -> Tensor.zeros(6, 4).rearrange("(h w) c -> h w c"));
        assertThat(error.reason()).isEqualTo("cannot infer the lengths of h and w from (h w) of length 6: give all but one of them by name");
        assertThat(error.column()).isEqualTo(1);
    }

    @Test
    void patternErrorsAreSyntaxErrors() {
        assertThatThrownBy(() -> Tensor.zeros(2, 3).rearrange("a b -> a c")).isInstanceOf(PatternSyntaxException.class);
        assertThatThrownBy(() -> Tensor.zeros(2, 3).rearrange("a (b -> a b")).isInstanceOf(PatternSyntaxException.class);
        assertThatThrownBy(() -> Tensor.zeros(2, 3).rearrange("a b")).isInstanceOf(PatternSyntaxException.class);
        assertThatThrownBy(() -> Tensor.zeros(2, 3).reduce("a b -> a", "median")).isInstanceOf(EinopsException.class);
    }

    // =================================================================== einsum: order

    @Test
    void greedyContractsTheCheapPairFirst() {
        // naive left-to-right: (A B) is 1000 x 1000; greedy: (B C) is 2 x 2, then A (BC) is 1000 x 2
        List<int[]> shapes = List.of(new int[] {1000, 2}, new int[] {2, 1000}, new int[] {1000, 2});
        EinsumPlan plan = EinsumLowering.plan(Operation.EINSUM, "i j, j k, k l -> i l", shapes);
        assertThat(plan.contractions()).hasSize(2);
        EinsumPlan.Contraction first = plan.contractions().get(0);
        assertThat(first.left()).isEqualTo(1);
        assertThat(first.right()).isEqualTo(2);
        assertThat(first.resultAxes()).as("output axes first, in the output's order").containsExactly("l", "j");
        assertThat(first.resultShape()).containsExactly(2, 2);
        assertThat(first.resultSize()).isEqualTo(4);
        EinsumPlan.Contraction second = plan.contractions().get(1);
        assertThat(second.left()).isZero();
        assertThat(second.right()).isEqualTo(1);
        assertThat(second.resultAxes()).containsExactly("i", "l");
        assertThat(second.resultSize()).isEqualTo(2000);
        assertThat(plan.contractions()).allSatisfy(c -> assertThat(c.resultSize()).isLessThanOrEqualTo(2000));
        assertThat(plan.outputShape()).containsExactly(1000, 2);

        String text = Ein.explainEinsum("i j, j k, k l -> i l", shapes.toArray(int[][]::new));
        assertThat(text).contains("#1 x #2").contains("[2, 2], 4 elements").contains("[1000, 2], 2000 elements");
        String numpy = Ein.explainEinsumNumpy("ij,jk,kl->il", shapes.toArray(int[][]::new));
        assertThat(numpy).startsWith("einsum \"ij,jk,kl->il\"").contains("#1 x #2 summing (k)").contains("2000 elements");

        // mirrored: now (A B) is the small one
        EinsumPlan mirrored = EinsumLowering.plan(Operation.EINSUM, "i j, j k, k l -> i l",
                List.of(new int[] {2, 1000}, new int[] {1000, 2}, new int[] {2, 1000}));
        assertThat(mirrored.contractions().get(0).left()).isZero();
        assertThat(mirrored.contractions().get(0).right()).isEqualTo(1);
        assertThat(mirrored.contractions().get(0).resultSize()).isEqualTo(4);
        assertThat(mirrored.contractions().get(1).resultSize()).isEqualTo(2000);
    }

    @Test
    void greedyChainComputesTheRightValues() {
        NdArray a = random(11, 1000, 2);
        NdArray b = random(12, 2, 1000);
        NdArray c = random(13, 1000, 2);
        Tensor result = Ein.einsum("i j, j k, k l -> i l", of(a), of(b), of(c));
        // (B C) first by hand, then A (B C)
        double[] bc = new double[4];
        for (int j = 0; j < 2; j++) {
            for (int l = 0; l < 2; l++) {
                for (int k = 0; k < 1000; k++) {
                    bc[j * 2 + l] += b.get(j, k) * c.get(k, l);
                }
            }
        }
        double[] expected = new double[2000];
        for (int i = 0; i < 1000; i++) {
            for (int l = 0; l < 2; l++) {
                expected[i * 2 + l] = a.get(i, 0) * bc[l] + a.get(i, 1) * bc[2 + l];
            }
        }
        Close.assertClose("chain", result.toDoubleArray(), expected, 1e-11, 1e-11);
    }

    @Test
    void privateAxesAreSummedBeforeContracting() {
        EinsumPlan plan = EinsumLowering.plan(Operation.EINSUM, "i j k, j -> i",
                List.of(new int[] {2, 3, 4}, new int[] {3}));
        assertThat(describe(plan.operands().get(0).steps())).containsExactly("reduce axes [2] -> [2, 3]");
        assertThat(plan.operands().get(0).axes()).containsExactly("i", "j");
        assertThat(plan.contractions()).hasSize(1);
        EinsumPlan diagonal = EinsumLowering.plan(Operation.EINSUM, "i i -> i", List.<int[]>of(new int[] {3, 3}));
        assertThat(diagonal.operands().get(0).steps()).hasSize(1).first().isInstanceOf(Step.Diagonal.class);
        assertThat(diagonal.contractions()).isEmpty();
    }

    // =================================================================== einsum: values

    /** out[outLabels] = Σ over the other labels of Π operand_k[labels_k]; one char per label. */
    static NdArray naive(String outLabels, Object... labelledOperands) {
        Map<Character, Integer> lengths = new LinkedHashMap<>();
        List<String> labels = new ArrayList<>();
        List<NdArray> arrays = new ArrayList<>();
        for (int k = 0; k < labelledOperands.length; k += 2) {
            String operandLabels = (String) labelledOperands[k];
            NdArray array = (NdArray) labelledOperands[k + 1];
            assertThat(array.rank()).isEqualTo(operandLabels.length());
            for (int d = 0; d < operandLabels.length(); d++) {
                Integer previous = lengths.putIfAbsent(operandLabels.charAt(d), array.shape[d]);
                assertThat(previous == null || previous == array.shape[d]).as("test data consistent").isTrue();
            }
            labels.add(operandLabels);
            arrays.add(array);
        }
        List<Character> all = new ArrayList<>(lengths.keySet());
        int[] allShape = all.stream().mapToInt(lengths::get).toArray();
        int[] outShape = outLabels.chars().map(ch -> lengths.get((char) ch)).toArray();
        double[] out = new double[NdArray.size(outShape)];
        int total = NdArray.size(allShape);
        for (int flat = 0; flat < total; flat++) {
            int[] assignment = NdArray.unravel(flat, allShape);
            double product = 1;
            for (int k = 0; k < arrays.size(); k++) {
                String operandLabels = labels.get(k);
                int[] index = new int[operandLabels.length()];
                for (int d = 0; d < index.length; d++) {
                    index[d] = assignment[all.indexOf(operandLabels.charAt(d))];
                }
                product *= arrays.get(k).get(index);
            }
            int[] outIndex = new int[outLabels.length()];
            for (int d = 0; d < outIndex.length; d++) {
                outIndex[d] = assignment[all.indexOf(outLabels.charAt(d))];
            }
            out[NdArray.ravel(outIndex, outShape)] += product;
        }
        return new NdArray(outShape, out);
    }

    private static void assertEinsum(String what, Tensor actual, NdArray expected) {
        assertThat(actual.shape()).as(what + " shape").containsExactly(expected.shape);
        Close.assertClose(what, actual.toDoubleArray(), expected.data, 1e-12, 1e-13);
    }

    @Test
    void einsumAgreesWithNaiveLoops() {
        NdArray m34 = random(21, 3, 4);
        NdArray m45 = random(22, 4, 5);
        NdArray b234 = random(23, 2, 3, 4);
        NdArray b245 = random(24, 2, 4, 5);
        NdArray sq = random(25, 4, 4);
        NdArray v3 = random(26, 3);
        NdArray v4 = random(27, 4);
        NdArray m23 = random(28, 2, 3);
        NdArray m56 = random(29, 5, 6);
        NdArray cube = random(30, 3, 3, 3);
        NdArray m32 = random(31, 3, 2);
        assertEinsum("matmul", Ein.einsum("i j, j k -> i k", of(m34), of(m45)), naive("ik", "ij", m34, "jk", m45));
        assertEinsum("batched matmul", Ein.einsum("b i j, b j k -> b i k", of(b234), of(b245)),
                naive("bik", "bij", b234, "bjk", b245));
        assertEinsum("trace", Ein.einsum("i i ->", of(sq)), naive("", "ii", sq));
        assertEinsum("diagonal", Ein.einsum("i i -> i", of(sq)), naive("i", "ii", sq));
        assertEinsum("outer", Ein.einsum("i, j -> i j", of(v3), of(v4)), naive("ij", "i", v3, "j", v4));
        assertEinsum("dot", Ein.einsum("j, j ->", of(v4), of(v4)), naive("", "j", v4, "j", v4));
        assertEinsum("transpose", Ein.einsum("i j -> j i", of(m34)), naive("ji", "ij", m34));
        assertEinsum("row sums", Ein.einsum("i j -> i", of(m34)), naive("i", "ij", m34));
        assertEinsum("hadamard", Ein.einsum("i j, i j -> i j", of(m34), of(m34)), naive("ij", "ij", m34, "ij", m34));
        assertEinsum("3 operands", Ein.einsum("a b, b c, c d -> a d", of(m23), of(m34), of(m45)),
                naive("ad", "ab", m23, "bc", m34, "cd", m45));
        assertEinsum("4 operands", Ein.einsum("a b, b c, c d, d e -> a e", of(m23), of(m34), of(m45), of(m56)),
                naive("ae", "ab", m23, "bc", m34, "cd", m45, "de", m56));
        assertEinsum("4 operands, output order", Ein.einsum("a b, b c, c d, d e -> e a", of(m23), of(m34), of(m45), of(m56)),
                naive("ea", "ab", m23, "bc", m34, "cd", m45, "de", m56));
        assertEinsum("3-way outer", Ein.einsum("a, b, c -> c a b", of(v3), of(v4), of(v3)),
                naive("cab", "a", v3, "b", v4, "c", v3));
        assertEinsum("triple diagonal", Ein.einsum("i i i -> i", of(cube)), naive("i", "iii", cube));
        assertEinsum("diagonal with another axis", Ein.einsum("i j i -> j i", of(random(32, 3, 2, 3))),
                naive("ji", "iji", random(32, 3, 2, 3)));
        assertEinsum("shared batch chain", Ein.einsum("b i j, b j k, b k l -> b l i", of(b234), of(b245), of(random(33, 2, 5, 2))),
                naive("bli", "bij", b234, "bjk", b245, "bkl", random(33, 2, 5, 2)));
        assertEinsum("attention scores", Ein.einsum("b h i d, b h j d -> b h i j", of(random(34, 2, 2, 3, 4)), of(random(35, 2, 2, 5, 4))),
                naive("bhij", "bhid", random(34, 2, 2, 3, 4), "bhjd", random(35, 2, 2, 5, 4)));
        assertEinsum("diagonal between other axes", Ein.einsum("i j i k -> j i k", of(random(37, 3, 2, 3, 2))),
                naive("jik", "ijik", random(37, 3, 2, 3, 2)));
        assertEinsum("trace per batch", Ein.einsum("i i j -> j", of(random(38, 3, 3, 2))), naive("j", "iij", random(38, 3, 3, 2)));
        assertEinsum("diagonal times a matrix", Ein.einsum("i i, i j -> j", of(sq), of(m45)), naive("j", "ii", sq, "ij", m45));
        assertEinsum("matrix-vector", Ein.einsum("i j, j -> i", of(m34), of(v4)), naive("i", "ij", m34, "j", v4));
        assertEinsum("private axis and a contraction", Ein.einsum("i j k, j -> i", of(random(36, 2, 3, 4)), of(v3)),
                naive("i", "ijk", random(36, 2, 3, 4), "j", v3));
        assertEinsum("transpose of a product", Ein.einsum("i j, j k -> k i", of(m32), of(m23)), naive("ki", "ij", m32, "jk", m23));
    }

    @Test
    void einsumWithCompositionsUnitAndAnonymousAxes() {
        NdArray x = random(41, 2, 12); // b (h d) with h = 3, d = 4
        NdArray w = random(42, 3, 4, 5); // h d e
        assertEinsum("b (h d), h d e -> b h e", Ein.einsum("b (h d), h d e -> b h e", of(x), of(w)),
                naive("bhe", "bhd", x.reshape(2, 3, 4), "hde", w));
        NdArray m34 = random(43, 3, 4);
        NdArray m45 = random(44, 4, 5);
        assertEinsum("output composition", Ein.einsum("i j, j k -> (i k)", of(m34), of(m45)),
                naive("ik", "ij", m34, "jk", m45).reshape(15));
        assertEinsum("unit axis", Ein.einsum("i (), j -> i j", of(random(45, 3, 1)), of(random(46, 4))),
                naive("ij", "i", random(45, 3, 1).reshape(3), "j", random(46, 4)));
        // anonymous axes are each summed on their own
        NdArray a = random(47, 3, 2);
        NdArray b = random(48, 2, 4);
        assertEinsum("anonymous axes", Ein.einsum("i 2, 2 j -> i j", of(a), of(b)), naive("ij", "ia", a, "bj", b));
    }

    @Test
    void numpyNotation() {
        NdArray m34 = random(51, 3, 4);
        NdArray m45 = random(52, 4, 5);
        NdArray sq = random(53, 4, 4);
        assertEinsum("ij,jk->ik", Ein.einsumNumpy("ij,jk->ik", of(m34), of(m45)), naive("ik", "ij", m34, "jk", m45));
        assertEinsum("ij,jk implicit", Ein.einsumNumpy("ij,jk", of(m34), of(m45)), naive("ik", "ij", m34, "jk", m45));
        assertEinsum("ji implicit is a transpose", Ein.einsumNumpy("ji", of(m34)), naive("ij", "ji", m34));
        assertEinsum("ii implicit is the trace", Ein.einsumNumpy("ii", of(sq)), naive("", "ii", sq));
        assertEinsum("ii->i", Ein.einsumNumpy("ii->i", of(sq)), naive("i", "ii", sq));
        assertEinsum("i,i implicit", Ein.einsumNumpy("i,i", of(random(54, 4)), of(random(55, 4))),
                naive("", "i", random(54, 4), "i", random(55, 4)));
        // implicit output: letters used exactly once, sorted; the shared b is summed as in numpy
        assertEinsum("bij,bjk", Ein.einsumNumpy("bij,bjk", of(random(56, 2, 3, 4)), of(random(57, 2, 4, 5))),
                naive("ik", "bij", random(56, 2, 3, 4), "bjk", random(57, 2, 4, 5)));
        assertEinsum("bij,bjk->bik", Ein.einsumNumpy("bij,bjk->bik", of(random(56, 2, 3, 4)), of(random(57, 2, 4, 5))),
                naive("bik", "bij", random(56, 2, 3, 4), "bjk", random(57, 2, 4, 5)));
        assertEinsum("ba,ac implicit sorts output letters", Ein.einsumNumpy("ba,ac", of(random(58, 3, 4)), of(random(59, 4, 2))),
                naive("bc", "ba", random(58, 3, 4), "ac", random(59, 4, 2)));
    }

    @Test
    void ellipsisBroadcasting() {
        NdArray a = random(61, 2, 1, 3, 4); // ... = [2, 1]
        NdArray b = random(62, 5, 4, 2); // ... = [5]
        NdArray ab = a.broadcastTo(2, 5, 3, 4);
        NdArray bb = b.broadcastTo(2, 5, 4, 2);
        NdArray expected = naive("xyik", "xyij", ab, "xyjk", bb);
        assertEinsum("numpy ...ij,...jk->...ik", Ein.einsumNumpy("...ij,...jk->...ik", of(a), of(b)), expected);
        assertEinsum("einops ... i j, ... j k -> ... i k", Ein.einsum("... i j, ... j k -> ... i k", of(a), of(b)), expected);
        assertEinsum("matmul", Ein.matmul(of(a), of(b)), expected);
        NdArray c = random(63, 4, 6);
        assertEinsum("matmul with a matrix", Ein.matmul(of(random(64, 2, 3, 4)), of(c)),
                naive("bik", "bij", random(64, 2, 3, 4), "jk", c));
        assertEinsum("matmul of matrices", Ein.matmul(of(random(65, 3, 4)), of(c)), naive("ik", "ij", random(65, 3, 4), "jk", c));
        NdArray batch = random(66, 3, 4);
        assertEinsum("... i -> i ...", Ein.einsum("... i -> i ...", of(batch)), naive("ix", "xi", batch));
        assertEinsum("sum over ...", Ein.einsum("... i -> i", of(batch)), naive("i", "xi", batch));
        assertEinsum("empty ellipsis", Ein.einsum("... i, ... i -> ...", of(random(67, 4)), of(random(68, 4))),
                naive("", "i", random(67, 4), "i", random(68, 4)));
    }

    @Test
    void einsumWithZeroSizeAxes() {
        Tensor product = Ein.einsum("i j, j k -> i k", Tensor.ones(DType.FLOAT64, 2, 0), Tensor.ones(DType.FLOAT64, 0, 3));
        assertThat(product.shape()).containsExactly(2, 3);
        assertThat(product.toDoubleArray()).containsOnly(0.0).hasSize(6);
        Tensor empty = Ein.einsum("i j, j k -> i k", Tensor.ones(DType.FLOAT64, 0, 2), Tensor.ones(DType.FLOAT64, 2, 3));
        assertThat(empty.shape()).containsExactly(0, 3);
    }

    // =================================================================== pack, unpack, parse_shape

    @Test
    void packAndUnpackRoundTrip() {
        NdArray a = random(71, 2, 3, 4, 5);
        NdArray b = random(72, 2, 7, 5);
        NdArray c = random(73, 2, 0, 5);
        NdArray d = random(74, 2, 5);
        Packed packed = Ein.pack("b * c", of(a), of(b), of(c), of(d));
        assertThat(packed.tensor().shape()).containsExactly(2, 20, 5);
        assertThat(packed.packedShapes()).hasSize(4);
        assertThat(packed.packedShapes().get(0)).containsExactly(3, 4);
        assertThat(packed.packedShapes().get(1)).containsExactly(7);
        assertThat(packed.packedShapes().get(2)).containsExactly(0);
        assertThat(packed.packedShapes().get(3)).isEmpty();
        NdArray expected = NdArray.concat(1, a.reshape(2, 12, 5), b, c, d.reshape(2, 1, 5));
        Close.assertExact("packed", packed.tensor().toDoubleArray(), expected.data);

        List<Tensor> parts = Ein.unpack(packed.tensor(), packed.packedShapes(), "b * c");
        NdArray[] originals = {a, b, c, d};
        assertThat(parts).hasSize(4);
        for (int i = 0; i < 4; i++) {
            assertThat(parts.get(i).shape()).as("part " + i).containsExactly(originals[i].shape);
            Close.assertExact("part " + i, parts.get(i).toDoubleArray(), originals[i].data);
        }

        List<Tensor> inferred = Ein.unpack(packed.tensor(), List.of(new int[] {3, -1}, new int[] {7}, new int[] {0}, new int[0]), "b * c");
        assertThat(inferred.get(0).shape()).containsExactly(2, 3, 4, 5);
        List<Tensor> inferredEmpty = Ein.unpack(packed.tensor(), List.of(new int[] {3, 4}, new int[] {7}, new int[] {-1}, new int[0]), "b * c");
        assertThat(inferredEmpty.get(2).shape()).containsExactly(2, 0, 5);
        Close.assertExact("after the inferred empty part", inferredEmpty.get(3).toDoubleArray(), d.data);
        List<Tensor> inferredLength = Ein.unpack(packed.tensor(), List.of(new int[] {3, 4}, new int[] {-1}, new int[] {0}, new int[0]), "b * c");
        assertThat(inferredLength.get(1).shape()).containsExactly(2, 7, 5);
        Close.assertExact("inferred part", inferredLength.get(1).toDoubleArray(), b.data);
    }

    @Test
    void packAtTheEdges() {
        NdArray a = random(75, 3, 2);
        NdArray b = random(76, 4, 5, 2);
        Packed leading = Ein.pack("* c", of(a), of(b));
        assertThat(leading.tensor().shape()).containsExactly(23, 2);
        Close.assertExact("* c", leading.tensor().toDoubleArray(), NdArray.concat(0, a, b.reshape(20, 2)).data);
        Packed trailing = Ein.pack("b *", of(random(77, 2, 3)), of(random(78, 2)));
        assertThat(trailing.tensor().shape()).containsExactly(2, 4);
        List<Tensor> back = Ein.unpack(trailing.tensor(), trailing.packedShapes(), "b *");
        Close.assertExact("b * back", back.get(1).toDoubleArray(), random(78, 2).data);
    }

    @Test
    void packAndUnpackErrors() {
        assertThatThrownBy(() -> Ein.pack("b * c", Tensor.zeros(2, 3, 5), Tensor.zeros(3, 3, 5))).isInstanceOf(ShapeException.class);
        assertThatThrownBy(() -> Ein.pack("b * c", Tensor.zeros(2))).isInstanceOf(ShapeException.class);
        assertThatThrownBy(() -> Ein.pack("b * c")).isInstanceOf(ShapeException.class);
        assertThatThrownBy(() -> Ein.pack("b c", Tensor.zeros(2, 3))).isInstanceOf(PatternSyntaxException.class);
        assertThatThrownBy(() -> Ein.pack("b * * c", Tensor.zeros(2, 3))).isInstanceOf(PatternSyntaxException.class);
        Tensor packed = Tensor.zeros(2, 10, 5);
        assertThatThrownBy(() -> Ein.unpack(packed, List.of(new int[] {3}, new int[] {4}), "b * c")).isInstanceOf(ShapeException.class);
        assertThatThrownBy(() -> Ein.unpack(packed, List.of(new int[] {-1}, new int[] {-1}), "b * c")).isInstanceOf(ShapeException.class);
        assertThatThrownBy(() -> Ein.unpack(packed, List.of(new int[] {-1, 4}, new int[] {4}), "b * c")).isInstanceOf(ShapeException.class);
        assertThatThrownBy(() -> Ein.unpack(packed, List.of(new int[] {-2}, new int[] {12}), "b * c")).isInstanceOf(ShapeException.class);
        assertThatThrownBy(() -> Ein.unpack(packed, List.of(new int[] {11}, new int[] {-1}), "b * c")).isInstanceOf(ShapeException.class);
        assertThatThrownBy(() -> Ein.unpack(packed, List.of(new int[] {10}), "b *")).isInstanceOf(ShapeException.class);
        assertThatThrownBy(() -> Ein.unpack(packed, List.of(), "b * c")).isInstanceOf(ShapeException.class);
    }

    @Test
    void parseShape() {
        Tensor t = Tensor.zeros(2, 3, 4, 5);
        assertThat(Ein.parseShape(t, "b _ h w")).containsExactly(Map.entry("b", 2), Map.entry("h", 4), Map.entry("w", 5));
        assertThat(t.parseShape("b ...")).containsExactly(Map.entry("b", 2));
        assertThat(t.parseShape("... w")).containsExactly(Map.entry("w", 5));
        assertThat(t.parseShape("b ... c w")).containsExactly(Map.entry("b", 2), Map.entry("c", 4), Map.entry("w", 5));
        assertThat(t.parseShape("_ _ _ _")).isEmpty();
        assertThat(t.parseShape("a b c d ...")).containsExactly(Map.entry("a", 2), Map.entry("b", 3), Map.entry("c", 4), Map.entry("d", 5));
        assertThat(Tensor.scalar(1).parseShape("...")).isEmpty();
        assertThatThrownBy(() -> t.parseShape("b h w")).isInstanceOf(ShapeException.class);
        assertThatThrownBy(() -> t.parseShape("a b c d e ...")).isInstanceOf(ShapeException.class);
        assertThatThrownBy(() -> t.parseShape("a (b c) d")).isInstanceOf(PatternSyntaxException.class);
        assertThatThrownBy(() -> t.parseShape("a a _ _")).isInstanceOf(PatternSyntaxException.class);
    }

    // =================================================================== einsum errors

    @Test
    void einsumShapeErrorsSayWhatIsWrong() {
        ShapeException lengths = shapeError(() -> Ein.einsum("i j, j k -> i k", Tensor.zeros(2, 3), Tensor.zeros(4, 5)));
        assertThat(lengths.reason()).isEqualTo("axis j has length 3 in operand 0 but 4 in operand 1");
        assertThat(lengths.shapes()).hasSize(2);
        ShapeException count = shapeError(() -> Ein.einsum("i j, j k -> i k", Tensor.zeros(2, 3)));
        assertThat(count.reason()).isEqualTo("the pattern has 2 operands but 1 tensor was given");
        ShapeException rank = shapeError(() -> Ein.einsum("i j -> i", Tensor.zeros(2, 3, 4)));
        assertThat(rank.reason()).isEqualTo("operand 0 of the pattern has 2 dimensions but the tensor has 3");
        ShapeException broadcast = shapeError(() -> Ein.einsum("... i, ... i -> ... i", Tensor.zeros(2, 3), Tensor.zeros(4, 3)));
        assertThat(broadcast.reason()).isEqualTo("the dimensions under '...' do not broadcast: 2 and 4");
        ShapeException unknowns = shapeError(() -> Ein.einsum("(a b) -> a b", Tensor.zeros(6)));
        assertThat(unknowns.reason()).isEqualTo("cannot infer the lengths of a and b from (a b) of length 6: another operand must name all but one of them");
        ShapeException diagonal = shapeError(() -> Ein.einsum("i i -> i", Tensor.zeros(2, 3)));
        assertThat(diagonal.reason()).contains("axis i").contains("2").contains("3");
    }

    static Stream<Arguments> badCalls() {
        Tensor m23 = Tensor.zeros(2, 3);
        Tensor m34 = Tensor.zeros(3, 4);
        return Stream.<Map.Entry<String, Runnable>>of(
                Map.entry("output axis in no input", () -> Ein.einsum("i j, j k -> i l", m23, m34)),
                Map.entry("output axis twice", () -> Ein.einsum("i j -> i i", m23)),
                Map.entry("no arrow in einops notation", () -> Ein.einsum("i j, j k", m23, m34)),
                Map.entry("unbalanced", () -> Ein.einsum("(i j, j k -> i k", m23, m34)),
                Map.entry("too many operands given", () -> Ein.einsum("i j -> i", m23, m34)),
                Map.entry("no operands", () -> Ein.einsum("i j -> i")),
                Map.entry("numpy too many letters", () -> Ein.einsumNumpy("ijk,jk->ik", m23, m34)),
                Map.entry("numpy ellipsis mismatch", () -> Ein.einsumNumpy("...ij,...jk->...ik", Tensor.zeros(2, 2, 3), Tensor.zeros(3, 3, 4))),
                Map.entry("numpy output letter missing", () -> Ein.einsumNumpy("ij->k", m23)),
                Map.entry("einsum composition product mismatch", () -> Ein.einsum("(i j), i, j -> i j", Tensor.zeros(7), Tensor.zeros(2), Tensor.zeros(3))),
                Map.entry("einsum composition indivisible", () -> Ein.einsum("(i j), j -> i", Tensor.zeros(7), Tensor.zeros(2))),
                Map.entry("einsum anonymous mismatch", () -> Ein.einsum("i 2 -> i", m23)),
                Map.entry("einsum unit mismatch", () -> Ein.einsum("i () -> i", m23)),
                Map.entry("matmul inner mismatch", () -> Ein.matmul(m23, m23)),
                Map.entry("matmul of a vector", () -> Ein.matmul(Tensor.zeros(3), m34)),
                Map.entry("rearrange rank", () -> m23.rearrange("a b c -> a b c")),
                Map.entry("rearrange new name", () -> m23.rearrange("a b -> a b c")),
                Map.entry("rearrange repeated name", () -> m23.rearrange("a a -> a")),
                Map.entry("reduce indivisible", () -> Tensor.zeros(4, 33).reduce("b (h 2) -> b h", "sum")),
                Map.entry("reduce unknown pair", () -> Tensor.zeros(4, 6).reduce("b (h w) -> b", "sum")),
                Map.entry("repeat without length", () -> m23.repeat("a b -> a b c")),
                Map.entry("repeat length for old axis mismatch", () -> m23.repeat("a b -> a b c", Axes.of("c", 2, "a", 3))),
                Map.entry("pack mismatch", () -> Ein.pack("b * c", Tensor.zeros(2, 3, 4), Tensor.zeros(2, 3, 5))),
                Map.entry("unpack mismatch", () -> Ein.unpack(Tensor.zeros(2, 6), List.of(new int[] {2}), "b *")),
                Map.entry("unpack rank", () -> Ein.unpack(Tensor.zeros(2, 6, 1), List.of(new int[] {6}), "b *")),
                Map.entry("parse_shape rank", () -> Ein.parseShape(m23, "a")),
                Map.entry("window in rearrange", () -> m23.rearrange("a b -> a b[3]")))
                .map(entry -> Arguments.of(entry.getKey(), entry.getValue()));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("badCalls")
    void badCallsAreReportedAsPatternOrShapeErrors(String name, Runnable call) {
        Throwable thrown = catchThrowable(call::run);
        assertThat(thrown).as(name).isNotNull();
        assertThat(thrown).as(name + ": " + thrown).isInstanceOfAny(PatternSyntaxException.class, ShapeException.class);
    }

    @Test
    void reductionNamesAreParsed() {
        assertThat(Reduction.of("SUM")).isEqualTo(Reduction.SUM);
        assertThat(Reduction.of(" max ")).isEqualTo(Reduction.MAX);
        assertThatThrownBy(() -> Reduction.of(null)).isInstanceOf(NullPointerException.class).hasMessage("name");
        assertThatThrownBy(() -> Reduction.of("avg")).isInstanceOf(EinopsException.class).hasMessageContaining("avg");
    }

    @Test
    void givenLengthsInAnyMap() {
        // given lengths may come in any Map implementation
        Map<String, Integer> given = new HashMap<>();
        given.put("h", 3);
        assertThat(ArrowLowering.plan(Operation.REARRANGE, "b (h w) -> b h w", given, new int[] {2, 12}).outputShape())
                .containsExactly(2, 3, 4);
    }
}
