package dev.ein4j.lowering;

import dev.ein4j.cache.BoundedCache;
import dev.ein4j.pattern.Operand;
import dev.ein4j.pattern.Operation;
import dev.ein4j.pattern.ParsedPattern;
import dev.ein4j.pattern.PatternParser;
import dev.ein4j.pattern.Span;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Lowers rearrange, reduce and repeat, einops-style, through two caches: a shape-independent
 * recipe per (operation, pattern, names of the given axes, number of dimensions), and a concrete
 * {@link LoweringPlan} per (recipe, input shape, given lengths).
 *
 * <pre>{@code
 * LoweringPlan plan = ArrowLowering.plan(Operation.REARRANGE, "b c (h p1) (w p2) -> b (h w) (p1 p2 c)",
 *         Map.of("p1", 2, "p2", 2), new int[] {2, 3, 8, 8});
 * plan.explain();
 * // rearrange "b c (h p1) (w p2) -> b (h w) (p1 p2 c)" on [2, 3, 8, 8] with {b=2, c=3, h=4, p1=2, p2=2, w=4}
 * //   1. reshape -> [2, 3, 4, 2, 4, 2]
 * //   2. permute [0, 2, 4, 3, 5, 1] -> [2, 4, 4, 2, 2, 3]
 * //   3. reshape -> [2, 16, 12]
 * // (the "with" part lists every solved length: b, c, h, p1, p2, w)
 * }</pre>
 */
public final class ArrowLowering {

    private static final BoundedCache<RecipeKey, Recipe> RECIPES = new BoundedCache<>(1024);
    private static final BoundedCache<PlanKey, LoweringPlan> PLANS = new BoundedCache<>(4096);

    private ArrowLowering() {
    }

    /**
     * @param operation REARRANGE, REDUCE or REPEAT
     * @param pattern the pattern
     * @param axisLengths lengths given by name (may be empty)
     * @param shape the input shape
     * @return the cached plan
     * @throws dev.ein4j.error.PatternSyntaxException if the pattern is malformed
     * @throws dev.ein4j.error.ShapeException if the pattern does not fit the shape and lengths
     */
    public static LoweringPlan plan(Operation operation, String pattern, Map<String, Integer> axisLengths, int[] shape) {
        String[] names = sortedNames(axisLengths);
        Recipe recipe = RECIPES.get(new RecipeKey(operation, pattern, List.of(names), shape.length),
                key -> new Recipe(operation, pattern, names, shape, axisLengths));
        int[] lengths = new int[names.length];
        for (int i = 0; i < names.length; i++) {
            lengths[i] = axisLengths.get(names[i]);
        }
        return PLANS.get(new PlanKey(recipe, shape.clone(), lengths), key -> recipe.plan(shape, axisLengths));
    }

    private static final String[] NO_NAMES = new String[0];

    private static String[] sortedNames(Map<String, Integer> axisLengths) {
        if (axisLengths.isEmpty()) {
            return NO_NAMES;
        }
        String[] names = axisLengths.keySet().toArray(NO_NAMES);
        Arrays.sort(names);
        return names;
    }

    private record RecipeKey(Operation operation, String pattern, List<String> names, int rank) {
    }

    private static final class PlanKey {
        private final Recipe recipe;
        private final int[] shape;
        private final int[] lengths;
        private final int hash;

        PlanKey(Recipe recipe, int[] shape, int[] lengths) {
            this.recipe = recipe;
            this.shape = shape;
            this.lengths = lengths;
            this.hash = (System.identityHashCode(recipe) * 31 + Arrays.hashCode(shape)) * 31 + Arrays.hashCode(lengths);
        }

        @Override
        public boolean equals(Object other) {
            return other instanceof PlanKey that && recipe == that.recipe && Arrays.equals(shape, that.shape)
                    && Arrays.equals(lengths, that.lengths);
        }

        @Override
        public int hashCode() {
            return hash;
        }
    }

    /** What a pattern means once the number of input dimensions is known. */
    private static final class Recipe {
        private final Operation operation;
        private final String pattern;
        private final List<Dimension> left;
        private final List<Dimension> right;
        private final List<String> leftAxes = new ArrayList<>();
        private final List<String> rightAxes = new ArrayList<>();
        private final Map<String, ElementaryAxis> newAxes = new LinkedHashMap<>();

        Recipe(Operation operation, String pattern, String[] givenNames, int[] shape, Map<String, Integer> given) {
            this.operation = operation;
            this.pattern = pattern;
            ParsedPattern parsed = PatternParser.parse(operation, pattern);
            LoweringErrors errors = new LoweringErrors(pattern, List.of(shape), given);
            Operand input = parsed.input();
            int fixed = OperandLayout.fixedDimensions(input);
            int ellipsisLength = shape.length - fixed;
            if (input.hasEllipsis() ? ellipsisLength < 0 : ellipsisLength != 0) {
                throw errors.shape(input.span(), "the pattern's left side has " + fixed + " dimension"
                        + (fixed == 1 ? "" : "s") + (input.hasEllipsis() ? " besides '...'" : "")
                        + " but the input has " + shape.length);
            }
            left = OperandLayout.dimensions(input, ellipsisLength, 0, errors);
            right = OperandLayout.dimensions(parsed.output().orElseThrow(), ellipsisLength, 0, errors);
            left.forEach(dimension -> dimension.axes().forEach(axis -> leftAxes.add(axis.name())));
            right.forEach(dimension -> dimension.axes().forEach(axis -> {
                rightAxes.add(axis.name());
                if (!leftAxes.contains(axis.name())) {
                    newAxes.put(axis.name(), axis);
                }
            }));
            for (String name : givenNames) {
                if (!leftAxes.contains(name) && !rightAxes.contains(name)) {
                    throw errors.shape(null, "axis " + name + " is given a length but does not appear in the pattern");
                }
            }
            for (ElementaryAxis axis : newAxes.values()) {
                if (axis.knownLength() < 0 && !Arrays.asList(givenNames).contains(axis.name())) {
                    throw errors.shape(axis.span(), "axis " + axis.name()
                            + " is new on the right side of repeat: give its length, e.g. axes(\"" + axis.name() + "\", 3)");
                }
            }
        }

