package dev.ein4j.models.vit;

import dev.ein4j.models.Wrapper;
import dev.ein4j.nn.Conv2d;
import dev.ein4j.nn.ConvolutionOptions;
import dev.ein4j.nn.Functional;
import dev.ein4j.nn.Module;
import dev.ein4j.tensor.Generator;
import dev.ein4j.tensor.Tensor;
import java.util.Objects;

/**
 * ViT's embeddings: patches by a convolution whose kernel and stride are the patch
 * ({@code patch_embeddings.projection}), read as {@code "b h gh gw -> b (gh gw) h"}, a learned
 * {@code cls_token} in front, learned {@code position_embeddings} added.
 */
public final class VitEmbeddings extends Module {

    private final double dropout;

    /** @param config the options */
    public VitEmbeddings(VitConfig config) {
        Objects.requireNonNull(config, "config");
        int[] patch = config.patchSize();
        int width = config.hiddenSize();
        registerParameter("cls_token", Tensor.zeros(1, 1, width));
        registerParameter("position_embeddings", Tensor.zeros(1, config.numPatches() + 1, width));
        registerModule("patch_embeddings", new Wrapper("projection", new Conv2d(config.numChannels(), width, patch,
                ConvolutionOptions.defaults().stride(patch), true, Generator.global())));
        this.dropout = config.hiddenDropoutProb();
    }

    /**
     * @param pixelValues [b, c, h, w] of the configured image size
     * @return [b, 1 + patches, H]
     */
    @Override
    public Tensor forward(Tensor pixelValues) {
        Objects.requireNonNull(pixelValues, "pixelValues");
        Tensor patches = children().get("patch_embeddings").forward(pixelValues).rearrange("b h gh gw -> b (gh gw) h");
        Tensor cls = parameter("cls_token");
        Tensor tokens = Tensor.concat(1, cls.expand(patches.length(0), 1, cls.length(2)), patches);
        return Functional.dropout(tokens.add(parameter("position_embeddings")), dropout, isTraining());
    }
}
