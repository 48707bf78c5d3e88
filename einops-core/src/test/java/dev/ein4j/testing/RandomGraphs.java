package dev.ein4j.testing;

import dev.ein4j.ir.DType;
import dev.ein4j.tensor.Ein;
import dev.ein4j.tensor.Generator;
import dev.ein4j.tensor.Reduction;
import dev.ein4j.tensor.Tensor;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.function.IntFunction;

/**
 * Random tensor programs for differential tests: elementwise ops of every type, comparisons,
 * where, casts among the four types, reductions with and without epilogues, contractions, and
 * movement of every kind (views with strides 0, negative strides, masks). The same seed builds the
 * same graph, so one program can be run two ways (fused and not, on two backends) and compared.
 */
public final class RandomGraphs {

    private RandomGraphs() {
    }

    /** A random graph, the same for the same seed; returns its targets. */
    public static List<Tensor> build(long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        List<Tensor> pool = new ArrayList<>();
        int leaves = 2 + random.nextInt(3);
        for (int i = 0; i < leaves; i++) {
            int[] shape = randomShape(random);
            DType dtype = random.nextInt(4) == 0 ? DType.FLOAT64 : DType.FLOAT32;
            Tensor leaf = Tensor.rand(new Generator(seed * 31 + i), dtype, shape).mul(4.0).sub(2.0).realize();
            // the first leaf is host data (an INPUT node), the others computed results
            pool.add(i == 0 ? Tensor.of(leaf.toDoubleArray(), dtype, shape) : leaf);
        }
        int steps = 4 + random.nextInt(12);
        for (int s = 0; s < steps; s++) {
            pool.add(randomOp(random, pool));
        }
        List<Tensor> targets = new ArrayList<>();
        targets.add(pool.get(pool.size() - 1));
        for (int t = random.nextInt(3); t > 0; t--) {
            targets.add(pool.get(leaves + random.nextInt(pool.size() - leaves)));
        }
        return targets;
    }

    private static int[] randomShape(SplittableRandom random) {
        int rank = 1 + random.nextInt(3);
        int[] shape = new int[rank];
        for (int k = 0; k < rank; k++) {
            shape[k] = 1 + random.nextInt(5);
        }
        return shape;
    }

    private static Tensor pick(SplittableRandom random, List<Tensor> pool) {
        return pool.get(random.nextInt(pool.size()));
    }

