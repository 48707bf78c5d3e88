package dev.ein4j.models.convnext;

import dev.ein4j.ir.DType;
import dev.ein4j.models.HfActivations;
import dev.ein4j.nn.Activation;
import dev.ein4j.nn.Conv2d;
import dev.ein4j.nn.ConvolutionOptions;
import dev.ein4j.nn.LayerNorm;
import dev.ein4j.nn.Linear;
import dev.ein4j.nn.Module;
import dev.ein4j.tensor.Generator;
import dev.ein4j.tensor.Tensor;
import java.util.Objects;

/**
 * A ConvNeXt block: a 7x7 depthwise {@code dwconv}, then in channels-last layout
 * ({@code "b c h w -> b h w c"}) {@code layernorm}, {@code pwconv1} (to 4C), the activation,
 * {@code pwconv2} (back to C), times {@code layer_scale_parameter} when the model has one, back to
 * channels first, plus x.
 */
public final class ConvNextLayer extends Module {

    private final Activation activation;

    /**
     * @param config the options
     * @param channels C
     */
    public ConvNextLayer(ConvNextConfig config, int channels) {
        Objects.requireNonNull(config, "config");
        registerModule("dwconv", new Conv2d(channels, channels, new int[] {7},
                ConvolutionOptions.defaults().padding(3).groups(channels), true, Generator.global()));
        registerModule("layernorm", new LayerNorm(new int[] {channels}, 1e-6, true));
        registerModule("pwconv1", new Linear(channels, 4 * channels, true, Generator.global()));
        registerModule("pwconv2", new Linear(4 * channels, channels, true, Generator.global()));
        if (config.layerScaleInitValue() > 0) {
            registerParameter("layer_scale_parameter", Tensor.full(config.layerScaleInitValue(), DType.FLOAT32, channels));
        }
        this.activation = HfActivations.named(config.hiddenAct());
    }

    /**
     * @param x [b, C, h, w]
     * @return [b, C, h, w]
     */
    @Override
    public Tensor forward(Tensor x) {
        Objects.requireNonNull(x, "x");
        Tensor hidden = children().get("dwconv").forward(x).rearrange("b c h w -> b h w c");
        hidden = children().get("layernorm").forward(hidden);
        hidden = children().get("pwconv2").forward(activation.forward(children().get("pwconv1").forward(hidden)));
        if (hasParameter("layer_scale_parameter")) {
            hidden = hidden.mul(parameter("layer_scale_parameter"));
        }
        return x.add(hidden.rearrange("b h w c -> b c h w"));
    }
}
