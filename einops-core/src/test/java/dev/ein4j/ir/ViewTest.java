package dev.ein4j.ir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import dev.ein4j.testing.NdArray;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * View against a naive model that materialises the array after every movement op. Whenever View
 * returns a view, reading every element through {@link View#bufferIndex} must give the model's
 * value; when it returns null the chain continues, as the runtime does, from a compact copy.
 */
class ViewTest {

    private static final double[] FILLS = {0.0, 2.5, -7.0};

    // ------------------------------------------------------------------ the model check

    /** Reads every element of a view over a buffer, checking indices stay inside the buffer. */
    private static double[] read(View view, double[] buffer, String context) {
        int[] shape = view.shape();
        double[] out = new double[(int) view.size()];
        for (int flat = 0; flat < out.length; flat++) {
            int[] index = NdArray.unravel(flat, shape);
            long position = view.bufferIndex(index);
            if (position == -1) {
                out[flat] = view.padValue();
            } else {
                if (position < 0 || position >= buffer.length) {
                    fail(context + ": element " + Arrays.toString(index) + " reads buffer index " + position
                            + " outside [0, " + buffer.length + ") of " + view);
                }
                out[flat] = buffer[(int) position];
            }
        }
        return out;
    }

    private static void assertMatches(View view, double[] buffer, NdArray model, String context) {
        assertThat(view.shape()).as(context + " shape of " + view).isEqualTo(model.shape);
        assertThat(view.size()).as(context).isEqualTo(model.size());
        double[] actual = read(view, buffer, context);
        for (int i = 0; i < actual.length; i++) {
            if (Double.compare(actual[i], model.data[i]) != 0) {
                fail(context + ": element " + Arrays.toString(NdArray.unravel(i, model.shape)) + " is " + actual[i]
                        + " but the model has " + model.data[i] + "\n view " + view
                        + "\n actual " + Arrays.toString(actual) + "\n model  " + Arrays.toString(model.data));
            }
        }
    }

    /**
     * Whether the unmasked view, reshaped, is still one strided view: the buffer index of each
     * element of the new shape (via the row-major flat index) must be affine in the new multi-index.
     */
    private static boolean reshapeIsAffine(View view, int[] newShape) {
        int size = (int) view.size();
        if (size == 0) {
            return true;
        }
        int[] oldShape = view.shape();
        long[] positions = new long[size];
        for (int flat = 0; flat < size; flat++) {
            positions[flat] = view.bufferIndex(NdArray.unravel(flat, oldShape));
        }
        long offset = positions[0];
        long[] strides = new long[newShape.length];
        for (int k = 0; k < newShape.length; k++) {
            if (newShape[k] > 1) {
                int[] unit = new int[newShape.length];
                unit[k] = 1;
                strides[k] = positions[NdArray.ravel(unit, newShape)] - offset;
            }
        }
        for (int flat = 0; flat < size; flat++) {
            int[] index = NdArray.unravel(flat, newShape);
            long expected = offset;
            for (int k = 0; k < index.length; k++) {
                expected += index[k] * strides[k];
            }
            if (expected != positions[flat]) {
                return false;
            }
        }
        return true;
    }

    // ------------------------------------------------------------------ random chains

    private static int[] randomShape(SplittableRandom random) {
        int rank = 1 + random.nextInt(4);
        int[] shape = new int[rank];
        for (int k = 0; k < rank; k++) {
            shape[k] = 1 + random.nextInt(4);
        }
        if (random.nextInt(25) == 0) {
            shape[random.nextInt(rank)] = 0;
        }
        return shape;
    }

    private static List<Integer> primeFactors(int n) {
        List<Integer> factors = new ArrayList<>();
        for (int p = 2; n > 1; p++) {
            while (n % p == 0) {
                factors.add(p);
                n /= p;
            }
        }
        return factors;
    }

    /** A random shape with the same number of elements: merges, splits, unit dims, or any factorisation. */
    private static int[] randomReshape(SplittableRandom random, int[] shape) {
        int size = NdArray.size(shape);
        int choice = random.nextInt(5);
        if (size == 0) {
            int[] target = new int[1 + random.nextInt(3)];
            for (int k = 0; k < target.length; k++) {
                target[k] = 1 + random.nextInt(3);
            }
            target[random.nextInt(target.length)] = 0;
            return target;
        }
        if (choice == 0 && shape.length >= 2) { // merge two adjacent dims
            int at = random.nextInt(shape.length - 1);
            List<Integer> target = new ArrayList<>();
            for (int k = 0; k < shape.length; k++) {
                if (k == at) {
                    target.add(shape[k] * shape[k + 1]);
                    k++;
                } else {
                    target.add(shape[k]);
                }
            }
            return target.stream().mapToInt(Integer::intValue).toArray();
        }
        if (choice == 1) { // split one dim
            int at = random.nextInt(shape.length);
            List<Integer> factors = primeFactors(shape[at]);
            if (factors.size() >= 2) {
                int outer = 1;
                int cut = 1 + random.nextInt(factors.size() - 1);
                for (int i = 0; i < cut; i++) {
                    outer *= factors.get(i);
                }
                List<Integer> target = new ArrayList<>();
                for (int k = 0; k < shape.length; k++) {
                    if (k == at) {
                        target.add(outer);
                        target.add(shape[k] / outer);
                    } else {
                        target.add(shape[k]);
                    }
                }
                return target.stream().mapToInt(Integer::intValue).toArray();
            }
        }
        if (choice == 2) { // insert or remove unit dims
            List<Integer> target = new ArrayList<>();
            for (int length : shape) {
                if (length != 1 || random.nextBoolean()) {
                    target.add(length);
                }
                if (random.nextInt(3) == 0) {
                    target.add(1);
                }
            }
            if (target.isEmpty()) {
                target.add(1);
            }
            return target.stream().mapToInt(Integer::intValue).toArray();
        }
        // any factorisation into 1..4 dims, units sprinkled in
        List<Integer> factors = primeFactors(size);
        int rank = 1 + random.nextInt(4);
        int[] target = new int[rank];
        Arrays.fill(target, 1);
        for (int factor : factors) {
            target[random.nextInt(rank)] *= factor;
        }
        return target;
    }

    private record Applied(View view, NdArray model, String description, java.util.function.UnaryOperator<View> op) {
    }

    private static Applied applied(View view, java.util.function.UnaryOperator<View> op, NdArray model, String description) {
        return new Applied(op.apply(view), model, description, op);
    }

    /** Applies one random movement op to both; view is null when View says it needs a copy. */
    private static Applied randomOp(SplittableRandom random, View view, NdArray model) {
        int[] shape = model.shape;
        int rank = shape.length;
        while (true) {
            switch (random.nextInt(6)) {
                case 0 -> {
                    int[] order = permutation(random, rank);
                    return applied(view, v -> v.permute(order), model.permute(order), "permute " + Arrays.toString(order));
                }
                case 1 -> {
                    if (Arrays.stream(shape).noneMatch(length -> length == 1) || model.size() > 500) {
                        continue;
                    }
                    int[] target = shape.clone();
                    for (int k = 0; k < rank; k++) {
                        if (shape[k] == 1 && random.nextInt(3) > 0) {
                            target[k] = 2 + random.nextInt(3);
                        }
                    }
                    return applied(view, v -> v.expand(target), model.expand(target), "expand " + Arrays.toString(target));
                }
                case 2 -> {
                    int[] starts = new int[rank];
                    int[] ends = new int[rank];
                    for (int k = 0; k < rank; k++) {
                        starts[k] = random.nextInt(shape[k] + 1);
                        ends[k] = starts[k] + random.nextInt(shape[k] - starts[k] + 1);
                        if (random.nextInt(3) == 0) { // often keep whole dims
                            starts[k] = 0;
                            ends[k] = shape[k];
                        }
                    }
                    return applied(view, v -> v.shrink(starts, ends), model.shrink(starts, ends),
                            "shrink " + Arrays.toString(starts) + ".." + Arrays.toString(ends));
                }
                case 3 -> {
                    boolean[] axes = new boolean[rank];
                    for (int k = 0; k < rank; k++) {
                        axes[k] = random.nextBoolean();
                    }
                    return applied(view, v -> v.flip(axes), model.flip(axes), "flip " + Arrays.toString(axes));
                }
                case 4 -> {
                    if (model.size() > 500) {
                        continue;
                    }
                    int[] before = new int[rank];
                    int[] after = new int[rank];
                    for (int k = 0; k < rank; k++) {
                        before[k] = random.nextInt(3);
                        after[k] = random.nextInt(3);
                    }
                    double fill = FILLS[random.nextInt(FILLS.length)];
                    return applied(view, v -> v.pad(before, after, fill), model.pad(before, after, fill),
                            "pad " + Arrays.toString(before) + " " + Arrays.toString(after) + " fill " + fill);
                }
                default -> {
                    int[] target = randomReshape(random, shape);
                    return applied(view, v -> v.reshape(target), model.reshape(target), "reshape " + Arrays.toString(target));
                }
            }
        }
    }

    private static int[] permutation(SplittableRandom random, int rank) {
        int[] order = java.util.stream.IntStream.range(0, rank).toArray();
        for (int k = rank - 1; k > 0; k--) {
            int j = random.nextInt(k + 1);
            int swap = order[k];
            order[k] = order[j];
            order[j] = swap;
        }
        return order;
    }

    @Test
    void randomMovementChainsAgreeWithTheNaiveModel() {
        SplittableRandom random = new SplittableRandom(Long.getLong("viewSeed", 20240611L));
        int copies = 0;
        int views = 0;
        for (int trial = 0; trial < 400; trial++) {
            int[] shape = randomShape(random);
            NdArray model = NdArray.random(random, shape, -10, 10);
            double[] buffer = model.data.clone();
            View view = View.contiguous(shape);
            StringBuilder history = new StringBuilder("trial " + trial + " from " + Arrays.toString(shape));
            assertMatches(view, buffer, model, history.toString());
            for (int step = 0; step < 8; step++) {
                View before = view;
                Applied applied = randomOp(random, view, model);
                history.append("\n  ").append(applied.description());
                String context = history.toString();
                if (applied.description().startsWith("pad")) {
                    double fill = Double.parseDouble(applied.description().substring(applied.description().lastIndexOf(' ') + 1));
                    boolean mustCopy = before.hasMask() && Double.compare(before.padValue(), fill) != 0;
                    assertThat(applied.view() == null).as(context + "\n pad returns null exactly when it pads with another value; before: " + before)
                            .isEqualTo(mustCopy);
                }
                if (applied.description().startsWith("reshape") && !before.hasMask()) {
                    boolean affine = reshapeIsAffine(before, applied.model().shape);
                    assertThat(applied.view() != null).as(context + "\n an unmasked reshape is a view exactly when the strides allow it; before: "
                            + before).isEqualTo(affine);
                }
                if (applied.view() == null) {
                    // the runtime makes the source compact, then applies the op to a contiguous view
                    copies++;
                    buffer = read(before, buffer, context);
                    View compact = View.contiguous(model.shape);
                    assertThat(compact.isContiguous()).isTrue();
                    View again = applied.op().apply(compact);
                    assertThat(again).as(context + ": a contiguous view must accept every movement op").isNotNull();
                    view = again;
                } else {
                    views++;
                    view = applied.view();
                }
                model = applied.model();
                assertMatches(view, buffer, model, context);
                if (view.isContiguous()) {
                    // a contiguous view reads the buffer in order from 0
                    double[] prefix = Arrays.copyOf(buffer, model.size());
                    assertThat(prefix).as(context + ": isContiguous but the buffer prefix differs").containsExactly(model.data);
                }
            }
        }
        assertThat(views).as("most ops should stay views").isGreaterThan(copies);
        assertThat(copies).as("some chains must have needed a copy").isPositive();
    }

    // ------------------------------------------------------------------ specific cases

    @Test
    void reshapeOfContiguousSplitsWithRowMajorStrides() {
        View view = View.contiguous(new int[] {6, 4}).reshape(new int[] {2, 3, 4});
        assertThat(view).isNotNull();
        assertThat(view.shape()).containsExactly(2, 3, 4);
        assertThat(view.strides()).containsExactly(12, 4, 1);
        assertThat(view.offset()).isZero();
        assertThat(view.isContiguous()).isTrue();
    }

    @Test
    void reshapeOfTransposedViewSplitsButDoesNotMergeAcrossTheTranspose() {
        View transposed = View.contiguous(new int[] {6, 4}).permute(new int[] {1, 0}); // [4, 6] strides [1, 4]
        assertThat(transposed.strides()).containsExactly(1, 4);

        View split = transposed.reshape(new int[] {4, 2, 3}); // element (i, a, b) = source (3a + b, i)
        assertThat(split).isNotNull();
        double[] buffer = new double[24];
        for (int i = 0; i < 24; i++) {
            buffer[i] = i;
        }
        NdArray model = new NdArray(new int[] {6, 4}, buffer.clone()).permute(1, 0).reshape(4, 2, 3);
        assertMatches(split, buffer, model, "[4,6]^T -> [4,2,3]");
        assertThat(split.strides()).containsExactly(1, 12, 4);

        View splitOuter = transposed.reshape(new int[] {2, 2, 6});
        assertThat(splitOuter).isNotNull();
        assertMatches(splitOuter, buffer, new NdArray(new int[] {6, 4}, buffer.clone()).permute(1, 0).reshape(2, 2, 6),
                "[4,6]^T -> [2,2,6]");

        assertThat(transposed.reshape(new int[] {24})).as("flattening a transpose needs a copy").isNull();
        assertThat(transposed.reshape(new int[] {6, 4})).as("[4,6]^T -> [6,4] needs a copy").isNull();
        assertThat(transposed.reshape(new int[] {8, 3})).as("merging across the transpose needs a copy").isNull();
    }

    @Test
    void reshapeOfExpandedAxesKeepsZeroStrides() {
        View expanded = View.contiguous(new int[] {1, 1}).expand(new int[] {3, 4});
        View merged = expanded.reshape(new int[] {12});
        assertThat(merged).isNotNull();
        assertThat(merged.strides()).containsExactly(0);
        View half = View.contiguous(new int[] {3, 1}).expand(new int[] {3, 4});
        assertThat(half.reshape(new int[] {12})).as("[3 (stride 1), 4 (stride 0)] cannot merge").isNull();
    }

    @Test
    void padWithAnotherFillOnAPaddedViewNeedsACopy() {
        View padded = View.contiguous(new int[] {2, 3}).pad(new int[] {1, 0}, new int[] {0, 1}, 1.5);
        assertThat(padded.hasMask()).isTrue();
        assertThat(padded.padValue()).isEqualTo(1.5);
        assertThat(padded.pad(new int[] {0, 1}, new int[] {0, 0}, 2.0)).isNull();
        assertThat(padded.pad(new int[] {0, 1}, new int[] {0, 0}, 0.0)).isNull();
        View same = padded.pad(new int[] {0, 1}, new int[] {1, 0}, 1.5);
        assertThat(same).isNotNull();
        double[] buffer = {1, 2, 3, 4, 5, 6};
        NdArray model = new NdArray(new int[] {2, 3}, buffer.clone())
                .pad(new int[] {1, 0}, new int[] {0, 1}, 1.5).pad(new int[] {0, 1}, new int[] {1, 0}, 1.5);
        assertMatches(same, buffer, model, "pad, pad same fill");
        // shrinking the padding away removes the mask, so another fill is fine again
        View inner = padded.shrink(new int[] {1, 0}, new int[] {3, 3});
        assertThat(inner.hasMask()).isFalse();
        assertThat(inner.pad(new int[] {1, 1}, new int[] {0, 0}, -3.0)).isNotNull();
    }

    @Test
    void maskedReshapeAddingUnitDimsKeepsPadding() {
        double[] buffer = {1, 2, 3};
        View padded = View.contiguous(new int[] {3}).pad(new int[] {1}, new int[] {2}, 9.0);
        View withUnits = padded.reshape(new int[] {1, 6, 1});
        NdArray model = new NdArray(new int[] {3}, buffer.clone()).pad(new int[] {1}, new int[] {2}, 9.0).reshape(1, 6, 1);
        if (withUnits != null) {
            assertMatches(withUnits, buffer, model, "padded [6] -> [1,6,1]");
        }
        assertThat(padded.reshape(new int[] {2, 3})).as("splitting a padded dim needs a copy").isNull();
    }

    @Test
    void isContiguous() {
        View base = View.contiguous(new int[] {2, 3, 4});
        assertThat(base.isContiguous()).isTrue();
        View permuted = base.permute(new int[] {2, 0, 1});
        assertThat(permuted.isContiguous()).isFalse();
        assertThat(permuted.permute(new int[] {1, 2, 0}).isContiguous()).as("permuted back").isTrue();
        assertThat(base.shrink(new int[] {1, 0, 0}, new int[] {2, 3, 4}).isContiguous()).as("offset").isFalse();
        assertThat(base.shrink(new int[] {0, 0, 0}, new int[] {1, 3, 4}).isContiguous()).as("leading block").isTrue();
        assertThat(base.shrink(new int[] {0, 0, 0}, new int[] {2, 3, 2}).isContiguous()).as("gaps").isFalse();
        assertThat(base.flip(new boolean[] {false, false, true}).isContiguous()).isFalse();
        assertThat(base.pad(new int[] {0, 0, 1}, new int[] {0, 0, 0}, 0.0).isContiguous()).isFalse();
        assertThat(View.contiguous(new int[] {1, 4}).expand(new int[] {3, 4}).isContiguous()).isFalse();
        assertThat(View.contiguous(new int[] {2, 0, 3}).isContiguous()).isTrue();
        assertThat(View.contiguous(new int[] {}).isContiguous()).isTrue();
        assertThat(base.reshape(new int[] {6, 4}).isContiguous()).isTrue();
        assertThat(View.broadcastScalar(new int[] {2, 2}).isContiguous()).isFalse();
    }

    /**
     * A view that adds a length-1 dimension to a compact buffer still reads that buffer in order
     * from 0 ("whether this view reads a compact row-major buffer from offset 0"): the stride of a
     * length-1 dimension never matters, as numpy's C-contiguity flag ignores it. View.reshape gives
     * such dimensions stride 0, and isContiguous then compares strides exactly and says false, so
     * the runtime copies needlessly (Realizer.read, CONTIGUOUS of an unsqueezed tensor).
     */
    @Test
    void isContiguousIgnoresStridesOfUnitDimensions() {
        View unsqueezed = View.contiguous(new int[] {3}).reshape(new int[] {3, 1});
        assertThat(unsqueezed).isNotNull();
        assertThat(unsqueezed.isContiguous()).as(unsqueezed.toString()).isTrue();
        View leading = View.contiguous(new int[] {2, 3}).reshape(new int[] {1, 2, 3});
        assertThat(leading.isContiguous()).as(leading.toString()).isTrue();
    }

    @Test
    void shrinkToEmptyAndPadOfEmpty() {
        View base = View.contiguous(new int[] {3, 4});
        View empty = base.shrink(new int[] {1, 2}, new int[] {1, 4});
        assertThat(empty.shape()).containsExactly(0, 2);
        assertThat(empty.size()).isZero();
        View padded = empty.pad(new int[] {1, 0}, new int[] {0, 1}, 4.0);
        assertThat(padded.shape()).containsExactly(1, 3);
        double[] values = read(padded, new double[12], "pad of empty");
        assertThat(values).containsExactly(4.0, 4.0, 4.0);
    }

    @Test
    void flipAndExpandOfPaddedViews() {
        double[] buffer = {1, 2};
        View padded = View.contiguous(new int[] {1, 2}).pad(new int[] {0, 2}, new int[] {0, 1}, -1.0); // [1, 5]
        NdArray model = new NdArray(new int[] {1, 2}, buffer.clone()).pad(new int[] {0, 2}, new int[] {0, 1}, -1.0);
        assertMatches(padded.flip(new boolean[] {true, true}), buffer, model.flip(new boolean[] {true, true}), "flip padded");
        assertMatches(padded.expand(new int[] {3, 5}), buffer, model.expand(3, 5), "expand padded");
        View allPad = View.contiguous(new int[] {1, 2}).pad(new int[] {1, 0}, new int[] {0, 0}, 5.0)
                .shrink(new int[] {0, 0}, new int[] {1, 2}); // only the padded row remains
        assertMatches(allPad.expand(new int[] {3, 2}), buffer,
                new NdArray(new int[] {1, 2}, new double[] {5, 5}).expand(3, 2), "expand of a padding-only unit dim");
    }
}
