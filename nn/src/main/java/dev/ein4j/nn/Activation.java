package dev.ein4j.nn;

import dev.ein4j.tensor.Tensor;
import java.util.function.UnaryOperator;

/**
 * An elementwise function as a layer, for {@link Sequential}: {@code Activation.relu()},
 * {@code Activation.gelu()}, or any function with {@link #of}.
 *
 * <pre>{@code
 * Module model = new Sequential(new Linear(4, 8), Activation.gelu(), new Linear(8, 2));
 * Module swish = Activation.of("Swish", x -> x.mul(x.sigmoid()));
 * }</pre>
 */
public class Activation extends Module {

    private final String name;
    private final UnaryOperator<Tensor> function;

    private Activation(String name, UnaryOperator<Tensor> function) {
        this.name = name;
        this.function = function;
    }

    /**
     * @param name the name printed for the layer
     * @param function the function of the layer's input
     * @return the layer
     */
    public static Activation of(String name, UnaryOperator<Tensor> function) {
        return new Activation(Checks.notNull(name, "name"), Checks.notNull(function, "function"));
    }

    /** @return max(x, 0) */
    public static Activation relu() {
        return new Activation("ReLU", Tensor::relu);
    }

    /** @return x·Φ(x), the exact GELU */
    public static Activation gelu() {
        return new Activation("GELU", Tensor::gelu);
    }

    /** @return x·σ(x) */
    public static Activation silu() {
        return new Activation("SiLU", Tensor::silu);
    }

    /** @return tanh(x) */
    public static Activation tanh() {
        return new Activation("Tanh", Tensor::tanh);
    }

    /** @return σ(x) */
    public static Activation sigmoid() {
        return new Activation("Sigmoid", Tensor::sigmoid);
    }

    @Override
    public Tensor forward(Tensor x) {
        return function.apply(Checks.notNull(x, "x"));
    }

    /** @return the activation's name, e.g. "ReLU" */
    @Override
    protected String typeName() {
        return name;
    }
}
