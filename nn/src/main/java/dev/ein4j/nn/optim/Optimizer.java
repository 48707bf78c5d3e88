package dev.ein4j.nn.optim;

import dev.ein4j.error.EinopsException;
import dev.ein4j.tensor.Tensor;
import dev.ein4j.tensor.TensorScope;
import dev.ein4j.ir.DType;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Updates parameters from their accumulated gradients, in place: a step computes every new value
 * (parameters and optimizer state) from the old ones and writes them all in one realization
 * ({@link Tensor#assign(List, List)}), so a parameter and its state are one elementwise kernel that
 * reads the old values and writes the new ones into the same buffers, a step allocates nothing, and
 * every step after the first replays the first one's schedule (the learning rate and step-dependent
 * numbers are kernel parameters). Parameters without a gradient are skipped.
 *
 * <pre>{@code
 * Optimizer optimizer = new Adam(model.parameters(), 1e-3);
 * for (Batch batch : batches) {
 *     optimizer.zeroGrad();
 *     Functional.crossEntropy(model.forward(batch.images()), batch.labels()).backward();
 *     optimizer.step();
 * }
 * }</pre>
 */
public abstract class Optimizer {

    /** The name of the step count in {@link #stateDict()}. */
    public static final String STEP_KEY = "step";

    private final List<Tensor> parameters;
    private final Map<Tensor, Tensor[]> state = new IdentityHashMap<>();
    private double learningRate;
    private long steps;

    /**
     * @param parameters the leaves to update (each must require gradients)
     * @param learningRate the step size, positive
     */
    protected Optimizer(List<Tensor> parameters, double learningRate) {
        Objects.requireNonNull(parameters, "parameters");
        this.parameters = new ArrayList<>(parameters.size());
        for (Tensor parameter : parameters) {
            Objects.requireNonNull(parameter, "parameters");
            if (!parameter.requiresGrad() || !parameter.dtype().isFloating()) {
                throw new EinopsException("an optimizer updates floating leaves made with requireGrad(); got a tensor "
                        + parameter.dtype().numpyName() + java.util.Arrays.toString(parameter.shape())
                        + " that does not collect gradients");
            }
            this.parameters.add(parameter);
        }
        setLearningRate(learningRate);
    }

    /** Applies one update to every parameter that has a gradient, all in one realization. */
    public void step() {
        steps++;
        Updates updates = new Updates();
        for (Tensor parameter : parameters) {
            if (parameter.hasGrad()) {
                update(parameter, parameter.grad(), state.computeIfAbsent(parameter, p -> new Tensor[stateSize()]), updates);
            }
        }
        updates.apply();
    }

    /**
     * Says how one parameter and its state change: each new value is an expression of the old values
     * (read them from {@code parameter} and {@code state}; a new value that reads another new value
     * uses that expression, not the tensor it will be written to).
     *
     * @param parameter the parameter
     * @param gradient its accumulated gradient
     * @param state this optimizer's tensors for the parameter, null until the update sets them (make
     *     them with {@link #zerosLike})
     * @param updates where to put each new value
     */
    protected abstract void update(Tensor parameter, Tensor gradient, Tensor[] state, Updates updates);

    /** The new values of one step, written together when every parameter has said its own. */
    protected static final class Updates {
        private final List<Tensor> targets = new ArrayList<>();
        private final List<Tensor> values = new ArrayList<>();

        private Updates() {
        }

        /**
         * @param target a parameter or a piece of state
         * @param value its new value, computed from the values before the step
         */
        public void set(Tensor target, Tensor value) {
            targets.add(target);
            values.add(value);
        }

        private void apply() {
            if (!targets.isEmpty()) {
                Tensor.assign(targets, values);
            }
        }
    }

    /** @return how many state tensors each parameter gets (momentum, moments) */
    protected abstract int stateSize();

    /**
     * @return the names of a parameter's state tensors in {@link #stateDict()}, one per
     *     {@link #stateSize()} (PyTorch's: {@code exp_avg}, {@code momentum_buffer}, ...)
     */
    protected String[] stateNames() {
        String[] names = new String[stateSize()];
        Arrays.setAll(names, i -> "state" + i);
        return names;
    }

    // ------------------------------------------------------------------ checkpoints

    /**
     * The state a checkpoint needs to resume training exactly, PyTorch's {@code optimizer.state_dict()}
     * flattened: {@value #STEP_KEY}, the number of steps taken (a float64 scalar, as PyTorch keeps it),
     * and for the parameter at index i of {@link #parameters()} one entry {@code "i.NAME"} per state
     * tensor ({@link #stateNames()}: {@code "0.exp_avg"}, {@code "0.exp_avg_sq"}, ...). A parameter that
     * was never stepped has no entries. Hyperparameters are not included: they come from the code that
     * makes the optimizer.
     *
     * <pre>{@code
     * Map<String, Tensor> saved = new Adam(model.parameters(), 1e-3).stateDict();   // {step=0.0}
     * }</pre>
     *
     * @return the entries in parameter order, the tensors themselves (not copies; they change with each step)
     */
    public Map<String, Tensor> stateDict() {
        Map<String, Tensor> entries = new LinkedHashMap<>();
        entries.put(STEP_KEY, Tensor.of(new double[] {steps}, DType.FLOAT64));
        String[] names = stateNames();
        for (int index = 0; index < parameters.size(); index++) {
            Tensor[] tensors = state.get(parameters.get(index));
            for (int slot = 0; tensors != null && slot < tensors.length; slot++) {
                if (tensors[slot] != null) {
                    entries.put(index + "." + names[slot], tensors[slot]);
                }
            }
        }
        return entries;
    }

    /**
     * Restores what {@link #stateDict()} saved, from an optimizer of the same kind over parameters of
     * the same shapes: the step count, and each state tensor copied into a buffer of this optimizer's
     * own (converted to the parameter's type). State of parameters that the saved entries do not
     * mention is cleared, as if they had never been stepped.
     *
     * @param saved the entries, e.g. read from a safetensors file
     * @throws EinopsException naming the entry if {@value #STEP_KEY} is missing or not a whole
     *     non-negative number, a name is not {@code "INDEX.NAME"} with a parameter index and a state
     *     name of this optimizer, or a tensor's shape differs from its parameter's
     */
    public void loadStateDict(Map<String, Tensor> saved) {
        Objects.requireNonNull(saved, "saved");
        long restoredSteps = savedSteps(saved.get(STEP_KEY));
        List<String> names = Arrays.asList(stateNames());
        Map<Tensor, Tensor[]> restored = new IdentityHashMap<>();
        for (Map.Entry<String, Tensor> entry : saved.entrySet()) {
            String key = Objects.requireNonNull(entry.getKey(), "saved contains a null name");
            if (key.equals(STEP_KEY)) {
                continue;
            }
            Tensor value = Objects.requireNonNull(entry.getValue(), "saved contains a null tensor for '" + key + "'");
            int dot = key.indexOf('.');
            int index = dot < 0 ? -1 : parameterIndex(key.substring(0, dot));
            int slot = dot < 0 ? -1 : names.indexOf(key.substring(dot + 1));
            if (index < 0 || slot < 0) {
                throw new EinopsException("optimizer state entry '" + key + "' is not 'INDEX.NAME' with INDEX a parameter "
                        + "index below " + parameters.size() + " and NAME one of " + names);
            }
            Tensor parameter = parameters.get(index);
            if (!Arrays.equals(value.shape(), parameter.shape())) {
                throw new EinopsException("optimizer state entry '" + key + "' has shape " + Arrays.toString(value.shape())
                        + " but parameter " + index + " has shape " + Arrays.toString(parameter.shape()));
            }
            Tensor copy = zerosLike(parameter);
            copy.assign(value.dtype() == parameter.dtype() ? value.detach() : value.detach().cast(parameter.dtype()));
            restored.computeIfAbsent(parameter, p -> new Tensor[stateSize()])[slot] = copy;
        }
        state.clear();
        state.putAll(restored);
        steps = restoredSteps;
    }

    private static long savedSteps(Tensor step) {
        if (step == null || step.size() != 1) {
            throw new EinopsException("optimizer state needs '" + STEP_KEY + "', the step count as one number"
                    + (step == null ? "; it is missing" : ", got shape " + Arrays.toString(step.shape())));
        }
        double value = step.toDoubleArray()[0];
        if (!(value >= 0 && value == Math.rint(value) && value < 0x1p53)) {
            throw new EinopsException("optimizer state '" + STEP_KEY + "' must be a whole number of steps, not negative, got " + value);
        }
        return (long) value;
    }

    private int parameterIndex(String text) {
        if (text.isEmpty() || text.length() > 9 || !text.chars().allMatch(c -> c >= '0' && c <= '9')) {
            return -1;
        }
        int index = Integer.parseInt(text);
        return index < parameters.size() ? index : -1;
    }

    /** Clears the gradients of all parameters. */
    public void zeroGrad() {
        parameters.forEach(Tensor::zeroGrad);
    }

    /** @return the parameters, in order (read-only) */
    public List<Tensor> parameters() {
        return Collections.unmodifiableList(parameters);
    }

    /** @return the step size */
    public double learningRate() {
        return learningRate;
    }

    /**
     * Changes the step size (learning-rate schedules).
     *
     * @param learningRate positive and finite
     */
    public void setLearningRate(double learningRate) {
        this.learningRate = Hyperparameters.positive(learningRate, "learning rate");
    }

    /** @return the number of {@link #step()} calls so far (t in Adam's bias correction) */
    public long steps() {
        return steps;
    }

    /**
     * @param like a parameter
     * @return a compact zero tensor of its shape and type, updatable in place
     */
    protected static Tensor zerosLike(Tensor like) {
        // the optimizer's own state: made outside any scope the step runs in, which must not close it
        return TensorScope.unscoped(() -> Tensor.zeros(like.dtype(), like.shape()).contiguous().realize());
    }
}
