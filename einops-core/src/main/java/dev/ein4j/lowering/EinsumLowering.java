package dev.ein4j.lowering;

import dev.ein4j.cache.BoundedCache;
import dev.ein4j.pattern.Operand;
import dev.ein4j.pattern.Operation;
import dev.ein4j.pattern.ParsedPattern;
import dev.ein4j.pattern.PatternParser;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Lowers einsum, in einops or numpy notation, to movement steps, CONTRACT and MUL.
 *
 * <p>Every operand is reshaped to its elementary axes (compositions split), its repeated names
 * become diagonals, and axes that neither the output nor another operand needs are summed right
 * away. The remaining operands are contracted in pairs chosen greedily, as opt_einsum's greedy
 * strategy does: at each step the pair whose result is smallest relative to its inputs
 * (size(result) − size(a) − size(b)), ties going to the smaller result. Ellipsis axes are aligned
 * from the right and broadcast (length 1 against n) as in numpy.
 *
 * <pre>{@code
 * EinsumLowering.plan(Operation.EINSUM, "b h i d, b h j d -> b h i j", List.of(q.shape(), k.shape()))
 * }</pre>
 */
public final class EinsumLowering {

    private static final BoundedCache<Key, EinsumPlan> PLANS = new BoundedCache<>(2048);

    private EinsumLowering() {
    }

    /** The plan cache's key; shapes are compared by value without boxing them on the hot path. */
    private static final class Key {
        private final Operation operation;
        private final String pattern;
        private final int[][] shapes;
        private final Map<String, Integer> given;
        private final int hash;

        Key(Operation operation, String pattern, int[][] shapes, Map<String, Integer> given) {
            this.operation = operation;
            this.pattern = pattern;
            this.shapes = shapes;
            this.given = given;
            this.hash = ((operation.hashCode() * 31 + pattern.hashCode()) * 31 + Arrays.deepHashCode(shapes)) * 31 + given.hashCode();
        }

        @Override
        public boolean equals(Object other) {
            return other instanceof Key that && operation == that.operation && pattern.equals(that.pattern)
                    && Arrays.deepEquals(shapes, that.shapes) && given.equals(that.given);
        }

        @Override
        public int hashCode() {
            return hash;
        }
    }

    /**
     * @param operation EINSUM (einops notation) or NUMPY_EINSUM
     * @param pattern the pattern
     * @param shapes one shape per operand
     * @return the cached plan
     * @throws dev.ein4j.error.PatternSyntaxException if the pattern is malformed
     * @throws dev.ein4j.error.ShapeException if the operands do not fit the pattern
     */
    public static EinsumPlan plan(Operation operation, String pattern, List<int[]> shapes) {
        return plan(operation, pattern, shapes, Map.of());
    }

    /**
     * @param operation EINSUM (einops notation) or NUMPY_EINSUM
     * @param pattern the pattern
     * @param shapes one shape per operand
     * @param given axis lengths by name, as einops' keyword arguments ({@code "(a b) -> a b"} with a = 2)
     * @return the cached plan
     * @throws dev.ein4j.error.PatternSyntaxException if the pattern is malformed
     * @throws dev.ein4j.error.ShapeException if the operands or lengths do not fit the pattern
     */
    public static EinsumPlan plan(Operation operation, String pattern, List<int[]> shapes, Map<String, Integer> given) {
        int[][] copies = new int[shapes.size()][];
        for (int i = 0; i < copies.length; i++) {
            copies[i] = shapes.get(i).clone();
        }
        Map<String, Integer> lengths = Map.copyOf(given);
        return PLANS.get(new Key(operation, pattern, copies, lengths), k -> new Planner(operation, pattern, shapes, lengths).plan());
    }

    /** Builds one plan; lives for one call. */
    private static final class Planner {
        private final String pattern;
        private final ParsedPattern parsed;
        private final List<int[]> shapes;
        private final LoweringErrors errors;
        private final Map<String, Integer> given;
        private final Map<String, Integer> lengths = new HashMap<>();