        LoweringPlan plan(int[] shape, Map<String, Integer> given) {
            LoweringErrors errors = new LoweringErrors(pattern, List.of(shape), given);
            Map<String, Integer> lengths = new HashMap<>(given);
            for (int d = 0; d < left.size(); d++) {
                if (!LengthSolver.solve(left.get(d), shape[d], lengths, errors)) {
                    throw errors.shape(left.get(d).span(), left.get(d).isWindow()
                            ? "the kernel length " + left.get(d).axes().get(1).name() + " of window " + errors.text(left.get(d).span())
                            + " is not known: give it by name, e.g. Axes.of(\"" + left.get(d).axes().get(1).name() + "\", 3)"
                            : "cannot infer the lengths of " + LengthSolver.names(left.get(d), lengths) + " from "
                            + errors.text(left.get(d).span()) + " of length " + shape[d] + ": give all but one of them by name");
                }
            }
            newAxes.values().forEach(axis -> lengths.putIfAbsent(axis.name(), LengthSolver.lengthOf(axis, lengths)));
            List<Step> steps = new ArrayList<>();
            int[] current = shape.clone();

            current = reshape(steps, current, Windows.reshapeTarget(left, shape, lengths));
            current = Windows.apply(steps, left, current, lengths);

            List<String> remaining = new ArrayList<>(leftAxes);
            if (operation == Operation.REDUCE) {
                int[] reduced = java.util.stream.IntStream.range(0, leftAxes.size())
                        .filter(k -> !rightAxes.contains(leftAxes.get(k))).toArray();
                if (reduced.length > 0) {
                    remaining.removeIf(name -> !rightAxes.contains(name));
                    current = remaining.stream().mapToInt(name -> length(name, lengths)).toArray();
                    steps.add(new Step.Reduce(reduced, current));
                }
            }

            List<String> kept = rightAxes.stream().filter(remaining::contains).toList();
            int[] order = kept.stream().mapToInt(remaining::indexOf).toArray();
            if (!isIdentity(order)) {
                current = kept.stream().mapToInt(name -> length(name, lengths)).toArray();
                steps.add(new Step.Permute(order, current));
            }

            if (!newAxes.isEmpty()) {
                int[] withUnits = rightAxes.stream().mapToInt(name -> newAxes.containsKey(name) ? 1 : length(name, lengths)).toArray();
                current = reshape(steps, current, withUnits);
                current = rightAxes.stream().mapToInt(name -> length(name, lengths)).toArray();
                steps.add(new Step.Expand(current));
            }

            int[] output = right.stream().mapToInt(dimension -> errors.composedLength(dimension,
                    axis -> length(axis.name(), lengths))).toArray();
            reshape(steps, current, output);

            collapseReshapes(steps, shape);
            Map<String, Integer> named = new LinkedHashMap<>();
            for (String name : leftAxes) {
                if (!name.startsWith("#") && !name.startsWith(ElementaryAxis.ELLIPSIS_PREFIX)) {
                    named.put(name, lengths.get(name));
                }
            }
            newAxes.keySet().stream().filter(name -> !name.startsWith("#")).forEach(name -> named.put(name, lengths.get(name)));
            return new LoweringPlan(operation, pattern, shape, steps, named);
        }

        private int length(String name, Map<String, Integer> lengths) {
            for (Dimension dimension : left) {
                for (ElementaryAxis axis : dimension.axes()) {
                    if (axis.name().equals(name) && axis.knownLength() >= 0) {
                        return axis.knownLength();
                    }
                }
            }
            ElementaryAxis added = newAxes.get(name);
            if (added != null && added.knownLength() >= 0) {
                return added.knownLength();
            }
            return Objects.requireNonNull(lengths.get(name), name);
        }

        /** Two reshapes in a row are one; a reshape back to the input shape is none. */
        private static void collapseReshapes(List<Step> steps, int[] inputShape) {
            for (int k = steps.size() - 1; k > 0; k--) {
                if (steps.get(k) instanceof Step.Reshape && steps.get(k - 1) instanceof Step.Reshape) {
                    steps.remove(k - 1);
                }
            }
            if (!steps.isEmpty() && steps.get(0) instanceof Step.Reshape first && Arrays.equals(first.shape(), inputShape)) {
                steps.remove(0);
            }
        }

        private static int[] reshape(List<Step> steps, int[] current, int[] target) {
            if (!Arrays.equals(current, target)) {
                steps.add(new Step.Reshape(target));
            }
            return target;
        }

        private static boolean isIdentity(int[] order) {
            for (int k = 0; k < order.length; k++) {
                if (order[k] != k) {
                    return false;
                }
            }
            return true;
        }
    }

}
