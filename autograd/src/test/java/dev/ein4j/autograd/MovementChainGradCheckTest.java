package dev.ein4j.autograd;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ein4j.tensor.Tensor;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;

/**
 * Random chains of movement primitives (reshape, permute, expand, pad, shrink, flip, contiguous),
 * seeded, each followed by a smooth nonlinearity: their gradients compose views over views with
 * masks, which the runtime resolves without copies.
 */
class MovementChainGradCheckTest {

    private record Step(String name, UnaryOperator<Tensor> op, int[] shapeAfter) {
    }

    /** A random movement step applicable to the shape, and the shape after it. */
    private static Step randomStep(SplittableRandom random, int[] shape) {
        int rank = shape.length;
        int size = Arrays.stream(shape).reduce(1, (a, b) -> a * b);
        switch (random.nextInt(7)) {
            case 0 -> { // permute
                int[] order = java.util.stream.IntStream.range(0, rank).toArray();
                for (int i = rank - 1; i > 0; i--) {
                    int j = random.nextInt(i + 1);
                    int swap = order[i];
                    order[i] = order[j];
                    order[j] = swap;
                }
                int[] after = new int[rank];
                for (int k = 0; k < rank; k++) {
                    after[k] = shape[order[k]];
                }
                return new Step("permute" + Arrays.toString(order), t -> t.permute(order), after);
            }
            case 1 -> { // pad
                int[] before = new int[rank];
                int[] afterPad = new int[rank];
                int axis = random.nextInt(rank);
                before[axis] = random.nextInt(2);
                afterPad[axis] = 1;
                double fill = random.nextDouble() - 0.5;
                int[] after = shape.clone();
                after[axis] += before[axis] + 1;
                if (size / shape[axis] * after[axis] > 60) {
                    return new Step("flip[0]", t -> t.flip(0), shape);
                }
                return new Step("pad" + Arrays.toString(before) + Arrays.toString(afterPad),
                        t -> t.pad(before, afterPad, fill), after);
            }
            case 2 -> { // shrink
                int axis = random.nextInt(rank);
                if (shape[axis] < 2) {
                    return new Step("flip[" + axis + "]", t -> t.flip(axis), shape);
                }
                int start = random.nextInt(shape[axis] - 1);
                int end = start + 1 + random.nextInt(shape[axis] - start - 1) + (random.nextBoolean() ? 1 : 0);
                int clamped = Math.min(end, shape[axis]);
                int[] starts = new int[rank];
                int[] ends = shape.clone();
                starts[axis] = start;
                ends[axis] = clamped;
                int[] after = shape.clone();
                after[axis] = clamped - start;
                return new Step("shrink" + Arrays.toString(starts) + Arrays.toString(ends), t -> t.shrink(starts, ends), after);
            }
            case 3 -> { // flip
                int axis = random.nextInt(rank);
                return new Step("flip[" + axis + "]", t -> t.flip(axis), shape);
            }
            case 4 -> { // expand a new leading axis, then reduce it away later via the nonlinearity's sum? keep it: small
                if (size * 2 > 60 || rank >= 4) {
                    return new Step("contiguous", Tensor::contiguous, shape);
                }
                int[] after = new int[rank + 1];
                after[0] = 2;
                System.arraycopy(shape, 0, after, 1, rank);
                return new Step("expand to " + Arrays.toString(after), t -> t.expand(after), after);
            }
            case 5 -> { // reshape: merge two adjacent axes, or split one
                if (rank >= 2 && random.nextBoolean()) {
                    int axis = random.nextInt(rank - 1);
                    int[] after = new int[rank - 1];
                    for (int k = 0, j = 0; k < rank; k++) {
                        if (k == axis + 1) {
                            after[j - 1] *= shape[k];
                        } else {
                            after[j++] = shape[k];
                        }
                    }
                    return new Step("reshape " + Arrays.toString(after), t -> t.reshape(after), after);
                }
                int axis = random.nextInt(rank);
                if (shape[axis] % 2 != 0 || rank >= 4) {
                    int[] after = new int[rank + 1];
                    System.arraycopy(shape, 0, after, 0, rank);
                    after[rank] = 1;
                    return new Step("reshape " + Arrays.toString(after), t -> t.reshape(after), after);
                }
                int[] after = new int[rank + 1];
                for (int k = 0, j = 0; k < rank; k++) {
                    if (k == axis) {
                        after[j++] = 2;
                        after[j++] = shape[k] / 2;
                    } else {
                        after[j++] = shape[k];
                    }
                }
                return new Step("reshape " + Arrays.toString(after), t -> t.reshape(after), after);
            }
            default -> {
                return new Step("contiguous", Tensor::contiguous, shape);
            }
        }
    }

    @Test
    void randomMovementChains() {
        SplittableRandom random = new SplittableRandom(301);
        for (int chain = 0; chain < 60; chain++) {
            int[] start = GradTesting.randomShape(random, 1 + random.nextInt(3), 4);
            int[] shape = start;
            List<Step> steps = new ArrayList<>();
            for (int s = 0; s < 2 + random.nextInt(5); s++) {
                Step step = randomStep(random, shape);
                steps.add(step);
                shape = step.shapeAfter();
            }
            int[] end = shape;
            String description = Arrays.toString(start) + " " + steps.stream().map(Step::name).toList();
            boolean interleaved = chain % 2 == 0;
            Tensor result = apply(steps, GradTesting.input(chain, start), interleaved);
            assertThat(result.shape()).as("shape after %s", description).containsExactly(end);
            GradTesting.assertGradients(description + (interleaved ? " with nonlinearities between" : " as pure views"),
                    in -> apply(steps, in.get(0), interleaved), GradTesting.input(chain, start));
        }
    }

    private static Tensor apply(List<Step> steps, Tensor x, boolean interleaved) {
        Tensor result = x;
        for (int i = 0; i < steps.size(); i++) {
            result = steps.get(i).op().apply(result);
            if (interleaved && i % 2 == 1) {
                result = result.mul(result.sin()); // nonlinear between the views
            }
        }
        return result.sin();
    }
}
