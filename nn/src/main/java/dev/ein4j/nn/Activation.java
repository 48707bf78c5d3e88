package dev.ein4j.nn;

import dev.ein4j.error.EinopsException;
import dev.ein4j.tensor.Tensor;
import java.util.List;
import java.util.function.UnaryOperator;

/**
 * An elementwise function as a layer, for {@link Sequential}: {@code Activation.relu()},
 * {@code Activation.gelu()}, or any function with {@link #of}; {@link #named} maps the activation
 * names of Hugging Face configurations ({@code "hidden_act": "silu"}).
 *
 * <pre>{@code
 * Module model = new Sequential(new Linear(4, 8), Activation.gelu(), new Linear(8, 2));
 * Module swish = Activation.of("Swish", x -> x.mul(x.sigmoid()));
 * Module act = Activation.named("gelu_new");               // GELU(approximate='tanh')
 * }</pre>
 */
public class Activation extends Module {

    /** The names {@link #named} knows, Hugging Face's {@code ACT2FN} keys with an exact definition. */
    private static final List<String> NAMES = List.of("relu", "relu6", "gelu", "gelu_python", "gelu_new",
            "gelu_pytorch_tanh", "gelu_python_tanh", "gelu_fast", "quick_gelu", "silu", "swish", "tanh", "sigmoid",
            "hardswish", "hardsigmoid", "linear");

    private final String name;
    private final String settings;
    private final UnaryOperator<Tensor> function;

    private Activation(String name, String settings, UnaryOperator<Tensor> function) {
        this.name = name;
        this.settings = settings;
        this.function = function;
    }

    private Activation(String name, UnaryOperator<Tensor> function) {
        this(name, "", function);
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

    /** @return PyTorch's GELU with {@code approximate="tanh"}: ½x(1 + tanh(√(2/π)(x + 0.044715x³))) */
    public static Activation geluTanh() {
        return new Activation("GELU", "approximate='tanh'", Tensor::geluTanh);
    }

    /** @return x·σ(x) */
    public static Activation silu() {
        return new Activation("SiLU", Tensor::silu);
    }

    /** @return min(max(x, 0), 6), see {@link Functional#relu6} */
    public static Activation relu6() {
        return new Activation("ReLU6", PiecewiseActivations::relu6);
    }

    /** @return x·min(max(x + 3, 0), 6)/6, see {@link Functional#hardswish} */
    public static Activation hardswish() {
        return new Activation("Hardswish", PiecewiseActivations::hardswish);
    }

    /** @return min(max(x + 3, 0), 6)/6, see {@link Functional#hardsigmoid} */
    public static Activation hardsigmoid() {
        return new Activation("Hardsigmoid", PiecewiseActivations::hardsigmoid);
    }

    /**
     * The activation a Hugging Face configuration names ({@code hidden_act}, {@code hidden_activation}):
     * {@code relu}, {@code relu6}, {@code gelu} and {@code gelu_python} (exact), {@code gelu_new},
     * {@code gelu_pytorch_tanh} and {@code gelu_python_tanh} (the tanh approximation),
     * {@code gelu_fast} (the same with the constant 0.7978845608), {@code quick_gelu} (x·σ(1.702x)),
     * {@code silu} and {@code swish}, {@code tanh}, {@code sigmoid}, {@code hardswish},
     * {@code hardsigmoid}, {@code linear} (the identity).
     *
     * @param name the name, as in the configuration
     * @return the layer
     * @throws EinopsException for a name not in that list, naming it
     */
    public static Activation named(String name) {
        Checks.notNull(name, "name");
        return switch (name) {
            case "relu" -> relu();
            case "relu6" -> relu6();
            case "gelu", "gelu_python" -> gelu();
            case "gelu_new", "gelu_pytorch_tanh", "gelu_python_tanh" -> geluTanh();
            case "gelu_fast" -> new Activation("FastGELUActivation",
                    x -> x.mul(x.mul(x).mul(0.044715).add(1.0).mul(x).mul(2 * 0.7978845608).sigmoid()));
            case "quick_gelu" -> new Activation("QuickGELUActivation", x -> x.mul(x.mul(1.702).sigmoid()));
            case "silu", "swish" -> silu();
            case "tanh" -> tanh();
            case "sigmoid" -> sigmoid();
            case "hardswish" -> hardswish();
            case "hardsigmoid" -> hardsigmoid();
            case "linear" -> new Activation("Identity", x -> x);
            default -> throw new EinopsException("unknown activation '" + name + "'; known: " + String.join(", ", NAMES));
        };
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

    @Override
    protected String extraRepresentation() {
        return settings;
    }
}
