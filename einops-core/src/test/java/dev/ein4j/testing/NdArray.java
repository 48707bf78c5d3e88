package dev.ein4j.testing;

import java.util.Arrays;
import java.util.SplittableRandom;

/**
 * An independent, deliberately naive n-dimensional array for test oracles: a shape and a row-major
 * {@code double[]}. Every operation materialises a fresh array with plain loops over multi-indices;
 * nothing here uses ein4j code.
 */
public final class NdArray {

    public final int[] shape;
    public final double[] data;

    public NdArray(int[] shape, double[] data) {
        if (size(shape) != data.length) {
            throw new IllegalArgumentException(Arrays.toString(shape) + " vs " + data.length);
        }
        this.shape = shape.clone();
        this.data = data;
    }

    public static NdArray random(SplittableRandom random, int[] shape, double low, double high) {
        double[] data = new double[size(shape)];
        for (int i = 0; i < data.length; i++) {
            data[i] = low + (high - low) * random.nextDouble();
        }
        return new NdArray(shape, data);
    }

    public static int size(int[] shape) {
        int size = 1;
        for (int length : shape) {
            size *= length;
        }
        return size;
    }

    public int size() {
        return data.length;
    }

    public int rank() {
        return shape.length;
    }

    public static int[] unravel(int flat, int[] shape) {
        int[] index = new int[shape.length];
        for (int k = shape.length - 1; k >= 0; k--) {
            index[k] = flat % shape[k];
            flat /= shape[k];
        }
        return index;
    }

    public static int ravel(int[] index, int[] shape) {
        int flat = 0;
        for (int k = 0; k < shape.length; k++) {
            flat = flat * shape[k] + index[k];
        }
        return flat;
    }

    public double get(int... index) {
        return data[ravel(index, shape)];
    }

    // ------------------------------------------------------------------ movement

    public NdArray reshape(int... newShape) {
        return new NdArray(newShape, data.clone());
    }

    public NdArray permute(int... order) {
        int[] newShape = new int[order.length];
        for (int k = 0; k < order.length; k++) {
            newShape[k] = shape[order[k]];
        }
        double[] out = new double[data.length];
        for (int flat = 0; flat < out.length; flat++) {
            int[] index = unravel(flat, newShape);
            int[] source = new int[shape.length];
            for (int k = 0; k < order.length; k++) {
                source[order[k]] = index[k];
            }
            out[flat] = get(source);
        }
        return new NdArray(newShape, out);
    }

    /** Same rank; length-1 dimensions stretched. */
    public NdArray expand(int... newShape) {
        double[] out = new double[size(newShape)];
        for (int flat = 0; flat < out.length; flat++) {
            int[] index = unravel(flat, newShape);
            for (int k = 0; k < index.length; k++) {
                if (shape[k] == 1) {
                    index[k] = 0;
                }
            }
            out[flat] = get(index);
        }
        return new NdArray(newShape, out);
    }

    /** numpy broadcast_to (leading dimensions added). */
    public NdArray broadcastTo(int... target) {
        int[] padded = new int[target.length];
        Arrays.fill(padded, 1);
        System.arraycopy(shape, 0, padded, target.length - shape.length, shape.length);
        return reshape(padded).expand(target);
    }

    public NdArray shrink(int[] starts, int[] ends) {
        int[] newShape = new int[shape.length];
        for (int k = 0; k < shape.length; k++) {
            newShape[k] = ends[k] - starts[k];
        }
        double[] out = new double[size(newShape)];
        for (int flat = 0; flat < out.length; flat++) {
            int[] index = unravel(flat, newShape);
            for (int k = 0; k < index.length; k++) {
                index[k] += starts[k];
            }
            out[flat] = get(index);
        }
        return new NdArray(newShape, out);
    }

    public NdArray flip(boolean[] axes) {
        double[] out = new double[data.length];
        for (int flat = 0; flat < out.length; flat++) {
            int[] index = unravel(flat, shape);
            for (int k = 0; k < index.length; k++) {
                if (axes[k]) {
                    index[k] = shape[k] - 1 - index[k];
                }
            }
            out[flat] = get(index);
        }
        return new NdArray(shape, out);
    }

