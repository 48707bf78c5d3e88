package dev.ein4j.examples.fashion;

import dev.ein4j.nn.BatchNorm2d;
import dev.ein4j.nn.Dropout;
import dev.ein4j.nn.Init;
import dev.ein4j.nn.Module;
import dev.ein4j.tensor.Ein;
import dev.ein4j.tensor.Generator;
import dev.ein4j.tensor.Reduction;
import dev.ein4j.tensor.Tensor;

/**
 * The Fashion-MNIST classifier, every layer a pattern string:
 * <pre>
 *   [b, 1, 28, 28]
 *   conv 3×3, 1 → 32   "b c (h + kh) (w + kw), o c kh kw -> b o h w"  (after a zero pad of 1; no bias)
 *   batch norm, relu
 *   max pool 2×2       "b c (h 2) (w 2) -> b c h w", max                 [b, 32, 14, 14]
 *   conv 3×3, 32 → 64, batch norm, relu, max pool                         [b, 64, 7, 7]
 *   flatten            "b c h w -> b (c h w)"                             [b, 3136]
 *   dense 3136 → 128   "b i, o i -> b o", relu, dropout
 *   dense 128 → 10     "b i, o i -> b o"                                  logits [b, 10]
 * </pre>
 * Parameter names follow PyTorch's ({@code conv1.weight}, {@code norm1.running_mean}, ...), so a
 * state dict saved by either library loads into the other's twin model.
 */
public final class FashionCnn extends Module {

    static final int CLASSES = 10;
    private static final String CONVOLUTION = "b c (h + kh) (w + kw), o c kh kw -> b o h w";
    private static final String POOL = "b c (h 2) (w 2) -> b c h w";
    private static final String DENSE = "b i, o i -> b o";

    private final int[] widths;
    private final BatchNorm2d norm1;
    private final BatchNorm2d norm2;
    private final Dropout dropout;

    /**
     * @param channels1 channels of the first convolution
     * @param channels2 channels of the second
     * @param hidden width of the dense layer
     * @param generator the random stream of the initial weights and the dropout masks
     */
    public FashionCnn(int channels1, int channels2, int hidden, Generator generator) {
        widths = new int[] {channels1, channels2, hidden};
        registerParameter("conv1_weight", Init.kaimingUniform(generator, Math.sqrt(5), channels1, 1, 3, 3));
        norm1 = registerModule("norm1", new BatchNorm2d(channels1));
        registerParameter("conv2_weight", Init.kaimingUniform(generator, Math.sqrt(5), channels2, channels1, 3, 3));
        norm2 = registerModule("norm2", new BatchNorm2d(channels2));
        int flat = channels2 * 7 * 7;
        registerParameter("dense1_weight", Init.kaimingUniform(generator, Math.sqrt(5), hidden, flat));
        registerParameter("dense1_bias", Tensor.zeros(hidden));
        dropout = registerModule("dropout", new Dropout(0.25, generator));
        registerParameter("dense2_weight", Init.kaimingUniform(generator, Math.sqrt(5), CLASSES, hidden));
        registerParameter("dense2_bias", Tensor.zeros(CLASSES));
    }

    /**
     * @param images [b, 1, 28, 28], normalized
     * @return logits [b, 10]
     */
    @Override
    public Tensor forward(Tensor images) {
        Tensor x = block(images, "conv1", norm1);                       // [b, c1, 14, 14]
        x = block(x, "conv2", norm2);                                   // [b, c2, 7, 7]
        x = x.rearrange("b c h w -> b (c h w)");
        x = Ein.einsum(DENSE, x, parameter("dense1_weight")).add(parameter("dense1_bias")).relu();
        x = dropout.forward(x);
        return Ein.einsum(DENSE, x, parameter("dense2_weight")).add(parameter("dense2_bias"));
    }

    /** conv 3×3 (padding 1, no bias: batch norm's shift replaces it), batch norm, relu, 2×2 max pool. */
    private Tensor block(Tensor x, String name, BatchNorm2d norm) {
        Tensor padded = x.pad(new int[] {0, 0, 1, 1}, new int[] {0, 0, 1, 1}, 0.0);
        Tensor convolved = Ein.einsum(CONVOLUTION, padded, parameter(name + "_weight"));
        return norm.forward(convolved).relu().reduce(POOL, Reduction.MAX);
    }

    @Override
    public String extraRepresentation() {
        return "conv 1→" + widths[0] + ", conv " + widths[0] + "→" + widths[1] + ", dense " + widths[1] * 49 + "→"
                + widths[2] + "→" + CLASSES;
    }
}
