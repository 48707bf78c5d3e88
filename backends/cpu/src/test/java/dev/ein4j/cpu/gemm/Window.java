package dev.ein4j.cpu.gemm;

import java.util.Random;

/**
 * A convolution's operands as GEMM offset tables, the way the einsum lowering addresses them: the input
 * (already padded) read through a window view, rows = output positions (n, oh, ow), columns = taps, with
 * the taps (c, kh, kw) for channels-first or (kh, kw, c) for channels-last, strided, dilated or flipped
 * (the input gradient reads its window backwards). Groups are the batch of the product.
 */
final class Window {

    final int batchSize;
    final int channels;
    final int height;
    final int width;
    final int kernelHeight;
    final int kernelWidth;
    final int stride;
    final int dilation;
    final boolean channelsLast;
    final boolean flipped;
    final int groups;

    Window(int batchSize, int channels, int height, int width, int kernelHeight, int kernelWidth, int stride,
            int dilation, boolean channelsLast, boolean flipped, int groups) {
        this.batchSize = batchSize;
        this.channels = channels;
        this.height = height;
        this.width = width;
        this.kernelHeight = kernelHeight;
        this.kernelWidth = kernelWidth;
        this.stride = stride;
        this.dilation = dilation;
        this.channelsLast = channelsLast;
        this.flipped = flipped;
        this.groups = groups;
    }

    /** A random window over an input of at most about {@code maxSide} per side. */
    static Window random(Random random, int maxChannels, int maxSide) {
        int kernelHeight = 1 + random.nextInt(3);
        int kernelWidth = new int[] {1, 2, 3, 5}[random.nextInt(4)];
        int stride = 1 + random.nextInt(2);
        int dilation = random.nextInt(4) == 0 ? 2 : 1;
        int height = (kernelHeight - 1) * dilation + 1 + random.nextInt(maxSide);
        int width = (kernelWidth - 1) * dilation + 1 + random.nextInt(maxSide);
        return new Window(1 + random.nextInt(2), 1 + random.nextInt(maxChannels), height, width, kernelHeight,
                kernelWidth, stride, dilation, random.nextBoolean(), random.nextInt(3) == 0, 1 + random.nextInt(2));
    }

    int outputHeight() {
        return (height - (kernelHeight - 1) * dilation - 1) / stride + 1;
    }

    int outputWidth() {
        return (width - (kernelWidth - 1) * dilation - 1) / stride + 1;
    }

    /** @return output positions (n, oh, ow) */
    int positions() {
        return batchSize * outputHeight() * outputWidth();
    }

    /** @return taps per group: C·KH·KW */
    int taps() {
        return channels * kernelHeight * kernelWidth;
    }

    /** @return elements of the input array, [groups·C] channels of every image */
    int inputSize() {
        return batchSize * groups * channels * height * width;
    }

    /** The input as A: [group, (n, oh, ow), taps]. */
    Operand input() {
        long pixel = channelsLast ? (long) groups * channels : 1;
        long channel = channelsLast ? 1 : (long) height * width;
        long image = (long) groups * channels * height * width;
        long[] rows = table(new int[] {batchSize, outputHeight(), outputWidth()},
                new long[] {image, stride * width * pixel, stride * pixel});
        long tapRow = dilation * width * pixel * (flipped ? -1 : 1);
        long tapColumn = dilation * pixel * (flipped ? -1 : 1);
        long[] cols = channelsLast
                ? table(new int[] {kernelHeight, kernelWidth, channels}, new long[] {tapRow, tapColumn, channel})
                : table(new int[] {channels, kernelHeight, kernelWidth}, new long[] {channel, tapRow, tapColumn});
        long base = flipped ? -(kernelHeight - 1) * tapRow - (kernelWidth - 1) * tapColumn : 0;
        return new Operand(base, table(new int[] {groups}, new long[] {channels * channel}), rows, cols);
    }

    /**
     * The output gradient as A of the weight gradient: [group, channels out, (n, oh, ow)], the output
     * channels-first with {@code groups · outChannels} channels.
     */
    Operand outputGradient(int outChannels) {
        int oh = outputHeight();
        int ow = outputWidth();
        long allOut = (long) groups * outChannels;
        return new Operand(0, Layout.progression(groups, (long) outChannels * oh * ow),
                Layout.progression(outChannels, (long) oh * ow),
                table(new int[] {batchSize, oh, ow}, new long[] {allOut * oh * ow, ow, 1}));
    }

    /** @return elements of the output gradient's array */
    int outputGradientSize(int outChannels) {
        return batchSize * groups * outChannels * outputHeight() * outputWidth();
    }

    /** @return the offsets of a row-major walk over {@code extents} with these strides */
    static long[] table(int[] extents, long[] strides) {
        int n = 1;
        for (int extent : extents) {
            n *= extent;
        }
        long[] table = new long[n];
        for (int i = 0; i < n; i++) {
            long offset = 0;
            for (int d = extents.length - 1, rest = i; d >= 0; d--) {
                offset += (rest % extents[d]) * strides[d];
                rest /= extents[d];
            }
            table[i] = offset;
        }
        return table;
    }

    @Override
    public String toString() {
        return String.format("window n%d c%d %dx%d k%dx%d s%d d%d %s%s g%d", batchSize, channels, height, width,
                kernelHeight, kernelWidth, stride, dilation, channelsLast ? "last" : "first",
                flipped ? " flipped" : "", groups);
    }
}
