package dev.ein4j.nn;

import dev.ein4j.tensor.Tensor;
import java.util.ArrayList;
import java.util.List;

/**
 * Modules applied in order, PyTorch's {@code nn.Sequential}; they are named "0", "1", ... in the
 * state dict.
 *
 * <pre>{@code
 * Sequential model = new Sequential(
 *         new Conv2d(1, 32, 3, ConvolutionOptions.defaults().padding(1)), Activation.relu(), new MaxPool2d(2),
 *         new Rearrange("b c h w -> b (c h w)"), new Linear(32 * 14 * 14, 10));
 * }</pre>
 */
public class Sequential extends Module {

    private final List<Module> layers = new ArrayList<>();

    /** @param modules the layers, in order */
    public Sequential(Module... modules) {
        Checks.notNull(modules, "modules");
        for (Module module : modules) {
            add(module);
        }
    }

    /**
     * Appends a layer.
     *
     * @param module the layer
     * @return this sequence
     */
    public Sequential add(Module module) {
        Checks.notNull(module, "module");
        layers.add(registerModule(Integer.toString(layers.size()), module));
        return this;
    }

    /**
     * @param index a position
     * @return the layer there
     */
    public Module get(int index) {
        return layers.get(java.util.Objects.checkIndex(index, layers.size()));
    }

    /** @return the number of layers */
    public int size() {
        return layers.size();
    }

    @Override
    public Tensor forward(Tensor x) {
        Tensor y = Checks.notNull(x, "x");
        for (Module layer : layers) {
            y = layer.forward(y);
        }
        return y;
    }
}
