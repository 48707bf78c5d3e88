package dev.ein4j.models.mobilenetv2;

import dev.ein4j.models.HfActivations;
import dev.ein4j.nn.Module;
import dev.ein4j.tensor.Tensor;
import java.util.Objects;

/**
 * An inverted residual block: {@code expand_1x1} (to in·expand_ratio channels), the depthwise
 * {@code conv_3x3} (strided or dilated), {@code reduce_1x1} (no activation), plus x when the block
 * keeps the channels and the resolution.
 */
public final class MobileNetV2InvertedResidual extends Module {

    private final boolean residual;

    /**
     * @param config the options
     * @param in input channels
     * @param out output channels
     * @param stride 1 or 2
     * @param dilation the depthwise convolution's dilation
     */
    public MobileNetV2InvertedResidual(MobileNetV2Config config, int in, int out, int stride, int dilation) {
        Objects.requireNonNull(config, "config");
        int expanded = config.expanded(in);
        this.residual = stride == 1 && in == out;
        registerModule("expand_1x1", new MobileNetV2ConvLayer(config, in, expanded, 1, 1, 1, 1,
                HfActivations.named(config.hiddenAct())));
        registerModule("conv_3x3", new MobileNetV2ConvLayer(config, expanded, expanded, 3, stride, expanded, dilation,
                HfActivations.named(config.hiddenAct())));
        registerModule("reduce_1x1", new MobileNetV2ConvLayer(config, expanded, out, 1, 1, 1, 1, null));
    }

    @Override
    public Tensor forward(Tensor x) {
        Objects.requireNonNull(x, "x");
        Tensor y = x;
        for (Module layer : children().values()) {
            y = layer.forward(y);
        }
        return residual ? x.add(y) : y;
    }
}
