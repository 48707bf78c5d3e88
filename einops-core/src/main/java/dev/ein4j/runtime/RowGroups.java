package dev.ein4j.runtime;

import dev.ein4j.ir.View;
import dev.ein4j.kernel.Instruction;
import dev.ein4j.kernel.Kernel;
import dev.ein4j.runtime.Schedule.Launch;
import dev.ein4j.runtime.Schedule.Value;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Finds runs of consecutive launches that are <em>row-local</em> (see
 * {@link dev.ein4j.backend.Backend#executeRowBlocks}): a softmax's row max, its sum of
 * exponentials and its scaled exponentials share the leading dimensions of one input, and each
 * reads the others' results only in its own row, so a backend may run all three on a block of rows
 * while that block is in cache instead of streaming the input from memory three times.
 *
 * <p>A launch joins the run before it when it is elementwise or a reduction over trailing axes only,
 * the run's kernels and it have a common count of leading rows (the product of some leading
 * dimensions of each iteration space), and each of its loads of a value the run computes reads,
 * for the kernel's row g, only row g of that value: no mask over the row dimensions, their strides
 * those of the value's rows, and the rest of the view within one row. Gathers of such values end a
 * run. A run is kept when it holds two or more launches and one of its values (an input or a
 * result) is read by two of them; of the common row counts, the largest is taken (the finest rows).
 */
final class RowGroups {

    /**
     * Launches {@code first..last} (inclusive) share {@code rows} rows.
     *
     * @param first the first launch's index
     * @param last the last launch's index
     * @param rows the rows they share
     */
    record Group(int first, int last, long rows) {
    }

    private RowGroups() {
    }

    /**
     * @param launches a schedule's launches, in order
     * @return its row-local runs, in order, disjoint
     */
    static List<Group> find(List<Launch> launches) {
        List<Group> groups = new ArrayList<>();
        int first = 0;
        while (first < launches.size()) {
            Group group = grow(launches, first);
            if (group != null) {
                groups.add(group);
                first = group.last() + 1;
            } else {
                first++;
            }
        }
        return groups;
    }

    /** @return the longest row-local run from {@code first}, or null if it has fewer than two launches or shares nothing */
    private static Group grow(List<Launch> launches, int first) {
        TreeSet<Long> rows = rowCounts(launches.get(first).kernel());
        Map<Value, Integer> produced = new IdentityHashMap<>();
        int last = first;
        while (!rows.isEmpty()) {
            for (Value output : launches.get(last).outputs()) {
                produced.put(output, last);
            }
            if (last + 1 >= launches.size()) {
                break;
            }
            Launch next = launches.get(last + 1);
            TreeSet<Long> common = rowCounts(next.kernel());
            common.retainAll(rows);
            common.removeIf(count -> !readsRowLocally(next, produced, count));
            if (common.isEmpty()) {
                break;
            }
            rows = common;
            last++;
        }
        if (last == first || rows.isEmpty() || !sharesAValue(launches, first, last)) {
            return null;
        }
        return new Group(first, last, rows.last());
    }

    /**
     * @return the row counts a kernel admits: products of leading dimensions of its iteration space
     *     (for a reduction, those before its first reduced axis), above 1; empty for other kernels
     */
    static TreeSet<Long> rowCounts(Kernel kernel) {
        TreeSet<Long> counts = new TreeSet<>();
        if (kernel.isIndexed() || (kernel.kind() != Kernel.Kind.ELEMENTWISE && kernel.kind() != Kernel.Kind.REDUCE)) {
            return counts;
        }
        int[] shape = kernel.outputShape();
        int leading = shape.length;
        if (kernel.kind() == Kernel.Kind.REDUCE) {
            Instruction reduction = kernel.instruction(kernel.reductionIndex());
            shape = kernel.reductionSourceShape();
            leading = shape.length;
            for (int axis : reduction.axes()) {
                leading = Math.min(leading, axis);
            }
        }
        long product = 1;
        for (int d = 0; d < leading; d++) {
            product *= shape[d];
            if (product > 1) {
                counts.add(product);
            }
        }
        return counts;
    }

    /** Whether every load of a value the run computes reads, for row g of the launch, only row g of that value. */
    private static boolean readsRowLocally(Launch launch, Map<Value, Integer> produced, long rows) {
        Kernel kernel = launch.kernel();
        for (Instruction instruction : kernel.instructions()) {
            if (!instruction.isLoad() && !instruction.isGather()) {
                continue;
            }
            Value value = launch.inputs().get(instruction.input());
            if (!produced.containsKey(value)) {
                continue;
            }
            if (instruction.isGather() || value.size % rows != 0 || !rowLocal(instruction.view(), value.size / rows, rows)) {
                return false;
            }
        }
        return true;
    }

    /**
     * @param view how a kernel reads a value, over the kernel's iteration space (or its epilogue's)
     * @param rowSize the value's elements per row
     * @param rows the row count
     * @return whether the view's leading dimensions of product {@code rows} step through the value's
     *     rows and the rest stays within one row
     */
    static boolean rowLocal(View view, long rowSize, long rows) {
        int[] shape = view.shape();
        long product = 1;
        int leading = 0;
        while (leading < shape.length && product < rows) {
            product *= shape[leading++];
        }
        if (product != rows) {
            return false;
        }
        long expected = rowSize;
        for (int a = leading - 1; a >= 0; a--) {
            boolean whole = !view.hasMask() || (view.maskStart()[a] == 0 && view.maskEnd()[a] == shape[a]);
            if (!whole || (shape[a] > 1 && view.stride(a) != expected)) {
                return false;
            }
            expected *= shape[a];
        }
        long low = view.offset();
        long high = view.offset();
        for (int a = leading; a < shape.length; a++) {
            // only the unmasked positions are read (a padded row reads its pad value elsewhere)
            long first = view.hasMask() ? view.maskStart()[a] : 0;
            long last = (view.hasMask() ? view.maskEnd()[a] : shape[a]) - 1;
            if (last < first) {
                return true; // every position masked: the view reads nothing
            }
            low += Math.min(first * view.stride(a), last * view.stride(a));
            high += Math.max(first * view.stride(a), last * view.stride(a));
        }
        return low >= 0 && high < rowSize;
    }

    /** Whether some value (an input or a result of the run) is read by two of the run's launches. */
    private static boolean sharesAValue(List<Launch> launches, int first, int last) {
        Map<Value, Integer> readers = new IdentityHashMap<>();
        for (int i = first; i <= last; i++) {
            Set<Value> distinct = Collections.newSetFromMap(new IdentityHashMap<>());
            distinct.addAll(launches.get(i).inputs());
            for (Value input : distinct) {
                if (readers.merge(input, 1, Integer::sum) > 1) {
                    return true;
                }
            }
        }
        return false;
    }
}
