package dev.ein4j.runtime;

import dev.ein4j.ir.DType;
import dev.ein4j.ir.View;
import dev.ein4j.kernel.Kernel;
import dev.ein4j.kernel.Parameters;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The short list of kernels a realization runs, as a plan that refers to no node and no buffer:
 * every buffer involved ({@link Value}s: the walk's leaves by index, the launches' outputs), the
 * launches in order with where each kernel parameter comes from, and which value and view each
 * requested node ends up as. Built once per {@link GraphWalk.Signature} by {@link ScheduleBuilder},
 * kept in the {@link ScheduleCache}, run by {@link Executor} for every graph of that signature.
 */
final class Schedule {

    /** Where a value's data comes from. */
    enum Origin {
        /** A leaf of the walk, on this backend. */
        LEAF,
        /** A leaf of the walk on another backend: copied over through the host first. */
        TRANSFERRED,
        /** Written by a launch of this schedule. */
        COMPUTED
    }

    /** One buffer of the realization. */
    static final class Value {
        final int id;
        final Origin origin;
        final DType dtype;
        final long size;
        final int[] shape;
        /** For LEAF and TRANSFERRED values: the leaf's index in the walk. */
        final int leaf;
        /** The index of the last launch that reads it, or −1. */
        int lastUse = -1;
        /** Bound to a requested node: never given back to the free list. */
        boolean pinned;
        /** For a launch output written in place: the leaf whose buffer it is written into, or −1. */
        int into = -1;

        Value(int id, Origin origin, DType dtype, int[] shape, int leaf) {
            this.id = id;
            this.origin = origin;
            this.dtype = dtype;
            this.shape = shape.clone();
            this.size = dev.ein4j.ir.Shapes.size(shape);
            this.leaf = leaf;
        }

        String label() {
            return "%" + id + " " + dtype.numpyName() + Arrays.toString(shape).replace(" ", "");
        }
    }

    /**
     * One kernel launch: writes {@code outputs} from {@code inputs} (one per slot). Parameter slot
     * s of the kernel reads the walk's parameter {@code parameterSources[s]}, or, where that is
     * −1, the fixed bits {@code fixedParameters[s]} (a number the schedule itself made, such as the
     * length a broadcast reduction multiplies by).
     */
    record Launch(Kernel kernel, List<Value> outputs, List<Value> inputs, int[] parameterSources, long[] fixedParameters) {

        /**
         * @param walkParameters the run's parameter values
         * @return this launch's parameters
         */
        Parameters parameters(long[] walkParameters) {
            if (parameterSources.length == 0) {
                return Parameters.NONE;
            }
            long[] bits = new long[parameterSources.length];
            for (int s = 0; s < bits.length; s++) {
                bits[s] = parameterSources[s] >= 0 ? walkParameters[parameterSources[s]] : fixedParameters[s];
            }
            return Parameters.ofBits(bits);
        }
    }

    /** A node the run binds: the node at this position of the walk's order is this value read through this view. */
    record Binding(int position, Value value, View view) {
    }

    final List<Value> values = new ArrayList<>();
    final List<Launch> launches = new ArrayList<>();
    final List<Binding> bindings = new ArrayList<>();
    /** Runs of launches a backend may interleave over blocks of rows ({@link RowGroups}), set once the launches are final. */
    List<RowGroups.Group> rowGroups = List.of();

    Value leaf(Origin origin, DType dtype, int[] shape, int leaf) {
        Value value = new Value(values.size(), origin, dtype, shape, leaf);
        values.add(value);
        return value;
    }

    Value computed(DType dtype, int[] shape) {
        Value value = new Value(values.size(), Origin.COMPUTED, dtype, shape, -1);
        values.add(value);
        return value;
    }

    /**
     * Appends a launch whose outputs are new values.
     *
     * @param kernel the kernel
     * @param inputs one value per input slot
     * @param parameterSources per parameter slot, the walk parameter it reads, or −1 for a fixed value
     * @param fixedParameters per parameter slot, the fixed bits (where the source is −1)
     * @return the launch
     */
    Launch launch(Kernel kernel, List<Value> inputs, int[] parameterSources, long[] fixedParameters) {
        List<Value> outputs = new ArrayList<>(kernel.outputCount());
        for (int k = 0; k < kernel.outputCount(); k++) {
            outputs.add(computed(kernel.outputType(k), kernel.outputShape()));
        }
        Launch launch = new Launch(kernel, List.copyOf(outputs), List.copyOf(inputs), parameterSources, fixedParameters);
        for (Value input : inputs) {
            input.lastUse = launches.size();
        }
        launches.add(launch);
        return launch;
    }