        Planner(Operation operation, String pattern, List<int[]> shapes, Map<String, Integer> given) {
            this.pattern = pattern;
            this.parsed = PatternParser.parse(operation, pattern);
            this.shapes = shapes;
            this.given = given;
            this.errors = new LoweringErrors(pattern, shapes, given);
        }

        EinsumPlan plan() {
            List<Operand> inputs = parsed.inputs();
            if (inputs.size() != shapes.size()) {
                throw errors.shape(null, "the pattern has " + inputs.size() + " operand" + (inputs.size() == 1 ? "" : "s")
                        + " but " + shapes.size() + " tensor" + (shapes.size() == 1 ? " was" : "s were") + " given");
            }
            int ellipsisRank = 0;
            int[] ellipsisLengths = new int[inputs.size()];
            for (int i = 0; i < inputs.size(); i++) {
                Operand input = inputs.get(i);
                int fixed = OperandLayout.fixedDimensions(input);
                ellipsisLengths[i] = shapes.get(i).length - fixed;
                if (input.hasEllipsis() ? ellipsisLengths[i] < 0 : ellipsisLengths[i] != 0) {
                    throw errors.shape(input.span(), "operand " + i + " of the pattern has " + fixed + " dimension"
                            + (fixed == 1 ? "" : "s") + (input.hasEllipsis() ? " besides '...'" : "")
                            + " but the tensor has " + shapes.get(i).length);
                }
                ellipsisRank = Math.max(ellipsisRank, input.hasEllipsis() ? ellipsisLengths[i] : 0);
            }
            List<List<Dimension>> layouts = new ArrayList<>();
            for (int i = 0; i < inputs.size(); i++) {
                int own = inputs.get(i).hasEllipsis() ? ellipsisLengths[i] : 0;
                layouts.add(OperandLayout.dimensions(inputs.get(i), own, ellipsisRank - own, errors));
            }
            List<Dimension> output = OperandLayout.dimensions(parsed.output().orElseThrow(), ellipsisRank, 0, errors);
            solveLengths(layouts);

            List<String> outputAxes = new ArrayList<>();
            output.forEach(dimension -> dimension.axes().forEach(axis -> outputAxes.add(axis.name())));
            for (String name : outputAxes) {
                lengths.putIfAbsent(name, 1); // an output ellipsis axis that no operand has: length 1
            }

            List<List<String>> axesLists = new ArrayList<>();
            List<EinsumPlan.OperandPlan> operandPlans = new ArrayList<>();
            List<int[]> currentShapes = new ArrayList<>();
            for (int i = 0; i < layouts.size(); i++) {
                List<String> axes = new ArrayList<>();
                List<Integer> ownLengths = new ArrayList<>();
                for (int d = 0; d < layouts.get(i).size(); d++) {
                    Dimension dimension = layouts.get(i).get(d);
                    for (ElementaryAxis axis : dimension.axes()) {
                        axes.add(axis.name());
                        ownLengths.add(axis.isEllipsis() ? shapes.get(i)[d] : lengths.get(axis.name()));
                    }
                }
                axesLists.add(axes);
                currentShapes.add(ownLengths.stream().mapToInt(Integer::intValue).toArray());
            }
            for (int i = 0; i < layouts.size(); i++) {
                List<Step> steps = new ArrayList<>();
                int[] shape = shapes.get(i).clone();
                int[] elementary = currentShapes.get(i);
                int[] split = Windows.reshapeTarget(layouts.get(i), shape, withEllipsis(layouts.get(i), shape));
                if (!Arrays.equals(shape, split)) {
                    steps.add(new Step.Reshape(split));
                }
                Windows.apply(steps, layouts.get(i), split, lengths);
                List<String> axes = axesLists.get(i);
                List<Integer> ownLengths = new ArrayList<>(Arrays.stream(elementary).boxed().toList());
                takeDiagonals(axes, ownLengths, steps);
                sumPrivateAxes(i, axes, ownLengths, axesLists, outputAxes, steps);
                currentShapes.set(i, ownLengths.stream().mapToInt(Integer::intValue).toArray());
                operandPlans.add(new EinsumPlan.OperandPlan(shapes.get(i).clone(), steps, List.copyOf(axes)));
            }

            List<EinsumPlan.Contraction> contractions = contractGreedily(axesLists, currentShapes, outputAxes);
            List<String> last = axesLists.get(0);
            int[] lastShape = currentShapes.get(0);

            List<Step> finalSteps = new ArrayList<>();
            int[] order = outputAxes.stream().mapToInt(last::indexOf).toArray();
            int[] current = lastShape;
            if (!isIdentity(order)) {
                current = Arrays.stream(order).map(k -> lastShape[k]).toArray();
                finalSteps.add(new Step.Permute(order, current));
            }
            int[] full = outputAxes.stream().mapToInt(lengths::get).toArray();
            if (!Arrays.equals(current, full)) {
                finalSteps.add(new Step.Expand(full));
                current = full;
            }
            int[] outputShape = output.stream().mapToInt(dimension -> errors.composedLength(dimension,
                    axis -> lengths.get(axis.name()))).toArray();
            if (!Arrays.equals(current, outputShape)) {
                finalSteps.add(new Step.Reshape(outputShape));
            }
            return new EinsumPlan(pattern, operandPlans, contractions, finalSteps, outputShape);
        }

