package dev.ein4j.examples;

import dev.ein4j.nn.Activation;
import dev.ein4j.nn.EinMix;
import dev.ein4j.nn.Init;
import dev.ein4j.nn.LayerNorm;
import dev.ein4j.nn.Linear;
import dev.ein4j.nn.Module;
import dev.ein4j.nn.MultiHeadAttention;
import dev.ein4j.nn.Reduce;
import dev.ein4j.nn.Sequential;
import dev.ein4j.tensor.Axes;
import dev.ein4j.tensor.Generator;
import dev.ein4j.tensor.Reduction;
import dev.ein4j.tensor.Tensor;

/**
 * A small vision transformer for 28×28 grey images, in patterns:
 * <pre>
 *   patches + embedding   EinMix "b c (h p1) (w p2) -> b (h w) d", weight "p1 p2 c d"   [b, 16, d]
 *   + position embedding  [16, d]
 *   blocks                x + attention(layer_norm(x)); x + mlp(layer_norm(x))
 *                         (heads split and merged inside the attention's einsums)
 *   pooling               reduce "b t d -> b d", mean
 *   head                  layer norm, linear d → 10
 * </pre>
 */
public final class VisionTransformer extends Module {

    private static final int PATCH = 7;
    private static final int TOKENS = (28 / PATCH) * (28 / PATCH);

    private final Module[] attentionNorms;
    private final MultiHeadAttention[] attentions;
    private final Module[] mlpNorms;
    private final Module[] mlps;
    private final EinMix patches;
    private final Module head;

    /**
     * @param width d, the token width
     * @param heads attention heads (dividing d)
     * @param depth the number of blocks
     * @param generator the random stream of the initial weights
     */
    public VisionTransformer(int width, int heads, int depth, Generator generator) {
        patches = registerModule("patches", new EinMix("b c (h p1) (w p2) -> b (h w) d", "p1 p2 c d", "d",
                Axes.of("p1", PATCH, "p2", PATCH, "c", 1).and("d", width), generator));
        registerParameter("position", Init.normal(generator, 0, 0.02, TOKENS, width));
        attentionNorms = new Module[depth];
        attentions = new MultiHeadAttention[depth];
        mlpNorms = new Module[depth];
        mlps = new Module[depth];
        for (int block = 0; block < depth; block++) {
            attentionNorms[block] = registerModule("norm" + block + "a", new LayerNorm(width));
            attentions[block] = registerModule("attention" + block, new MultiHeadAttention(width, heads, 0.0, generator));
            mlpNorms[block] = registerModule("norm" + block + "b", new LayerNorm(width));
            mlps[block] = registerModule("mlp" + block, new Sequential(new Linear(width, 2 * width, true, generator),
                    Activation.gelu(), new Linear(2 * width, width, true, generator)));
        }
        head = registerModule("head", new Sequential(new Reduce("b t d -> b d", Reduction.MEAN), new LayerNorm(width),
                new Linear(width, 10, true, generator)));
    }

    /**
     * @param images [b, 1, 28, 28]
     * @return logits [b, 10]
     */
    @Override
    public Tensor forward(Tensor images) {
        Tensor x = patches.forward(images).add(parameter("position"));
        for (int block = 0; block < attentions.length; block++) {
            x = x.add(attentions[block].forward(attentionNorms[block].forward(x)));
            x = x.add(mlps[block].forward(mlpNorms[block].forward(x)));
        }
        return head.forward(x);
    }
}
