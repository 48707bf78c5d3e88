package dev.ein4j.runtime;

import dev.ein4j.ir.DType;
import dev.ein4j.ir.Node;
import dev.ein4j.ir.View;
import dev.ein4j.kernel.Kernel;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The short list of kernels a realization runs: every buffer involved ({@link Value}s), the
 * launches in order, and which buffer and view each requested node ends up as. Built by
 * {@link ScheduleBuilder}, run by {@link Realizer}, printed by {@link #explain()}.
 */
final class Schedule {

    /** Where a value's data comes from. */
    enum Origin {
        /** Already computed on this backend. */
        EXISTING,
        /** Computed on another backend: copied over through the host first. */
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
        final Realized existing;
        int lastUse = -1;
        boolean pinned;
        /** For an assignment: the storage this launch output is written into instead of a new buffer. */
        Storage into;

        Value(int id, Origin origin, DType dtype, int[] shape, Realized existing) {
            this.id = id;
            this.origin = origin;
            this.dtype = dtype;
            this.shape = shape.clone();
            this.size = dev.ein4j.ir.Shapes.size(shape);
            this.existing = existing;
        }

        String label() {
            return "%" + id + " " + dtype.numpyName() + Arrays.toString(shape).replace(" ", "");
        }
    }

    /** One kernel launch: writes {@code output} from {@code inputs} (one per slot). */
    record Launch(Kernel kernel, Value output, List<Value> inputs) {
    }

    /** A requested node: this value read through this view. */
    record Binding(Node node, Value value, View view) {
    }

    final List<Value> values = new ArrayList<>();
    final List<Launch> launches = new ArrayList<>();
    final List<Binding> bindings = new ArrayList<>();

    Value newValue(Origin origin, DType dtype, int[] shape, Realized existing) {
        Value value = new Value(values.size(), origin, dtype, shape, existing);
        values.add(value);
        return value;
    }

    Launch launch(Kernel kernel, int[] shape, List<Value> inputs) {
        Value output = newValue(Origin.COMPUTED, kernel.outputType(), shape, null);
        Launch launch = new Launch(kernel, output, List.copyOf(inputs));
        for (Value input : inputs) {
            input.lastUse = launches.size();
        }
        launches.add(launch);
        return launch;
    }

    /** @return the kernel list: each kernel's inputs, output, size, and program */
    String explain() {
        StringBuilder text = new StringBuilder();
        text.append(launches.size()).append(launches.size() == 1 ? " kernel" : " kernels");
        long bytes = launches.stream().mapToLong(launch -> launch.output().size * launch.output().dtype.bytes()).sum();
        text.append(", ").append(formatBytes(bytes)).append(" written\n");
        for (int i = 0; i < launches.size(); i++) {
            Launch launch = launches.get(i);
            List<String> inputs = new ArrayList<>();
            for (Value input : launch.inputs()) {
                inputs.add(input.label());
            }
            text.append(i + 1).append(". ").append(launch.kernel().kind().name().toLowerCase(java.util.Locale.ROOT))
                    .append(" -> ").append(launch.output().label()).append(" (")
                    .append(formatBytes(launch.output().size * launch.output().dtype.bytes())).append(")")
                    .append(" <- ").append(inputs.isEmpty() ? "nothing" : String.join(", ", inputs)).append('\n');
            for (String line : launch.kernel().toString().split("\n")) {
                if (!line.startsWith("kernel ")) {
                    text.append("   ").append(line).append('\n');
                }
            }
        }
        for (Binding binding : bindings) {
            text.append("result ").append(Arrays.toString(binding.node().shape())).append(" = ")
                    .append(binding.value().label()).append(binding.view().isContiguous() ? "" : " via " + binding.view())
                    .append('\n');
        }
        return text.toString().stripTrailing();
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
