package dev.ein4j.nn;

import dev.ein4j.error.EinopsException;
import dev.ein4j.tensor.Axes;
import dev.ein4j.tensor.Ein;
import dev.ein4j.tensor.Tensor;
import java.util.Arrays;

/**
 * Transposed convolution (PyTorch's conv_transpose) as a convolution of the spread input: each
 * spatial axis gets stride − 1 zeros between its elements (a pad of a unit axis and a reshape),
 * then d·(k − 1) − padding zeros before and that plus output_padding after (cut where negative),
 * then one windowed einsum with the kernel flipped and its channel roles swapped,
 * {@code "b (g c) (h + d*kh) (w + d*kw), (g c) o kh kw -> b (g o) h w"}. Output length
 * (L − 1)·s − 2p + d(k − 1) + output_padding + 1. Gradients follow from the movement ops and the
 * windowed contraction.
 */
final class ConvTranspose {

    private static final String[][] SPATIAL = {{}, {"l"}, {"h", "w"}, {"d", "h", "w"}};

    private ConvTranspose() {
    }

    static Tensor convolve(Tensor x, Tensor weight, Tensor bias, ConvTransposeOptions options, int dimensions) {
        String operation = "conv_transpose" + dimensions + "d";
        Checks.notNull(x, "x");
        Checks.notNull(weight, "weight");
        Checks.notNull(options, "options");
        Checks.rank(weight, operation, "weight", dimensions + 2);
        Checks.rank(x, operation, "input", dimensions + 1, dimensions + 2);
        boolean unbatched = x.rank() == dimensions + 1;
        Tensor batched = unbatched ? x.rearrange("c ... -> 1 c ...") : x;
        int groups = options.groups();
        checkChannels(batched, weight, bias, groups, operation);
        int[] stride = options.stride(dimensions, operation);
        int[] padding = options.padding(dimensions, operation);
        int[] outputPadding = options.outputPadding(dimensions, operation);
        int[] dilation = options.dilation(dimensions, operation);
        int[] kernel = Arrays.copyOfRange(weight.shape(), 2, weight.rank());
        Tensor spread = batched;
        for (int i = 0; i < dimensions; i++) {
            if (outputPadding[i] >= Math.max(stride[i], dilation[i])) {
                throw new EinopsException(operation + ": output_padding " + Arrays.toString(outputPadding)
                        + " must be smaller than either stride " + Arrays.toString(stride) + " or dilation "
                        + Arrays.toString(dilation));
            }
            int axis = 2 + i;
            int margin = dilation[i] * (kernel[i] - 1) - padding[i];
            spread = padOrCut(spread(spread, axis, stride[i]), axis, margin, margin + outputPadding[i]);
            long outputLength = (long) spread.length(axis) - (long) dilation[i] * (kernel[i] - 1);
            if (outputLength < 1) {
                throw Checks.shapeError(operation, "the output length of spatial dimension " + i + " would be "
                        + outputLength + " (input " + batched.length(axis) + ", stride " + stride[i] + ", padding "
                        + padding[i] + ", dilation " + dilation[i] + ", kernel " + kernel[i] + ", output padding "
                        + outputPadding[i] + ")", x, weight);
            }
        }
        Axes axes = groups == 1 ? Axes.none() : Axes.of("g", groups);
        Tensor flipped = weight.flip(Checks.range(2, weight.rank()));
        Tensor y = Ein.einsum(pattern(dimensions, dilation, groups), axes, spread, flipped);
        if (bias != null) {
            y = y.add(bias.rearrange("o -> o" + " 1".repeat(dimensions)));
        }
        return unbatched ? y.rearrange("1 o ... -> o ...") : y;
    }

    /** e.g. {@code "b (g c) (h + 2*kh) (w + 2*kw), (g c) o kh kw -> b (g o) h w"} */
    private static String pattern(int dimensions, int[] dilation, int groups) {
        String[] names = SPATIAL[dimensions];
        StringBuilder input = new StringBuilder(groups == 1 ? "b c" : "b (g c)");
        StringBuilder kernel = new StringBuilder(groups == 1 ? "c o" : "(g c) o");
        StringBuilder output = new StringBuilder(groups == 1 ? "b o" : "b (g o)");
        for (int i = 0; i < dimensions; i++) {
            input.append(' ').append(WindowTerms.term(names[i], 1, dilation[i]));
            kernel.append(" k").append(names[i]);
            output.append(' ').append(names[i]);
        }
        return input + ", " + kernel + " -> " + output;
    }

    /** stride − 1 zeros between the elements along an axis: length (L − 1)·stride + 1. */
    private static Tensor spread(Tensor x, int axis, int stride) {
        if (stride == 1 || x.length(axis) == 0) {
            return x;
        }
        int[] before = new int[x.rank() + 1];
        int[] after = new int[x.rank() + 1];
        after[axis + 1] = stride - 1;
        int[] shape = x.shape();
        shape[axis] *= stride;
        return x.unsqueeze(axis + 1).pad(before, after, 0.0).reshape(shape).slice(axis, 0, (x.length(axis) - 1) * stride + 1);
    }

    /** Zeros before and after along an axis; a negative count cuts that many elements instead. */
    private static Tensor padOrCut(Tensor x, int axis, int before, int after) {
        int[] padBefore = new int[x.rank()];
        int[] padAfter = new int[x.rank()];
        padBefore[axis] = Math.max(before, 0);
        padAfter[axis] = Math.max(after, 0);
        Tensor padded = before > 0 || after > 0 ? x.pad(padBefore, padAfter, 0.0) : x;
        int start = Math.max(-before, 0);
        int end = padded.length(axis) - Math.max(-after, 0);
        return start == 0 && end == padded.length(axis) ? padded : padded.slice(axis, start, Math.max(start, end));
    }

    private static void checkChannels(Tensor x, Tensor weight, Tensor bias, int groups, String operation) {
        int channels = x.length(1);
        if (channels != weight.length(0)) {
            throw Checks.shapeError(operation, "the input has " + channels + " channels, but the weight [in, out / groups,"
                    + " *kernel] " + Arrays.toString(weight.shape()) + " expects " + weight.length(0), x, weight);
        }
        if (channels % groups != 0) {
            throw Checks.shapeError(operation, groups + " groups must divide the input channels (" + channels + ")", x,
                    weight);
        }
        int outputs = weight.length(1) * groups;
        if (bias != null && (bias.rank() != 1 || bias.length(0) != outputs)) {
            throw Checks.shapeError(operation, "bias must have shape [" + outputs + "] (out / groups × groups), got "
                    + Arrays.toString(bias.shape()), weight, bias);
        }
    }
}