    public NdArray pad(int[] before, int[] after, double fill) {
        int[] newShape = new int[shape.length];
        for (int k = 0; k < shape.length; k++) {
            newShape[k] = shape[k] + before[k] + after[k];
        }
        double[] out = new double[size(newShape)];
        for (int flat = 0; flat < out.length; flat++) {
            int[] index = unravel(flat, newShape);
            boolean inside = true;
            for (int k = 0; k < index.length; k++) {
                index[k] -= before[k];
                inside &= index[k] >= 0 && index[k] < shape[k];
            }
            out[flat] = inside ? get(index) : fill;
        }
        return new NdArray(newShape, out);
    }

    /** Concatenation along one axis. */
    public static NdArray concat(int axis, NdArray... parts) {
        int[] newShape = parts[0].shape.clone();
        newShape[axis] = 0;
        for (NdArray part : parts) {
            newShape[axis] += part.shape[axis];
        }
        double[] out = new double[size(newShape)];
        for (int flat = 0; flat < out.length; flat++) {
            int[] index = unravel(flat, newShape);
            int position = index[axis];
            for (NdArray part : parts) {
                if (position < part.shape[axis]) {
                    index[axis] = position;
                    out[flat] = part.get(index);
                    break;
                }
                position -= part.shape[axis];
            }
        }
        return new NdArray(newShape, out);
    }

    // ------------------------------------------------------------------ reductions

    public enum Kind { SUM, MEAN, MAX, MIN, PROD }

    /** Reduction over the given (non-negative, distinct) axes, which stay as length 1. */
    public NdArray reduceKeep(Kind kind, int... axes) {
        int[] newShape = shape.clone();
        boolean[] reduced = new boolean[shape.length];
        for (int axis : axes) {
            reduced[axis] = true;
            newShape[axis] = 1;
        }
        int outSize = size(newShape);
        double[] acc = new double[outSize];
        long[] count = new long[outSize];
        double initial = switch (kind) {
            case SUM, MEAN -> 0.0;
            case MAX -> Double.NEGATIVE_INFINITY;
            case MIN -> Double.POSITIVE_INFINITY;
            case PROD -> 1.0;
        };
        Arrays.fill(acc, initial);
        boolean[] nan = new boolean[outSize];
        for (int flat = 0; flat < data.length; flat++) {
            int[] index = unravel(flat, shape);
            for (int k = 0; k < index.length; k++) {
                if (reduced[k]) {
                    index[k] = 0;
                }
            }
            int target = ravel(index, newShape);
            double x = data[flat];
            count[target]++;
            if (Double.isNaN(x)) {
                nan[target] = true;
            }
            acc[target] = switch (kind) {
                case SUM, MEAN -> acc[target] + x;
                case MAX -> Math.max(acc[target], x);
                case MIN -> Math.min(acc[target], x);
                case PROD -> acc[target] * x;
            };
        }
        for (int i = 0; i < outSize; i++) {
            if (kind == Kind.MEAN) {
                acc[i] = count[i] == 0 ? Double.NaN : acc[i] / count[i];
            }
            if (nan[i]) {
                acc[i] = Double.NaN;
            }
        }
        if (outSize > 0 && data.length == 0 && kind == Kind.MEAN) {
            Arrays.fill(acc, Double.NaN);
        }
        return new NdArray(newShape, acc);
    }

    /** Removes the given axes (which must have length 1). */
    public NdArray dropAxes(int... axes) {
        int[] kept = java.util.stream.IntStream.range(0, shape.length)
                .filter(k -> Arrays.stream(axes).noneMatch(a -> a == k)).map(k -> shape[k]).toArray();
        return reshape(kept);
    }

    @Override
    public String toString() {
        return Arrays.toString(shape) + " " + Arrays.toString(data);
    }
}
