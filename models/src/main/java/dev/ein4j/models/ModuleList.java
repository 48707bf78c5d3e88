package dev.ein4j.models;

import dev.ein4j.error.EinopsException;
import dev.ein4j.nn.Module;
import dev.ein4j.tensor.Tensor;
import java.util.List;
import java.util.Objects;

/**
 * Submodules named by their index, PyTorch's {@code nn.ModuleList}: the container of a model's
 * repeated blocks, so that their parameters are named {@code "h.0.attn.c_attn.weight"},
 * {@code "h.1..."}. It holds modules but computes nothing itself: the model calls each block.
 *
 * <pre>{@code
 * ModuleList<Gpt2Block> blocks = registerModule("h", new ModuleList<>(blockList));
 * for (Gpt2Block block : blocks.modules()) { hidden = block.forward(hidden, keep); }
 * }</pre>
 *
 * @param <M> the type of the submodules
 */
public final class ModuleList<M extends Module> extends Module {

    private final List<M> modules;

    /** @param modules the submodules, registered as "0", "1", ... in order */
    public ModuleList(List<M> modules) {
        Objects.requireNonNull(modules, "modules");
        this.modules = List.copyOf(modules);
        for (int i = 0; i < this.modules.size(); i++) {
            registerModule(Integer.toString(i), this.modules.get(i));
        }
    }

    /** @return the submodules in order (read-only) */
    public List<M> modules() {
        return modules;
    }

    /**
     * @param index a position
     * @return the submodule at it
     */
    public M get(int index) {
        return modules.get(index);
    }

    /** @return the number of submodules */
    public int size() {
        return modules.size();
    }

    /** A list is not a layer: its owner calls the submodules. */
    @Override
    public Tensor forward(Tensor x) {
        Objects.requireNonNull(x, "x");
        throw new EinopsException("a ModuleList holds modules but has no forward of its own: call its modules");
    }
}