        /** Lengths from single-axis dimensions first, then compositions with one unknown, until stable. */
        /** The lengths, with the operand's own ellipsis lengths (they may be 1 where others broadcast). */
        private Map<String, Integer> withEllipsis(List<Dimension> layout, int[] shape) {
            Map<String, Integer> own = new HashMap<>(lengths);
            for (int d = 0; d < layout.size(); d++) {
                for (ElementaryAxis axis : layout.get(d).axes()) {
                    if (axis.isEllipsis()) {
                        own.put(axis.name(), shape[d]);
                    }
                }
            }
            return own;
        }

        private void solveLengths(List<List<Dimension>> layouts) {
            Map<String, Integer> firstOperand = new HashMap<>();
            layouts.forEach(layout -> layout.forEach(dimension -> dimension.axes().stream()
                    .filter(axis -> axis.knownLength() >= 0).forEach(axis -> lengths.put(axis.name(), axis.knownLength()))));
            Set<String> named = new java.util.HashSet<>();
            layouts.forEach(layout -> layout.forEach(dimension -> dimension.axes().forEach(axis -> named.add(axis.name()))));
            for (Map.Entry<String, Integer> length : given.entrySet()) {
                if (!named.contains(length.getKey())) {
                    throw errors.shape(null, "axis " + length.getKey() + " is given a length but appears in no operand");
                }
                lengths.put(length.getKey(), length.getValue());
            }
            for (int i = 0; i < layouts.size(); i++) {
                for (int d = 0; d < layouts.get(i).size(); d++) {
                    Dimension dimension = layouts.get(i).get(d);
                    int actual = shapes.get(i)[d];
                    if (dimension.axes().size() == 1 && dimension.axes().get(0).isEllipsis()) {
                        broadcastEllipsis(dimension, actual);
                    } else if (dimension.axes().size() == 1 && dimension.axes().get(0).knownLength() < 0) {
                        ElementaryAxis axis = dimension.axes().get(0);
                        Integer known = lengths.putIfAbsent(axis.name(), actual);
                        if (known != null && known != actual) {
                            throw errors.shape(dimension.span(), "axis " + axis.name() + " has length " + known
                                    + (firstOperand.containsKey(axis.name()) ? " in operand " + firstOperand.get(axis.name())
                                    : " as given") + " but " + actual + " in operand " + i);
                        }
                        firstOperand.putIfAbsent(axis.name(), i);
                    }
                }
            }
            boolean progress = true;
            List<int[]> pending = new ArrayList<>();
            for (int i = 0; i < layouts.size(); i++) {
                for (int d = 0; d < layouts.get(i).size(); d++) {
                    pending.add(new int[] {i, d});
                }
            }
            while (progress && !pending.isEmpty()) {
                progress = false;
                for (var iterator = pending.iterator(); iterator.hasNext(); ) {
                    int[] at = iterator.next();
                    Dimension dimension = layouts.get(at[0]).get(at[1]);
                    if (dimension.axes().size() == 1 && dimension.axes().get(0).isEllipsis()) {
                        iterator.remove();
                    } else if (LengthSolver.solve(dimension, shapes.get(at[0])[at[1]], lengths, errors)) {
                        iterator.remove();
                        progress = true;
                    }
                }
            }
            if (!pending.isEmpty()) {
                int[] at = pending.get(0);
                Dimension dimension = layouts.get(at[0]).get(at[1]);
                throw errors.shape(dimension.span(), "cannot infer the lengths of " + LengthSolver.names(dimension, lengths)
                        + " from " + errors.text(dimension.span()) + " of length " + shapes.get(at[0])[at[1]]
                        + ": another operand must name all but one of them");
            }
        }

