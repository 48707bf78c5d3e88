package dev.ein4j.nn;

import dev.ein4j.error.EinopsException;
import dev.ein4j.ir.DType;
import dev.ein4j.tensor.Axes;
import dev.ein4j.tensor.Ein;
import dev.ein4j.tensor.Reduction;
import dev.ein4j.tensor.Tensor;
import java.util.Arrays;

/**
 * Adaptive average pooling and interpolation, one spatial axis at a time. Where the sizes allow it
 * an axis is a pattern of its own: a mean over {@code (o k)} for pooling by a whole factor, a
 * {@code repeat} to {@code (i k)} for nearest upsampling by one. Otherwise the axis is contracted
 * with a constant [out, in] matrix holding each output's weights,
 * {@code einsum("... i w, o i -> ... o w")}, which differentiates like any contraction.
 *
 * <p>A matrix row has zeros outside its taps, and 0·∞ is NaN: an infinite or NaN input reaches
 * every output of its row on the matrix path (PyTorch's kernels read only the taps).
 */
final class Resampling {

    private Resampling() {
    }

    /** PyTorch's adaptive_avg_pool2d: output cell i averages input [⌊i·in/out⌋, ⌈(i + 1)·in/out⌉) per axis. */
    static Tensor adaptiveAvgPool2d(Tensor x, int outHeight, int outWidth) {
        Checks.notNull(x, "x");
        String operation = "adaptive_avg_pool2d";
        Checks.rank(x, operation, "input", 3, 4);
        if (!x.dtype().isFloating()) {
            throw Checks.shapeError(operation, "the input must be floating, got " + x.dtype().numpyName(), x);
        }
        if (outHeight < 1 || outWidth < 1) {
            throw Checks.shapeError(operation, "the output size must be positive, got [" + outHeight + ", " + outWidth + "]", x);
        }
        if (x.length(-1) == 0 || x.length(-2) == 0) {
            throw Checks.shapeError(operation, "the spatial dimensions must not be empty", x);
        }
        int[] outputs = {outHeight, outWidth};
        Tensor y = x;
        for (int i = 0; i < 2; i++) {
            int axis = x.rank() - 2 + i;
            int in = x.length(axis);
            int out = outputs[i];
            if (in % out == 0) {
                y = in == out ? y : y.reduce(axisPattern(y.rank(), axis, "(o k)", "o"), Reduction.MEAN, Axes.of("k", in / out));
            } else {
                y = contract(y, axis, averagingMatrix(in, out, y.dtype()), out, in);
            }
        }
        return y;
    }

    /** Rows of 1/count over each bin [⌊o·in/out⌋, ⌈(o + 1)·in/out⌉). */
    private static double[] averagingMatrix(int in, int out, DType dtype) {
        double[] matrix = new double[out * in];
        for (int o = 0; o < out; o++) {
            int start = (int) ((long) o * in / out);
            int end = (int) (((long) (o + 1) * in + out - 1) / out);
            double weight = round(1.0 / (end - start), dtype);
            Arrays.fill(matrix, o * in + start, o * in + end, weight);
        }
        return matrix;
    }

    static Tensor interpolate(Tensor x, InterpolateOptions options) {
        Checks.notNull(x, "x");
        Checks.notNull(options, "options");
        String operation = "interpolate";
        InterpolationMode mode = options.mode();
        int dimensions = x.rank() - 2;
        if (dimensions < 1 || dimensions > 3 || !x.dtype().isFloating()) {
            throw Checks.shapeError(operation, "the input must be a floating tensor [N, C, *spatial] with 1 to 3 spatial"
                    + " dimensions, got " + x.dtype().numpyName() + Arrays.toString(x.shape()), x);
        }
        if (mode.isLinear() && mode.spatialDimensions() != dimensions) {
            throw Checks.shapeError(operation, "mode " + mode.label() + " needs " + (mode.spatialDimensions() + 2)
                    + "-d input, got shape " + Arrays.toString(x.shape()), x);
        }
        if (!mode.isLinear() && options.alignCornersGiven()) {
            throw new EinopsException(operation + ": align_corners can only be set with the linear modes, not "
                    + mode.label());
        }
        int[] spatial = Arrays.copyOfRange(x.shape(), 2, x.rank());
        if (Arrays.stream(spatial).anyMatch(length -> length == 0)) {
            throw Checks.shapeError(operation, "the spatial dimensions must not be empty", x);
        }
        int[] outputs = options.outputSize(spatial, operation);
        double[] scales = options.sourceScales(dimensions, operation);
        Tensor y = x;
        for (int i = 0; i < dimensions; i++) {
            Double scale = scales == null ? null : scales[i];
            y = mode.isLinear() ? linear(y, 2 + i, outputs[i], scale, options.alignsCorners())
                    : nearest(y, 2 + i, outputs[i], scale, mode == InterpolationMode.NEAREST_EXACT);
        }
        return y;
    }

