package dev.ein4j.models.resnet;

import dev.ein4j.models.HfActivations;
import dev.ein4j.nn.Activation;
import dev.ein4j.nn.Module;
import dev.ein4j.nn.Sequential;
import dev.ein4j.tensor.Tensor;
import java.util.Objects;

/**
 * A residual layer, transformers' {@code ResNetBasicLayer} or {@code ResNetBottleNeckLayer}:
 * act(layer(x) + shortcut(x)), the {@code shortcut} a strided 1x1 convolution and batch norm when
 * the channels or the resolution change, else x itself. {@code layer} is two 3x3 convolutions
 * (basic) or 1x1, 3x3, 1x1 with out/4 channels inside (bottleneck), ReLU between them.
 */
public final class ResNetResidualLayer extends Module {

    private final Module shortcut;
    private final Activation activation;

    /**
     * @param config the options (layer type, activation, where a bottleneck strides)
     * @param in input channels
     * @param out output channels
     * @param stride 1 or 2
     */
    public ResNetResidualLayer(ResNetConfig config, int in, int out, int stride) {
        Objects.requireNonNull(config, "config");
        this.shortcut = in != out || stride != 1
                ? registerModule("shortcut", new ResNetConvLayer(in, out, 1, stride, null)) : null;
        Activation relu = HfActivations.named("relu");
        if (config.layerType().equals("basic")) {
            registerModule("layer", new Sequential(new ResNetConvLayer(in, out, 3, stride, relu),
                    new ResNetConvLayer(out, out, 3, 1, null)));
        } else {
            int reduced = out / 4;
            boolean first = config.downsampleInBottleneck();
            registerModule("layer", new Sequential(new ResNetConvLayer(in, reduced, 1, first ? stride : 1, relu),
                    new ResNetConvLayer(reduced, reduced, 3, first ? 1 : stride, relu),
                    new ResNetConvLayer(reduced, out, 1, 1, null)));
        }
        this.activation = HfActivations.named(config.hiddenAct());
    }

    /**
     * @param x [b, in, h, w]
     * @return [b, out, h / stride, w / stride] (rounded up)
     */
    @Override
    public Tensor forward(Tensor x) {
        Objects.requireNonNull(x, "x");
        Tensor residual = shortcut == null ? x : shortcut.forward(x);
        return activation.forward(children().get("layer").forward(x).add(residual));
    }
}