    private static Tensor randomOp(SplittableRandom random, List<Tensor> pool) {
        Tensor picked = pick(random, pool);
        Tensor x = picked.rank() == 0 ? picked.reshape(1) : picked;
        int rank = x.rank();
        IntFunction<int[]> someAxes = n -> {
            List<Integer> axes = new ArrayList<>();
            for (int k = 0; k < n; k++) {
                if (random.nextBoolean()) {
                    axes.add(k);
                }
            }
            if (axes.isEmpty()) {
                axes.add(random.nextInt(n));
            }
            return axes.stream().mapToInt(Integer::intValue).toArray();
        };
        Tensor floating = x.dtype().isFloating() ? x : x.cast(DType.FLOAT32);
        switch (random.nextInt(24)) {
            case 0:
                return floating.sin().mul(1.5);
            case 1:
                return floating.abs().add(0.25).sqrt().reciprocal();
            case 2: {
                Tensor y = partnerOf(random, pool, x);
                return x.add(y);
            }
            case 3: {
                Tensor y = partnerOf(random, pool, x);
                return x.mul(y).maximum(y);
            }
            case 4: {
                Tensor y = partnerOf(random, pool, x);
                return Tensor.where(floating.gt(y.cast(floating.dtype())), x, y);
            }
            case 5:
                return x.cast(random.nextBoolean() ? DType.INT32 : DType.BOOL).cast(random.nextBoolean() ? DType.FLOAT32 : DType.FLOAT64);
            case 6:
                return x.permute(randomOrder(random, rank));
            case 7:
                return x.flip(someAxes.apply(rank));
            case 8: {
                int axis = random.nextInt(rank);
                int length = x.shape()[axis];
                int from = random.nextInt(length);
                return x.slice(axis, from, from + 1 + random.nextInt(length - from));
            }
            case 9: {
                int[] before = new int[rank];
                int[] after = new int[rank];
                before[random.nextInt(rank)] = random.nextInt(3);
                after[random.nextInt(rank)] = random.nextInt(3);
                return x.pad(before, after, random.nextBoolean() ? 0.0 : -1.5);
            }
            case 10: {
                long size = x.size();
                return x.reshape(random.nextBoolean() ? new int[] {(int) size} : new int[] {1, (int) size, 1});
            }
            case 11: {
                int[] target = x.shape();
                for (int k = 0; k < rank; k++) {
                    if (target[k] == 1) {
                        target[k] = 1 + random.nextInt(4);
                    }
                }
                int[] wider = new int[rank + 1];
                wider[0] = 1 + random.nextInt(3);
                System.arraycopy(target, 0, wider, 1, rank);
                return x.expand(wider);
            }
            case 12: {
                Reduction[] kinds = {Reduction.SUM, Reduction.MAX, Reduction.MIN, Reduction.MEAN, Reduction.PROD};
                Reduction kind = kinds[random.nextInt(kinds.length)];
                return floating.reduce(kind, someAxes.apply(rank), random.nextBoolean());
            }
            case 13: {
                Tensor reduced = floating.reduce(Reduction.SUM, someAxes.apply(rank), true);
                return floating.sub(reduced).exp();
            }
            case 14: {
                Tensor y = pick(random, pool);
                Tensor a = floating.reshape((int) x.size(), 1);
                Tensor b = (y.dtype().isFloating() ? y : y.cast(DType.FLOAT64)).reshape(1, (int) y.size());
                return Ein.einsum("i j, j k -> i k", a, b).add(1.0).sin();
            }
            case 16:
                return floating.abs().add(0.5).log();
            case 17: { // sliding windows along an axis, summed over the window
                int axis = random.nextInt(rank);
                int length = x.shape()[axis];
                int kernel = 1 + random.nextInt(length);
                int stride = 1 + random.nextInt(2);
                int positions = dev.ein4j.ir.WindowArgument.outLength(length, kernel, stride, 1);
                dev.ein4j.ir.WindowArgument window = new dev.ein4j.ir.WindowArgument(axis, positions, kernel, stride, 1);
                Tensor windows = dev.ein4j.tensor.internal.TensorInternals.apply(dev.ein4j.ir.Op.WINDOW, floating.dtype(),
                        window.shapeAfter(floating.shape()), window, floating);
                return windows.sum(new int[] {axis + 1}, false);
            }
            case 18:
                return floating.add(Tensor.arange(x.shape()[rank - 1]).cast(floating.dtype()).mul(0.25));
            case 19: {
                Tensor y = partnerOf(random, pool, x);
                return Tensor.where(floating.eq(y.cast(floating.dtype())), floating, y.cast(floating.dtype()).neg());
            }
            case 20: { // positions along an axis, some repeated
                int axis = random.nextInt(rank);
                int[] shape = x.shape();
                shape[axis] = 1 + random.nextInt(4);
                Tensor index = Tensor.randint(new Generator(random.nextLong()), 0, x.shape()[axis], shape);
                return x.gather(axis, index);
            }
            case 21: { // written or added at positions along an axis
                int axis = random.nextInt(rank);
                int[] shape = x.shape();
                shape[axis] = 1 + random.nextInt(3);
                Tensor index = Tensor.randint(new Generator(random.nextLong()), 0, x.shape()[axis], shape);
                Tensor values = Tensor.rand(new Generator(random.nextLong()), floating.dtype(), shape).sub(0.5);
                return random.nextBoolean() ? floating.scatter(axis, index, values) : floating.scatterAdd(axis, index, values);
            }
            case 22:
                return x.permute(randomOrder(random, rank)).contiguous();
            case 23:
                return floating.detach().mul(2.0).add(floating);
            default: {
                int axis = random.nextInt(rank);
                int length = x.shape()[axis];
                Tensor other = partnerOf(random, pool, x);
                int[] shape = x.shape();
                shape[axis] = length;
                return Ein.einsum(einsumPattern(rank, axis), floating, other.cast(floating.dtype()).expand(x.shape()));
            }
        }
    }

    /** A contraction over one axis of two same-shape operands, keeping the others. */
    private static String einsumPattern(int rank, int axis) {
        String names = "abcdefgh".substring(0, rank);
        String output = names.substring(0, axis) + names.substring(axis + 1);
        return String.join(" ", names.split("")) + ", " + String.join(" ", names.split("")) + " -> "
                + (output.isEmpty() ? "" : String.join(" ", output.split("")));
    }

    /** A tensor of x's shape: an existing one when there is, else a broadcast of something smaller. */
    private static Tensor partnerOf(SplittableRandom random, List<Tensor> pool, Tensor x) {
        List<Tensor> same = pool.stream().filter(t -> Arrays.equals(t.shape(), x.shape())).toList();
        if (!same.isEmpty() && random.nextInt(4) != 0) {
            return same.get(random.nextInt(same.size()));
        }
        int[] shape = x.shape();
        int[] small = shape.clone();
        for (int k = 0; k < small.length; k++) {
            if (random.nextBoolean()) {
                small[k] = 1;
            }
        }
        return Tensor.rand(new Generator(random.nextLong()), DType.FLOAT32, small).sub(0.5).expand(shape);
    }

    private static int[] randomOrder(SplittableRandom random, int rank) {
        int[] order = java.util.stream.IntStream.range(0, rank).toArray();
        for (int k = rank - 1; k > 0; k--) {
            int j = random.nextInt(k + 1);
            int swap = order[k];
            order[k] = order[j];
            order[j] = swap;
        }
        return order;
    }
}