    /** Nearest neighbour along one axis, the source indices computed in float as PyTorch does. */
    private static Tensor nearest(Tensor x, int axis, int out, Double scaleFactor, boolean exact) {
        int in = x.length(axis);
        int[] source = new int[out];
        float scale = scaleFactor != null ? (float) (1.0 / scaleFactor) : (float) in / out;
        for (int o = 0; o < out; o++) {
            if (out == in) {
                source[o] = o;
            } else if (!exact && out == 2 * in) {
                source[o] = o >> 1;
            } else {
                double position = exact ? Math.floor((float) ((o + 0.5) * scale)) : Math.floor(o * scale);
                source[o] = (int) Math.min((long) position, in - 1);
            }
        }
        int factor = out / in;
        if (isRepeat(source, in, factor)) {
            return factor == 1 ? x : x.repeat(axisPattern(x.rank(), axis, "i", "(i k)"), Axes.of("k", factor));
        }
        double[] matrix = new double[out * in];
        for (int o = 0; o < out; o++) {
            matrix[o * in + source[o]] = 1;
        }
        return contract(x, axis, matrix, out, in);
    }

    /** @return whether source[o] = ⌊o / factor⌋ over out = factor · in outputs */
    private static boolean isRepeat(int[] source, int in, int factor) {
        if (factor < 1 || source.length != factor * in) {
            return false;
        }
        for (int o = 0; o < source.length; o++) {
            if (source[o] != o / factor) {
                return false;
            }
        }
        return true;
    }

    /**
     * Linear interpolation along one axis with PyTorch's source index and clamping: for
     * align_corners src = dst·(in − 1)/(out − 1), else max((dst + ½)·scale − ½, 0); index0 =
     * min(⌊src⌋, in − 1), λ = clamp(src − index0, 0, 1), taps index0 and index0 + 1 (index0 at the
     * last input), all in the input's precision (float32 arithmetic for float32 inputs).
     */
    private static Tensor linear(Tensor x, int axis, int out, Double scaleFactor, boolean alignCorners) {
        int in = x.length(axis);
        if (out == in) {
            return x;
        }
        boolean single = x.dtype() != DType.FLOAT64;
        double scale;
        if (alignCorners) {
            scale = out == 1 ? 0 : single ? (float) (in - 1) / (out - 1) : (double) (in - 1) / (out - 1);
        } else if (scaleFactor != null) {
            scale = round(1.0 / scaleFactor, single);
        } else {
            scale = single ? (float) in / out : (double) in / out;
        }
        double[] matrix = new double[out * in];
        for (int o = 0; o < out; o++) {
            double source = alignCorners ? round(scale * o, single) : sourceIndex(scale, o, single);
            int index = (int) Math.min((long) Math.floor((float) source), in - 1);
            double lambda = Math.min(Math.max(round(source - index, single), 0), 1);
            int next = index < in - 1 ? index + 1 : index;
            matrix[o * in + index] += round(1 - lambda, single);
            matrix[o * in + next] += lambda;
        }
        return contract(x, axis, matrix, out, in);
    }

    /** max(scale·(dst + ½) − ½, 0), each step rounded to float in single precision. */
    private static double sourceIndex(double scale, int dst, boolean single) {
        double source = single ? (float) ((float) scale * (dst + 0.5f)) - 0.5f : scale * (dst + 0.5) - 0.5;
        source = round(source, single);
        return source < 0 ? 0 : source;
    }

    private static double round(double value, boolean single) {
        return single ? (float) value : value;
    }

    private static double round(double value, DType dtype) {
        return round(value, dtype != DType.FLOAT64);
    }

    /** einsum("... i rest, o i -> ... o rest") with the constant matrix in x's dtype. */
    private static Tensor contract(Tensor x, int axis, double[] matrix, int out, int in) {
        Tensor weights = Tensor.of(matrix, x.dtype(), out, in);
        String[] sides = axisPattern(x.rank(), axis, "i", "o").split(" -> ");
        return Ein.einsum(sides[0] + ", o i -> " + sides[1], x, weights);
    }

    /** e.g. {@code "... i t1 -> ... o t1"}: the axis written as given on each side, the later axes named. */
    private static String axisPattern(int rank, int axis, String input, String output) {
        StringBuilder rest = new StringBuilder();
        for (int k = axis + 1; k < rank; k++) {
            rest.append(" t").append(k);
        }
        return "... " + input + rest + " -> ... " + output + rest;
    }
}
