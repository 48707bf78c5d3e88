package dev.ein4j.models;

import dev.ein4j.nn.Activation;
import dev.ein4j.tensor.Tensor;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
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
 * <p>Those nn implements come from {@link Activation#named} (gelu exact; gelu_new,
 * gelu_pytorch_tanh, gelu_python_tanh the tanh approximation; gelu_fast, quick_gelu, relu6,
 * hardswish, ...); the rest of transformers' stateless entries are here: {@code gelu_10}
 * (clamped to ±10), {@code gelu_accurate} (the tanh approximation), {@code laplace},
 * {@code leaky_relu} (slope 0.01), {@code mish}, {@code relu2}, {@code sqrtsoftplus}.
 * {@code prelu} and {@code xielu}, which learn parameters, are not supported.
 */
public final class HfActivations {

    /** The names nn's {@link Activation#named} implements, with the same meaning as transformers'. */
    private static final List<String> IN_NN = List.of("gelu", "gelu_fast", "gelu_new", "gelu_python",
            "gelu_pytorch_tanh", "gelu_python_tanh", "hardswish", "linear", "quick_gelu", "relu", "relu6", "sigmoid",
            "silu", "swish", "tanh");

    private static final Map<String, UnaryOperator<Tensor>> EXTRA = functions();

    /** The names this class implements, sorted. */
    public static final List<String> NAMES = names();

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
        Objects.requireNonNull(config, "config");
        Objects.requireNonNull(key, "key");
        return named(config.choice(key, fallback, NAMES));
    }

    /**
     * @param name one of {@link #NAMES}
     * @return the activation as a layer
     * @throws ModelLoadException if the name is not supported
     */
    public static Activation named(String name) {
        Objects.requireNonNull(name, "name");
        if (IN_NN.contains(name)) {
            return Activation.named(name);
        }
        UnaryOperator<Tensor> function = EXTRA.get(name);
        if (function == null) {
            throw new ModelLoadException("activation \"" + name + "\" is not supported (supported: "
                    + String.join(", ", NAMES) + ")");
        }
        return Activation.of(name, function);
    }

    private static List<String> names() {
        List<String> names = new ArrayList<>(IN_NN);
        names.addAll(EXTRA.keySet());
        Collections.sort(names);
        return List.copyOf(names);
    }

    /** transformers' other ACT2FN entries that have no learned state. */
    private static Map<String, UnaryOperator<Tensor>> functions() {
        Map<String, UnaryOperator<Tensor>> functions = new LinkedHashMap<>();
        functions.put("gelu_10", x -> x.gelu().clamp(-10, 10));
        functions.put("gelu_accurate", Tensor::geluTanh);
        functions.put("laplace", x -> x.sub(0.707107).div(0.282095 * Math.sqrt(2.0)).erf().add(1).mul(0.5));
        functions.put("leaky_relu", x -> x.leakyRelu(0.01));
        functions.put("mish", x -> x.mul(x.softplus().tanh()));
        functions.put("relu2", x -> x.relu().square());
        functions.put("sqrtsoftplus", x -> x.softplus().sqrt());
        return functions;
    }
}