        private void broadcastEllipsis(Dimension dimension, int actual) {
            String name = dimension.axes().get(0).name();
            Integer known = lengths.get(name);
            if (known == null || known == 1) {
                lengths.put(name, actual);
            } else if (actual != 1 && actual != known) {
                throw errors.shape(dimension.span(), "the dimensions under '...' do not broadcast: " + known + " and " + actual);
            }
        }

        private void takeDiagonals(List<String> axes, List<Integer> ownLengths, List<Step> steps) {
            for (int first = 0; first < axes.size(); first++) {
                for (int second = axes.size() - 1; second > first; second--) {
                    if (axes.get(first).equals(axes.get(second))) {
                        axes.remove(second);
                        ownLengths.remove(second);
                        steps.add(new Step.Diagonal(first, second, ownLengths.stream().mapToInt(Integer::intValue).toArray()));
                    }
                }
            }
        }

        private void sumPrivateAxes(int operand, List<String> axes, List<Integer> ownLengths, List<List<String>> all,
                                    List<String> outputAxes, List<Step> steps) {
            List<Integer> summed = new ArrayList<>();
            for (int k = 0; k < axes.size(); k++) {
                String name = axes.get(k);
                boolean needed = outputAxes.contains(name);
                for (int other = 0; other < all.size() && !needed; other++) {
                    needed = other != operand && all.get(other).contains(name);
                }
                if (!needed) {
                    summed.add(k);
                }
            }
            if (summed.isEmpty()) {
                return;
            }
            for (int k = summed.size() - 1; k >= 0; k--) {
                axes.remove((int) summed.get(k));
                ownLengths.remove((int) summed.get(k));
            }
            steps.add(new Step.Reduce(summed.stream().mapToInt(Integer::intValue).toArray(),
                    ownLengths.stream().mapToInt(Integer::intValue).toArray()));
        }

        private List<EinsumPlan.Contraction> contractGreedily(List<List<String>> axesLists, List<int[]> shapesNow,
                                                              List<String> outputAxes) {
            List<EinsumPlan.Contraction> contractions = new ArrayList<>();
            while (axesLists.size() > 1) {
                int bestLeft = -1;
                int bestRight = -1;
                long bestCost = Long.MAX_VALUE;
                long bestSize = Long.MAX_VALUE;
                for (int a = 0; a < axesLists.size(); a++) {
                    for (int b = a + 1; b < axesLists.size(); b++) {
                        long size = size(resultAxes(a, b, axesLists, outputAxes));
                        long cost = size - size(shapesNow.get(a)) - size(shapesNow.get(b));
                        if (cost < bestCost || cost == bestCost && size < bestSize) {
                            bestCost = cost;
                            bestSize = size;
                            bestLeft = a;
                            bestRight = b;
                        }
                    }
                }
                contractions.add(contract(bestLeft, bestRight, axesLists, shapesNow, outputAxes));
            }
            return contractions;
        }