    /**
     * Appends a launch that updates an existing value in place (a scatter into a copy of its base).
     *
     * @param kernel a kernel of one output
     * @param target the value it updates
     * @param inputs one value per input slot
     * @param parameterSources per parameter slot, the walk parameter it reads, or −1
     * @param fixedParameters per parameter slot, the fixed bits
     * @return the launch
     */
    Launch launchInto(Kernel kernel, Value target, List<Value> inputs, int[] parameterSources, long[] fixedParameters) {
        Launch launch = new Launch(kernel, List.of(target), List.copyOf(inputs), parameterSources, fixedParameters);
        for (Value input : inputs) {
            input.lastUse = launches.size();
        }
        target.lastUse = launches.size(); // kept from the launch that filled it to this one
        launches.add(launch);
        return launch;
    }

    /**
     * Removes a launch (a copy made unnecessary: its output is written in place instead), moving
     * every later index one back.
     *
     * @param index the launch's index
     */
    void remove(int index) {
        launches.remove(index);
        for (Value value : values) {
            if (value.lastUse > index) {
                value.lastUse--;
            } else if (value.lastUse == index) {
                value.lastUse = -1;
            }
        }
    }

    /** @return a launch of a kernel without parameters */
    Launch launch(Kernel kernel, List<Value> inputs) {
        return launch(kernel, inputs, new int[0], new long[0]);
    }

    /**
     * @param walkParameters the run's parameter values, or null to leave them out
     * @return the kernel list: each kernel's inputs, outputs, sizes, program and parameters
     */
    String explain(long[] walkParameters) {
        StringBuilder text = new StringBuilder();
        text.append(launches.size()).append(launches.size() == 1 ? " kernel" : " kernels");
        long bytes = 0;
        for (Launch launch : launches) {
            for (Value output : launch.outputs()) {
                bytes += output.size * output.dtype.bytes();
            }
        }
        text.append(", ").append(formatBytes(bytes)).append(" written\n");
        for (int i = 0; i < launches.size(); i++) {
            Launch launch = launches.get(i);
            List<String> inputs = new ArrayList<>();
            for (Value input : launch.inputs()) {
                inputs.add(input.label());
            }
            List<String> outputs = new ArrayList<>();
            long written = 0;
            for (Value output : launch.outputs()) {
                outputs.add(output.label());
                written += output.size * output.dtype.bytes();
            }
            text.append(i + 1).append(". ").append(launch.kernel().kind().name().toLowerCase(java.util.Locale.ROOT))
                    .append(" -> ").append(String.join(", ", outputs)).append(" (").append(formatBytes(written)).append(")")
                    .append(" <- ").append(inputs.isEmpty() ? "nothing" : String.join(", ", inputs)).append('\n');
            for (String line : launch.kernel().toString().split("\n")) {
                if (!line.startsWith("kernel ")) {
                    text.append("   ").append(line).append('\n');
                }
            }
            if (walkParameters != null && launch.parameterSources().length > 0) {
                Parameters parameters = launch.parameters(walkParameters);
                text.append("     parameters");
                for (int s = 0; s < parameters.size(); s++) {
                    text.append(" p").append(s).append('=').append(describe(launch.kernel(), s, parameters));
                }
                text.append('\n');
            }
        }
        for (RowGroups.Group group : rowGroups) {
            text.append("kernels ").append(group.first() + 1).append('-').append(group.last() + 1).append(" share ")
                    .append(group.rows()).append(" rows: a backend may run them block by block\n");
        }
        for (Binding binding : bindings) {
            text.append("result ").append(Arrays.toString(binding.view().shape())).append(" = ").append(binding.value().label())
                    .append(binding.view().isContiguous() ? "" : " via " + binding.view()).append('\n');
        }
        return text.toString().stripTrailing();
    }

    /** A parameter as its instruction reads it: a number for CONST, "seed N" for RAND. */
    private static String describe(Kernel kernel, int slot, Parameters parameters) {
        for (var instruction : kernel.instructions()) {
            if (instruction.parameter() == slot && instruction.op() == dev.ein4j.ir.Op.RAND) {
                return "seed " + parameters.seed(slot);
            }
        }
        return dev.ein4j.kernel.KernelFormat.number(parameters.constant(slot));
    }

    static String formatBytes(long bytes) {
        if (bytes < 1024) {
            return bytes + " B";
        }
        if (bytes < 1024 * 1024) {
            return String.format(java.util.Locale.ROOT, "%.1f KiB", bytes / 1024.0);
        }
        return String.format(java.util.Locale.ROOT, "%.1f MiB", bytes / (1024.0 * 1024.0));
    }
}
