package dev.ein4j.models.resnet;

import dev.ein4j.nn.Activation;
import dev.ein4j.nn.BatchNorm2d;
import dev.ein4j.nn.Conv2d;
import dev.ein4j.nn.ConvolutionOptions;
import dev.ein4j.nn.Module;
import dev.ein4j.tensor.Generator;
import dev.ein4j.tensor.Tensor;
import java.util.Objects;

/**
 * A ResNet convolution, transformers' {@code ResNetConvLayer} (and, without activation and with a
 * 1x1 kernel, its {@code ResNetShortCut}): {@code convolution} (no bias, padding kernel/2),
 * {@code normalization} (batch norm, ε 1e-5), then the activation if any.
 */
public final class ResNetConvLayer extends Module {

    private final Activation activation;

    /**
     * @param in input channels
     * @param out output channels
     * @param kernel the square kernel's side
     * @param stride the stride
     * @param activation the activation after the normalization, or null for none
     */
    public ResNetConvLayer(int in, int out, int kernel, int stride, Activation activation) {
        registerModule("convolution", new Conv2d(in, out, new int[] {kernel},
                ConvolutionOptions.defaults().stride(stride).padding(kernel / 2), false, Generator.global()));
        registerModule("normalization", new BatchNorm2d(out));
        this.activation = activation;
    }

    /**
     * @param x [b, in, h, w]
     * @return [b, out, h', w']
     */
    @Override
    public Tensor forward(Tensor x) {
        Objects.requireNonNull(x, "x");
        Tensor normalized = children().get("normalization").forward(children().get("convolution").forward(x));
        return activation == null ? normalized : activation.forward(normalized);
    }
}
