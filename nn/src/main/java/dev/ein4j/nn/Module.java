package dev.ein4j.nn;

import dev.ein4j.error.EinopsException;
import dev.ein4j.error.ShapeException;
import dev.ein4j.ir.DType;
import dev.ein4j.tensor.Tensor;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A layer or a model: named parameters (leaf tensors that collect gradients), named buffers
 * (state that is saved but not trained, e.g. running statistics), named submodules, and a
 * training flag. Like PyTorch's {@code nn.Module}: {@link #stateDict()} names entries by dotted
 * paths ({@code "0.weight"}, {@code "encoder.norm.running_mean"}), own parameters first, then own
 * buffers, then each submodule's in registration order.
 *
 * <pre>{@code
 * Module model = new Sequential(new Linear(784, 128), Activation.relu(), new Linear(128, 10));
 * Tensor logits = model.forward(images);                      // [b, 784] -> [b, 10]
 * Functional.crossEntropy(logits, labels).backward();        // gradients on model.parameters()
 * }</pre>
 *
 * <p>Parameters are updated in place (by optimizers, {@link #loadStateDict}), so tensors read from
 * a module stay valid. Walks over the module tree use an explicit stack, not recursion.
 */
public abstract class Module {

    private final Map<String, Tensor> parameters = new LinkedHashMap<>();
    private final Map<String, Tensor> buffers = new LinkedHashMap<>();
    private final Map<String, Module> children = new LinkedHashMap<>();
    private boolean training = true;

    /**
     * @param x the input
     * @return the layer's output
     */
    public abstract Tensor forward(Tensor x);

    // ------------------------------------------------------------------ registration

    /**
     * Registers a parameter: a compact leaf with the initial values that collects gradients.
     *
     * @param name the name, unique in this module, without dots
     * @param initial the initial values (floating)
     * @return the parameter
     */
    protected final Tensor registerParameter(String name, Tensor initial) {
        checkName(name);
        Checks.notNull(initial, "initial");
        if (!initial.dtype().isFloating()) {
            throw new EinopsException("parameter '" + name + "' must be floating, got " + initial.dtype().numpyName());
        }
        Tensor parameter = ownedLeaf(initial).requireGrad();
        parameters.put(name, parameter);
        return parameter;
    }

    /**
     * Registers a buffer: state saved in the state dict but not trained.
     *
     * @param name the name, unique in this module, without dots
     * @param initial the initial values
     * @return the buffer (a compact tensor that can be updated in place)
     */
    protected final Tensor registerBuffer(String name, Tensor initial) {
        checkName(name);
        Checks.notNull(initial, "initial");
        Tensor buffer = ownedLeaf(initial);
        buffers.put(name, buffer);
        return buffer;
    }

    /**
     * Registers a submodule.
     *
     * @param name the name, unique in this module, without dots
     * @param module the submodule
     * @param <M> its type
     * @return the submodule
     */
    protected final <M extends Module> M registerModule(String name, M module) {
        checkName(name);
        Checks.notNull(module, "module");
        children.put(name, module);
        return module;
    }

    /**
     * @param name a parameter of this module
     * @return its current tensor
     */
    protected final Tensor parameter(String name) {
        Tensor parameter = parameters.get(name);
        if (parameter == null) {
            throw new EinopsException(getClass().getSimpleName() + " has no parameter '" + name + "'");
        }
        return parameter;
    }

    /**
     * @param name a buffer of this module
     * @return its current tensor
     */
    protected final Tensor buffer(String name) {
        Tensor buffer = buffers.get(name);
        if (buffer == null) {
            throw new EinopsException(getClass().getSimpleName() + " has no buffer '" + name + "'");
        }
        return buffer;
    }

    /** @return whether a parameter of that name is registered here (optional ones, such as a bias) */
    protected final boolean hasParameter(String name) {
        return parameters.containsKey(name);
    }

    private void checkName(String name) {
        Checks.notNull(name, "name");
        if (name.isEmpty() || name.contains(".")) {
            throw new EinopsException("a parameter, buffer or module name must be non-empty and without dots, got '" + name + "'");
        }
        if (parameters.containsKey(name) || buffers.containsKey(name) || children.containsKey(name)) {
            throw new EinopsException(getClass().getSimpleName() + " already has an entry named '" + name + "'");
        }
    }

    /** A compact tensor of its own data, cut from any graph, so that it can be assigned in place. */
    private static Tensor ownedLeaf(Tensor initial) {
        return initial.detach().contiguous().realize();
    }

    // ------------------------------------------------------------------ the tree

    /** @return the direct submodules by name, in registration order (read-only) */
    public Map<String, Module> children() {
        return Collections.unmodifiableMap(children);
    }

    /** @return every parameter of this module and its submodules, in state-dict order */
    public List<Tensor> parameters() {
        return new ArrayList<>(namedParameters().values());
    }

    /** @return every parameter by dotted name, in state-dict order */
    public Map<String, Tensor> namedParameters() {
        Map<String, Tensor> named = new LinkedHashMap<>();
        walk((prefix, module) -> module.parameters.forEach((name, tensor) -> named.put(prefix + name, tensor)));
        return named;
    }

    /** @return the number of trainable elements in all parameters */
    public long parameterCount() {
        return parameters().stream().mapToLong(Tensor::size).sum();
    }

    /**
     * PyTorch's {@code state_dict}: parameters and buffers by dotted name (the tensors themselves,
     * not copies).
     *
     * @return the state, in order
     */
    public Map<String, Tensor> stateDict() {
        Map<String, Tensor> state = new LinkedHashMap<>();
        walk((prefix, module) -> {
            module.parameters.forEach((name, tensor) -> state.put(prefix + name, tensor));
            module.buffers.forEach((name, tensor) -> state.put(prefix + name, tensor));
        });
        return state;
    }

    /**
     * Copies a state dict's values into this module's parameters and buffers, in place (converted to
     * each entry's type). Every entry of this module must be present and no other (strict).
     *
     * @param state tensors by dotted name, e.g. from {@link #stateDict()} or a safetensors file
     * @throws ShapeException if a tensor's shape differs from the entry's
     * @throws EinopsException if names are missing or unexpected
     */
    public void loadStateDict(Map<String, Tensor> state) {
        loadStateDict(state, true);
    }

    /**
     * @param state tensors by dotted name
     * @param strict whether missing and unexpected names are errors; otherwise they are skipped
     * @return the names of this module's entries that the state did not have
     */
    public List<String> loadStateDict(Map<String, Tensor> state, boolean strict) {
        Checks.notNull(state, "state");
        Map<String, Tensor> own = stateDict();
        List<String> missing = new ArrayList<>();
        for (String name : own.keySet()) {
            if (!state.containsKey(name)) {
                missing.add(name);
            }
        }
        List<String> unexpected = state.keySet().stream().filter(name -> !own.containsKey(name)).toList();
        if (strict && (!missing.isEmpty() || !unexpected.isEmpty())) {
            throw new EinopsException("state dict does not match " + getClass().getSimpleName() + ": missing " + missing
                    + ", unexpected " + unexpected);
        }
        for (Map.Entry<String, Tensor> entry : own.entrySet()) {
            Tensor value = state.get(entry.getKey());
            if (value == null) {
                continue;
            }
            Tensor target = entry.getValue();
            if (!Arrays.equals(value.shape(), target.shape())) {
                throw Checks.shapeError("load_state_dict", "'" + entry.getKey() + "' has shape " + Arrays.toString(target.shape())
                        + " in the module but " + Arrays.toString(value.shape()) + " in the state", target, value);
            }
            target.assign(value.dtype() == target.dtype() ? value.detach() : value.detach().cast(target.dtype()));
        }
        return missing;
    }

    /**
     * Converts every floating parameter and buffer to a type (new tensors: make optimizers after this).
     *
     * @param dtype float32 or float64
     * @return this module
     */
    public Module cast(DType dtype) {
        Checks.notNull(dtype, "dtype");
        if (!dtype.isFloating()) {
            throw new EinopsException("modules hold floating parameters; cannot cast to " + dtype.numpyName());
        }
        walk((prefix, module) -> {
            module.parameters.replaceAll((name, tensor) -> tensor.dtype() == dtype ? tensor
                    : ownedLeaf(tensor.cast(dtype)).requireGrad());
            module.buffers.replaceAll((name, tensor) -> tensor.dtype().isFloating() && tensor.dtype() != dtype
                    ? ownedLeaf(tensor.cast(dtype)) : tensor);
        });
        return this;
    }

    /** Clears the accumulated gradient of every parameter. */
    public void zeroGrad() {
        parameters().forEach(Tensor::zeroGrad);
    }

    /**
     * Sets training mode here and in every submodule (dropout drops, batch norm uses and records
     * batch statistics).
     *
     * @param training the mode
     * @return this module
     */
    public Module train(boolean training) {
        walk((prefix, module) -> module.training = training);
        return this;
    }

    /** @return this module, in training mode */
    public Module train() {
        return train(true);
    }

    /** @return this module, in evaluation mode */
    public Module eval() {
        return train(false);
    }

    /** @return whether this module is in training mode */
    public boolean isTraining() {
        return training;
    }

    /** Visits this module and its descendants, parents before children, with each one's dotted prefix. */
    private void walk(java.util.function.BiConsumer<String, Module> visitor) {
        Deque<Map.Entry<String, Module>> stack = new ArrayDeque<>();
        stack.push(Map.entry("", this));
        while (!stack.isEmpty()) {
            Map.Entry<String, Module> entry = stack.pop();
            Module module = entry.getValue();
            visitor.accept(entry.getKey(), module);
            List<Map.Entry<String, Module>> kids = new ArrayList<>(module.children.entrySet());
            for (int i = kids.size() - 1; i >= 0; i--) {
                stack.push(Map.entry(entry.getKey() + kids.get(i).getKey() + ".", kids.get(i).getValue()));
            }
        }
    }

    // ------------------------------------------------------------------ printing

    /**
     * @return this module's settings for {@link #toString()}, e.g. {@code "in_features=784, out_features=10"}
     */
    protected String extraRepresentation() {
        return "";
    }

    /** @return the name {@link #toString()} prints for this module: its class's simple name */
    protected String typeName() {
        return getClass().getSimpleName();
    }

    /** @return the module tree as PyTorch prints it, one submodule per line */
    @Override
    public String toString() {
        StringBuilder text = new StringBuilder();
        Deque<Object[]> stack = new ArrayDeque<>(); // {label, module, depth} or {closing text, null, depth}
        stack.push(new Object[] {"", this, 0});
        while (!stack.isEmpty()) {
            Object[] item = stack.pop();
            int depth = (Integer) item[2];
            String indent = "  ".repeat(depth);
            if (item[1] == null) {
                text.append(indent).append(")\n");
                continue;
            }
            Module module = (Module) item[1];
            text.append(indent).append(item[0]).append(module.typeName()).append('(')
                    .append(module.extraRepresentation());
            if (module.children.isEmpty()) {
                text.append(")\n");
                continue;
            }
            text.append('\n');
            stack.push(new Object[] {")", null, depth});
            List<Map.Entry<String, Module>> kids = new ArrayList<>(module.children.entrySet());
            for (int i = kids.size() - 1; i >= 0; i--) {
                stack.push(new Object[] {"(" + kids.get(i).getKey() + "): ", kids.get(i).getValue(), depth + 1});
            }
        }
        return text.toString().stripTrailing();
    }
}
