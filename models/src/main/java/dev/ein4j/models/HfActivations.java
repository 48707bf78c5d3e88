package dev.ein4j.models;

import dev.ein4j.nn.Activation;
import dev.ein4j.tensor.Tensor;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;

/**
 * The activation functions of transformers' {@code ACT2FN}, by the names configs give in
 * {@code hidden_act} or {@code activation_function}, each as elementwise tensor math:
 *
 * <pre>{@code
 * Activation act = HfActivations.of(config, "hidden_act", "gelu");   // the config's choice, or gelu
 * Tensor y = act.forward(x);
 * }</pre>
 *
 * <p>{@code gelu} is the exact x·Φ(x); {@code gelu_new}, {@code gelu_pytorch_tanh},
 * {@code gelu_python_tanh}, {@code gelu_accurate} and {@code gelu_fast} are the tanh approximation
 * ½x(1 + tanh(√(2/π)(x + 0.044715x³))) (gelu_fast writes √(2/π) as 0.7978845608, 4e-11 apart);
 * {@code quick_gelu} is x·σ(1.702x). {@code prelu} and {@code xielu}, which learn parameters,
 * are not supported.
 */
public final class HfActivations {

    private static final Map<String, UnaryOperator<Tensor>> FUNCTIONS = functions();

    /** The names this class implements, in transformers' order. */
    public static final List<String> NAMES = List.copyOf(FUNCTIONS.keySet());

    private HfActivations() {
    }

    /**
     * @param config the configuration
     * @param key the key naming the activation ({@code hidden_act}, {@code activation_function})
     * @param fallback transformers' default for that key
     * @return the activation as a layer
     * @throws ModelLoadException if the name is not one of {@link #NAMES}
     */
    public static Activation of(ModelConfig config, String key, String fallback) {
        String name = config.choice(key, fallback, NAMES);
        return Activation.of(name, FUNCTIONS.get(name));
    }

    /**
     * @param name one of {@link #NAMES}
     * @return the activation as a layer
     * @throws ModelLoadException if the name is not supported
     */
    public static Activation named(String name) {
        UnaryOperator<Tensor> function = FUNCTIONS.get(java.util.Objects.requireNonNull(name, "name"));
        if (function == null) {
            throw new ModelLoadException("activation \"" + name + "\" is not supported (supported: "
                    + String.join(", ", NAMES) + ")");
        }
        return Activation.of(name, function);
    }

    private static Map<String, UnaryOperator<Tensor>> functions() {
        Map<String, UnaryOperator<Tensor>> functions = new LinkedHashMap<>();
        functions.put("gelu", Tensor::gelu);
        functions.put("gelu_10", x -> x.gelu().clamp(-10, 10));
        functions.put("gelu_fast", Tensor::geluTanh);
        functions.put("gelu_new", Tensor::geluTanh);
        functions.put("gelu_python", Tensor::gelu);
        functions.put("gelu_pytorch_tanh", Tensor::geluTanh);
        functions.put("gelu_python_tanh", Tensor::geluTanh);
        functions.put("gelu_accurate", Tensor::geluTanh);
        functions.put("hardswish", x -> x.mul(x.add(3).clamp(0, 6)).div(6));
        functions.put("laplace", x -> x.sub(0.707107).div(0.282095 * Math.sqrt(2.0)).erf().add(1).mul(0.5));
        functions.put("leaky_relu", x -> x.leakyRelu(0.01));
        functions.put("linear", x -> x);
        functions.put("mish", x -> x.mul(x.softplus().tanh()));
        functions.put("quick_gelu", x -> x.mul(x.mul(1.702).sigmoid()));
        functions.put("relu", Tensor::relu);
        functions.put("relu2", x -> x.relu().square());
        functions.put("relu6", x -> x.clamp(0, 6));
        functions.put("sigmoid", Tensor::sigmoid);
        functions.put("silu", Tensor::silu);
        functions.put("sqrtsoftplus", x -> x.softplus().sqrt());
        functions.put("swish", Tensor::silu);
        functions.put("tanh", Tensor::tanh);
        return functions;
    }
}