        private EinsumPlan.Contraction contract(int a, int b, List<List<String>> axesLists, List<int[]> shapesNow,
                                                List<String> outputAxes) {
            List<String> kept = resultAxes(a, b, axesLists, outputAxes);
            // The kept axes first, in the output's order: the contraction's buffer is then laid out as
            // the result is read (a convolution writes b o h w, not b h w o); summed axes after them.
            List<String> union = new ArrayList<>(kept);
            for (String name : new LinkedHashSet<>(concat(axesLists.get(a), axesLists.get(b)))) {
                if (!union.contains(name)) {
                    union.add(name);
                }
            }
            int[] unionShape = union.stream().mapToInt(lengths::get).toArray();
            int[] summed = java.util.stream.IntStream.range(0, union.size()).filter(k -> !kept.contains(union.get(k))).toArray();
            List<Step> alignLeft = align(axesLists.get(a), shapesNow.get(a), union, unionShape);
            List<Step> alignRight = align(axesLists.get(b), shapesNow.get(b), union, unionShape);
            int[] resultShape = kept.stream().mapToInt(lengths::get).toArray();
            EinsumPlan.Contraction contraction = new EinsumPlan.Contraction(a, b, alignLeft, alignRight, summed,
                    resultShape, List.copyOf(kept), Arrays.stream(summed).mapToObj(union::get).toList());
            axesLists.remove(b);
            axesLists.remove(a);
            shapesNow.remove(b);
            shapesNow.remove(a);
            axesLists.add(new ArrayList<>(kept));
            shapesNow.add(resultShape);
            return contraction;
        }

        /** The union of two operands' axes less those no one else needs. */
        private List<String> resultAxes(int a, int b, List<List<String>> axesLists, List<String> outputAxes) {
            Set<String> needed = new LinkedHashSet<>(outputAxes);
            for (int other = 0; other < axesLists.size(); other++) {
                if (other != a && other != b) {
                    needed.addAll(axesLists.get(other));
                }
            }
            Set<String> present = new LinkedHashSet<>(concat(axesLists.get(a), axesLists.get(b)));
            List<String> result = new ArrayList<>();
            for (String name : outputAxes) { // the output's axes in its order, then those later operands need
                if (present.contains(name)) {
                    result.add(name);
                }
            }
            for (String name : present) {
                if (needed.contains(name) && !result.contains(name)) {
                    result.add(name);
                }
            }
            return result;
        }

        /** Permute to the union's order, insert length-1 axes for the missing ones, expand to full lengths. */
        private static List<Step> align(List<String> axes, int[] shape, List<String> union, int[] unionShape) {
            List<Step> steps = new ArrayList<>();
            List<String> present = union.stream().filter(axes::contains).toList();
            int[] order = present.stream().mapToInt(axes::indexOf).toArray();
            if (!isIdentity(order)) {
                steps.add(new Step.Permute(order, Arrays.stream(order).map(k -> shape[k]).toArray()));
            }
            int[] withUnits = new int[union.size()];
            for (int k = 0; k < union.size(); k++) {
                int at = axes.indexOf(union.get(k));
                withUnits[k] = at < 0 ? 1 : shape[at];
            }
            int[] permuted = Arrays.stream(order).map(k -> shape[k]).toArray();
            if (!Arrays.equals(permuted, withUnits)) {
                steps.add(new Step.Reshape(withUnits));
            }
            if (!Arrays.equals(withUnits, unionShape)) {
                steps.add(new Step.Expand(unionShape));
            }
            return steps;
        }

        /** Sizes for the greedy order's costs; they saturate rather than wrap (a cost, not an allocation). */
        private long size(List<String> axes) {
            long size = 1;
            for (String name : axes) {
                size = saturatingProduct(size, lengths.get(name));
            }
            return size;
        }

        private static long size(int[] shape) {
            long size = 1;
            for (int length : shape) {
                size = saturatingProduct(size, length);
            }
            return size;
        }

        private static long saturatingProduct(long a, long b) {
            long high = Math.multiplyHigh(a, b);
            long low = a * b;
            return high != 0 || low < 0 ? Long.MAX_VALUE : low;
        }

        private static List<String> concat(List<String> a, List<String> b) {
            List<String> all = new ArrayList<>(a);
            all.addAll(b);
            return all;
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
