package dev.ein4j.models;

import dev.ein4j.nn.Module;
import dev.ein4j.tensor.Tensor;
import java.util.Objects;

/**
 * A module that only adds a level to its one child's parameter names, as transformers' one-child
 * modules do: {@code intermediate.dense}, {@code encoder.layer}, {@code patch_embeddings.projection}.
 * Its forward is the child's.
 *
 * <pre>{@code
 * registerModule("intermediate", new Wrapper("dense", new Linear(768, 3072)));   // intermediate.dense.weight
 * }</pre>
 */
public final class Wrapper extends Module {

    private final Module child;

    /**
     * @param name the child's name
     * @param child the child
     */
    public Wrapper(String name, Module child) {
        this.child = registerModule(Objects.requireNonNull(name, "name"), Objects.requireNonNull(child, "child"));
    }

    /** @return the child */
    public Module child() {
        return child;
    }

    @Override
    public Tensor forward(Tensor x) {
        Objects.requireNonNull(x, "x");
        return child.forward(x);
    }
}
