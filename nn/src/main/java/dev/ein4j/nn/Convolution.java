package dev.ein4j.nn;

import dev.ein4j.tensor.Axes;
import dev.ein4j.tensor.Ein;
import dev.ein4j.tensor.Tensor;
import java.util.Arrays;

/**
 * N-dimensional convolution as one einsum with window axes. For conv2d with stride 2, dilation 1
 * and two groups the pattern is
 * {@code "b (g c) (2*h + kh) (2*w + kw), (g o) c kh kw -> b (g o) h w"}: every output position
 * {@code h} reads input rows {@code 2h + kh}. Padding is an explicit zero {@code pad} before it.
 */
final class Convolution {

    /** Names of the spatial axes by dimension count; the kernel axes are these prefixed with k. */
    private static final String[][] SPATIAL = {{}, {"l"}, {"h", "w"}, {"d", "h", "w"}};

    private Convolution() {
    }

    static Tensor convolve(Tensor x, Tensor weight, Tensor bias, ConvolutionOptions options, int dimensions) {
        String operation = "conv" + dimensions + "d";
        Checks.notNull(x, "x");
        Checks.notNull(weight, "weight");
        Checks.notNull(options, "options");
        Tensor batched = batchedInput(x, weight, dimensions, operation);
        int groups = options.groups();
        checkChannels(batched, weight, bias, groups, operation);
        int[] stride = options.stride(dimensions, operation);
        int[] dilation = options.dilation(dimensions, operation);
        int[] kernel = Arrays.copyOfRange(weight.shape(), 2, weight.rank());
        Tensor padded = pad(batched, padding(options, kernel, stride, dilation, operation), 0.0);
        checkWindows(padded, weight, kernel, dilation, operation);
        Axes axes = groups == 1 ? Axes.none() : Axes.of("g", groups);
        Tensor y = Ein.einsum(pattern(dimensions, stride, dilation, groups, false), axes, padded, weight);
        return withBiasAndBatch(y, bias, x, dimensions);
    }

    /**
     * Checks the ranks of x [N, C, *spatial] (or [C, *spatial]) and of the weight [., ., *kernel].
     *
     * @return x with its batch axis
     */
    static Tensor batchedInput(Tensor x, Tensor weight, int dimensions, String operation) {
        Checks.rank(weight, operation, "weight", dimensions + 2);
        Checks.rank(x, operation, "input", dimensions + 1, dimensions + 2);
        return x.rank() == dimensions + 1 ? x.rearrange("c ... -> 1 c ...") : x;
    }

    /** y [N, O, *spatial] plus the bias per output channel, without the batch axis if x had none. */
    static Tensor withBiasAndBatch(Tensor y, Tensor bias, Tensor x, int dimensions) {
        Tensor biased = bias == null ? y : y.add(bias.rearrange("o -> o" + " 1".repeat(dimensions)));
        return x.rank() == dimensions + 1 ? biased.rearrange("1 o ... -> o ...") : biased;
    }

    /**
     * The einsum pattern, e.g. {@code "b (g c) (2*h + kh) (w + 2*kw), (g o) c kh kw -> b (g o) h w"};
     * a transposed convolution's weight is laid out {@code (g c) o kh kw}.
     */
    static String pattern(int dimensions, int[] stride, int[] dilation, int groups, boolean transposedWeight) {
        String[] names = SPATIAL[dimensions];
        StringBuilder input = new StringBuilder(groups == 1 ? "b c" : "b (g c)");
        String channels = transposedWeight ? (groups == 1 ? "c o" : "(g c) o") : (groups == 1 ? "o c" : "(g o) c");
        StringBuilder kernel = new StringBuilder(channels);
        StringBuilder output = new StringBuilder(groups == 1 ? "b o" : "b (g o)");
        for (int i = 0; i < dimensions; i++) {
            input.append(' ').append(WindowTerms.term(names[i], stride[i], dilation[i]));
            kernel.append(" k").append(names[i]);
            output.append(' ').append(names[i]);
        }
        return input + ", " + kernel + " -> " + output;
    }

    private static void checkChannels(Tensor x, Tensor weight, Tensor bias, int groups, String operation) {
        int channels = x.length(1);
        int outputs = weight.length(0);
        if (channels % groups != 0 || outputs % groups != 0) {
            throw Checks.shapeError(operation, groups + " groups must divide the input channels (" + channels
                    + ") and the output channels (" + outputs + ")", x, weight);
        }
        if (channels != weight.length(1) * groups) {
            throw Checks.shapeError(operation, "the input has " + channels + " channels, but the weight expects "
                    + weight.length(1) + " per group × " + groups + (groups == 1 ? " group" : " groups")
                    + " (weight shape " + Arrays.toString(weight.shape()) + ")", x, weight);
        }
        if (bias != null && (bias.rank() != 1 || bias.length(0) != outputs)) {
            throw Checks.shapeError(operation, "bias must have shape [" + outputs + "], got "
                    + Arrays.toString(bias.shape()), weight, bias);
        }
    }

    /** Padding per spatial dimension as {before, after}; "same" splits d·(k−1) with the extra after. */
    private static int[][] padding(ConvolutionOptions options, int[] kernel, int[] stride, int[] dilation, String operation) {
        int dimensions = kernel.length;
        int[][] padding = new int[2][dimensions];
        if (!options.isSamePadding()) {
            int[] symmetric = options.padding(dimensions, operation);
            padding[0] = symmetric;
            padding[1] = symmetric.clone();
            return padding;
        }
        for (int i = 0; i < dimensions; i++) {
            if (stride[i] != 1) {
                throw new dev.ein4j.error.EinopsException(operation + ": padding \"same\" needs stride 1, got "
                        + Arrays.toString(stride));
            }
            int total = dilation[i] * (kernel[i] - 1);
            padding[0][i] = total / 2;
            padding[1][i] = total - total / 2;
        }
        return padding;
    }

    /** Pads the trailing (spatial) dimensions of x. */
    static Tensor pad(Tensor x, int[][] padding, double value) {
        int spatial = padding[0].length;
        int[] before = new int[x.rank()];
        int[] after = new int[x.rank()];
        System.arraycopy(padding[0], 0, before, x.rank() - spatial, spatial);
        System.arraycopy(padding[1], 0, after, x.rank() - spatial, spatial);
        return x.pad(before, after, value);
    }

    private static void checkWindows(Tensor padded, Tensor weight, int[] kernel, int[] dilation, String operation) {
        int spatial = kernel.length;
        for (int i = 0; i < spatial; i++) {
            long span = (long) dilation[i] * (kernel[i] - 1) + 1;
            int length = padded.length(padded.rank() - spatial + i);
            if (span > length) {
                throw Checks.shapeError(operation, "the kernel spans " + span + " elements in spatial dimension " + i
                        + " (kernel " + kernel[i] + ", dilation " + dilation[i] + ") but the padded input has length "
                        + length, padded, weight);
            }
        }
    }
}
