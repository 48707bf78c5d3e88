package dev.ein4j.nn;

import dev.ein4j.error.EinopsException;
import dev.ein4j.ir.DType;
import dev.ein4j.tensor.Axes;
import dev.ein4j.tensor.Reduction;
import dev.ein4j.tensor.Tensor;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

/**
 * Max and average pooling as reductions over window axes: 2×2 max pooling with stride 2 is
 * {@code reduce("... (2*h + kh) (2*w + kw) -> ... h w", max)}, after padding with the reduction's
 * identity (−∞ for max, zero for the sum of an average).
 */
final class Pooling {

    private static final String[][] SPATIAL = {{}, {"l"}, {"h", "w"}, {"d", "h", "w"}};

    private Pooling() {
    }

    /**
     * The window maximum. When gradients flow, the maximum is taken as the window element at the
     * first (row-major) maximal position, so that, as in PyTorch, a tie sends the whole gradient to
     * one element rather than splitting it; the values are the same either way.
     */
    static Tensor maxPool(Tensor x, PoolingOptions options, int dimensions) {
        Geometry geometry = Geometry.of(x, options, dimensions, "max_pool" + dimensions + "d", true);
        Tensor padded = Convolution.pad(geometry.batched(x), geometry.padding, Double.NEGATIVE_INFINITY);
        Tensor y = x.requiresGrad() ? firstMaximum(padded, geometry)
                : padded.reduce(geometry.pattern(), Reduction.MAX, geometry.kernelAxes());
        return geometry.unbatched(y);
    }

    static Tensor avgPool(Tensor x, PoolingOptions options, int dimensions) {
        String operation = "avg_pool" + dimensions + "d";
        Geometry geometry = Geometry.of(x, options, dimensions, operation, false);
        if (Arrays.stream(geometry.dilation).anyMatch(d -> d != 1)) {
            throw new EinopsException(operation + " has no dilation; got " + Arrays.toString(geometry.dilation));
        }
        Tensor padded = Convolution.pad(geometry.batched(x), geometry.padding, 0.0);
        Tensor sums = padded.reduce(geometry.pattern(), Reduction.SUM, geometry.kernelAxes());
        Tensor y;
        if (options.divisorOverride() > 0) {
            y = sums.div(options.divisorOverride());
        } else if (options.countIncludePad()) {
            y = sums.div(Arrays.stream(geometry.kernel).asLongStream().reduce(1, (a, b) -> a * b));
        } else {
            y = sums.div(counts(geometry, x.dtype()));
        }
        return geometry.unbatched(y);
    }

    /** How many input (not padding) elements each window covers: a window sum over padded ones. */
    private static Tensor counts(Geometry geometry, DType dtype) {
        int[] spatial = geometry.spatialShape;
        Tensor ones = Tensor.ones(dtype, spatial);
        Tensor padded = Convolution.pad(ones, geometry.padding, 0.0);
        String pattern = geometry.pattern().replace("... ", "");
        return padded.reduce(pattern, Reduction.SUM, geometry.kernelAxes());
    }

    /**
     * Σ over the window of where(is first maximum, x, 0), the first maximum found one kernel axis at
     * a time from the last: the first maximum of the window is at k1 = argmax over k1 of the
     * maxima over the later axes, then k2 = the argmax over k2 given that k1, and so on.
     */
    private static Tensor firstMaximum(Tensor padded, Geometry geometry) {
        int n = geometry.kernel.length;
        Tensor windows = padded.rearrange(geometry.unfoldPattern(), geometry.kernelAxes());
        int rank = windows.rank();
        Tensor mask = null;
        Tensor maxima = windows;
        for (int j = n - 1; j >= 0; j--) {
            int axis = rank - n + j;
            Tensor index = maxima.argmax(axis, true);
            int[] positions = new int[n - j];
            Arrays.fill(positions, 1);
            positions[0] = geometry.kernel[j];
            Tensor here = index.eq(Tensor.arange(geometry.kernel[j]).reshape(positions));
            mask = mask == null ? here : mask.logicalAnd(here);
            maxima = maxima.max(new int[] {axis}, true);
        }
        Tensor picked = Tensor.where(mask, windows, Tensor.scalar(0.0, windows.dtype()));
        return picked.sum(Checks.range(rank - n, rank));
    }

    /** Window sizes, strides, padding and the patterns of one pooling call, after the checks. */
    private record Geometry(int[] kernel, int[] stride, int[][] padding, int[] dilation, int[] spatialShape,
            boolean unbatchedInput, String[] names) {

        static Geometry of(Tensor x, PoolingOptions options, int dimensions, String operation, boolean dilated) {
            Checks.notNull(x, "x");
            Checks.notNull(options, "options");
            Checks.rank(x, operation, "input", dimensions + 1, dimensions + 2);
            int[] kernel = options.kernel(dimensions, operation);
            int[] stride = options.stride(dimensions, operation);
            int[] pad = options.padding(dimensions, operation);
            int[] dilation = options.dilation(dimensions, operation);
            int[] spatial = Arrays.copyOfRange(x.shape(), x.rank() - dimensions, x.rank());
            for (int i = 0; i < dimensions; i++) {
                long span = (long) dilation[i] * (kernel[i] - 1) + 1;
                long limit = dilated ? span / 2 : kernel[i] / 2;
                if (pad[i] > limit) {
                    throw new EinopsException(operation + ": padding " + pad[i] + " must be at most half the kernel ("
                            + limit + " for kernel " + kernel[i] + (dilated ? ", dilation " + dilation[i] : "") + ")");
                }
                long padded = (long) spatial[i] + 2L * pad[i];
                if (span > padded) {
                    throw Checks.shapeError(operation, "the window spans " + span + " elements in spatial dimension " + i
                            + " but the padded input has length " + padded + " (input " + spatial[i] + ", padding "
                            + pad[i] + ")", x);
                }
            }
            return new Geometry(kernel, stride, new int[][] {pad, pad.clone()}, dilation, spatial,
                    x.rank() == dimensions + 1, SPATIAL[dimensions]);
        }

        Tensor batched(Tensor x) {
            return unbatchedInput ? x.rearrange("c ... -> 1 c ...") : x;
        }

        Tensor unbatched(Tensor y) {
            return unbatchedInput ? y.rearrange("1 c ... -> c ...") : y;
        }

        /** e.g. {@code "... (2*h + kh) (2*w + kw) -> ... h w"} */
        String pattern() {
            return windowSide() + " -> ..." + outputs("");
        }

        /** e.g. {@code "... (2*h + kh) (2*w + kw) -> ... h w kh kw"} */
        String unfoldPattern() {
            return windowSide() + " -> ..." + outputs("") + outputs("k");
        }

        private String windowSide() {
            StringBuilder side = new StringBuilder("...");
            for (int i = 0; i < names.length; i++) {
                side.append(' ').append(WindowTerms.term(names[i], stride[i], dilation[i]));
            }
            return side.toString();
        }

        private String outputs(String prefix) {
            StringBuilder text = new StringBuilder();
            for (String name : names) {
                text.append(' ').append(prefix).append(name);
            }
            return text.toString();
        }

        Axes kernelAxes() {
            Map<String, Integer> lengths = new HashMap<>();
            for (int i = 0; i < names.length; i++) {
                lengths.put("k" + names[i], kernel[i]);
            }
            return Axes.from(lengths);
        }
    }
}
