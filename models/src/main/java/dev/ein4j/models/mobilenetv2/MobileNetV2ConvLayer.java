package dev.ein4j.models.mobilenetv2;

import dev.ein4j.nn.Activation;
import dev.ein4j.nn.BatchNorm2d;
import dev.ein4j.nn.Conv2d;
import dev.ein4j.nn.ConvolutionOptions;
import dev.ein4j.nn.Module;
import dev.ein4j.tensor.Generator;
import dev.ein4j.tensor.Tensor;
import java.util.Objects;

/**
 * transformers' {@code MobileNetV2ConvLayer}: {@code convolution} (no bias; depthwise when groups
 * equal the channels), {@code normalization} (batch norm, ε layer_norm_eps, momentum 0.997), then
 * the activation if any. With {@code tf_padding} the input is padded as TensorFlow's "SAME" before
 * the convolution: along each side, max(kernel − stride, 0) when the length divides by the stride,
 * else max(kernel − length mod stride, 0), half before and the rest after, times the dilation.
 */
public final class MobileNetV2ConvLayer extends Module {

    private final int kernel;
    private final int stride;
    private final int dilation;
    private final boolean tfPadding;
    private final Activation activation;

    /**
     * @param config the options (padding rule, ε)
     * @param in input channels
     * @param out output channels
     * @param kernel the square kernel's side
     * @param stride the stride
     * @param groups 1, or the channels for a depthwise convolution
     * @param dilation the dilation
     * @param activation the activation after the normalization, or null
     */
    public MobileNetV2ConvLayer(MobileNetV2Config config, int in, int out, int kernel, int stride, int groups, int dilation,
            Activation activation) {
        Objects.requireNonNull(config, "config");
        this.kernel = kernel;
        this.stride = stride;
        this.dilation = dilation;
        this.tfPadding = config.tfPadding();
        int padding = tfPadding ? 0 : (kernel - 1) / 2 * dilation;
        registerModule("convolution", new Conv2d(in, out, new int[] {kernel},
                ConvolutionOptions.defaults().stride(stride).padding(padding).dilation(dilation).groups(groups), false,
                Generator.global()));
        registerModule("normalization", new BatchNorm2d(out, config.layerNormEps(), 0.997, true));
        this.activation = activation;
    }

    /**
     * @param x [b, in, h, w]
     * @return [b, out, h', w']
     */
    @Override
    public Tensor forward(Tensor x) {
        Objects.requireNonNull(x, "x");
        Tensor input = tfPadding ? samePadding(x) : x;
        Tensor normalized = children().get("normalization").forward(children().get("convolution").forward(input));
        return activation == null ? normalized : activation.forward(normalized);
    }

    private Tensor samePadding(Tensor x) {
        int height = along(x.length(2));
        int width = along(x.length(3));
        int[] before = {0, 0, height / 2 * dilation, width / 2 * dilation};
        int[] after = {0, 0, (height - height / 2) * dilation, (width - width / 2) * dilation};
        return x.pad(before, after, 0.0);
    }

    private int along(int length) {
        return length % stride == 0 ? Math.max(kernel - stride, 0) : Math.max(kernel - length % stride, 0);
    }
}
