package dev.ein4j.nn;

import dev.ein4j.tensor.Generator;
import dev.ein4j.tensor.Tensor;

/**
 * The gated feed-forward block of Llama-style transformers, Hugging Face's {@code LlamaMLP}:
 * y = down_proj(act(gate_proj(x)) · up_proj(x)), three {@link Linear} children named
 * {@code gate_proj} [intermediate, hidden], {@code up_proj} [intermediate, hidden] and
 * {@code down_proj} [hidden, intermediate], and the activation as {@code act_fn} (no state).
 *
 * <pre>{@code
 * GatedMlp mlp = new GatedMlp(512, 1376, false, Activation.silu());     // SwiGLU
 * Tensor y = mlp.forward(x);                                             // [b, t, 512] -> [b, t, 512]
 * }</pre>
 */
public class GatedMlp extends Module {

    private final int hidden;
    private final int intermediate;
    private final Linear gate;
    private final Linear up;
    private final Linear down;
    private final Activation activation;

    /**
     * @param hidden the model width
     * @param intermediate the inner width
     * @param bias whether the three projections have biases (HF's {@code mlp_bias})
     * @param activation the gate's activation (HF's {@code hidden_act}, SiLU for Llama)
     */
    public GatedMlp(int hidden, int intermediate, boolean bias, Activation activation) {
        this(hidden, intermediate, bias, activation, Generator.global());
    }

    /**
     * @param hidden the model width
     * @param intermediate the inner width
     * @param bias whether the three projections have biases
     * @param activation the gate's activation
     * @param generator the random stream of the initial weights (PyTorch's Linear initialization)
     */
    public GatedMlp(int hidden, int intermediate, boolean bias, Activation activation, Generator generator) {
        Checks.notNull(activation, "activation");
        Checks.notNull(generator, "generator");
        this.hidden = Checks.positive(hidden, "hidden");
        this.intermediate = Checks.positive(intermediate, "intermediate");
        this.gate = registerModule("gate_proj", new Linear(hidden, intermediate, bias, generator));
        this.up = registerModule("up_proj", new Linear(hidden, intermediate, bias, generator));
        this.down = registerModule("down_proj", new Linear(intermediate, hidden, bias, generator));
        this.activation = registerModule("act_fn", activation);
    }

    /**
     * @param x [..., hidden]
     * @return [..., hidden]
     */
    @Override
    public Tensor forward(Tensor x) {
        Checks.notNull(x, "x");
        if (x.rank() == 0 || x.length(-1) != hidden) {
            throw Checks.shapeError("gated_mlp", "expected " + hidden + " features in the last dimension", x);
        }
        return down.forward(activation.forward(gate.forward(x)).mul(up.forward(x)));
    }

    @Override
    protected String extraRepresentation() {
        return "hidden_size=" + hidden + ", intermediate_size=" + intermediate;
    }
}
