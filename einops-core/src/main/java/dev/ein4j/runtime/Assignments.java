package dev.ein4j.runtime;

import dev.ein4j.ir.Node;
import dev.ein4j.ir.View;
import dev.ein4j.kernel.Instruction;
import dev.ein4j.kernel.Kernel;
import dev.ein4j.runtime.Schedule.Launch;
import dev.ein4j.runtime.Schedule.Origin;
import dev.ein4j.runtime.Schedule.Value;
import java.util.ArrayList;
import java.util.List;

/**
 * Where assigned values go ({@code Tensor.assign}, an optimizer step): straight into the target's
 * buffer when the launch computing the value may write it there, otherwise computed aside and
 * copied in after every other launch. A launch writes a target in place when it is elementwise,
 * reads the target only at the element it writes, and nothing after it reads the target or the
 * value; so an update {@code w ← w − η·g} allocates nothing. A scatter into a copy of the target
 * ({@code cache ← cache.scatter(...)}) drops the copy and scatters into the target itself: a key/value
 * cache grows by one step's values without being copied.
 */
final class Assignments {

    private Assignments() {
    }

    /** A wanted node's value: the node's position in the walk, its value and the view it is read through. */
    record Result(int position, Value value, View view) {
    }

    /**
     * @param schedule the schedule, its kernels built
     * @param results the assigned values, one per target
     * @param targets the leaves written, distinct
     * @param walk the walk, to find the targets' leaf indices
     */
    static void plan(Schedule schedule, List<Result> results, List<Node> targets, GraphWalk walk) {
        List<Value> staged = new ArrayList<>();
        List<Integer> stagedTargets = new ArrayList<>();
        for (int k = 0; k < results.size(); k++) {
            Result result = results.get(k);
            int leaf = -(walk.reference(targets.get(k)) + 1);
            Value value = result.value();
            boolean compact = result.view().isContiguous() && value.size == result.view().size();
            if (compact && value.origin == Origin.COMPUTED && value.into < 0 && writesInPlace(schedule, value, leaf, walk)) {
                value.into = leaf;
                continue;
            }
            if (compact && value.origin == Origin.COMPUTED && value.into < 0 && scattersInPlace(schedule, value, leaf, walk)) {
                continue;
            }
            Value aside = value;
            if (!compact || value.origin != Origin.COMPUTED || value.into >= 0) {
                // a view, a leaf or a value already written elsewhere: a compact copy of its own first
                aside = schedule.launch(Kernel.copy(value.dtype, result.view(), value.dtype), List.of(value)).outputs().get(0);
            }
            staged.add(aside);
            stagedTargets.add(leaf);
        }
        for (int k = 0; k < staged.size(); k++) {
            Value aside = staged.get(k);
            Value copy = schedule.launch(Kernel.copy(aside.dtype, View.contiguous(aside.shape), aside.dtype), List.of(aside))
                    .outputs().get(0);
            copy.into = stagedTargets.get(k);
        }
    }

    /** Whether the launch computing the value may write it straight into the leaf. */
    private static boolean writesInPlace(Schedule schedule, Value value, int leaf, GraphWalk walk) {
        int producer = -1;
        for (int i = 0; i < schedule.launches.size() && producer < 0; i++) {
            if (schedule.launches.get(i).outputs().contains(value)) {
                producer = i;
            }
        }
        Launch launch = schedule.launches.get(producer);
        if (value.lastUse >= 0 || launch.kernel().kind() != Kernel.Kind.ELEMENTWISE) {
            return false;
        }
        for (int i = producer + 1; i < schedule.launches.size(); i++) {
            for (Value input : schedule.launches.get(i).inputs()) {
                if (readsLeaf(input, leaf, walk)) {
                    return false;
                }
            }
        }
        View whole = View.contiguous(launch.kernel().outputShape());
        for (Instruction instruction : launch.kernel().instructions()) {
            if (instruction.isLoad() && readsLeaf(launch.inputs().get(instruction.input()), leaf, walk)
                    && !instruction.view().equals(whole)) {
                return false;
            }
        }
        for (Value output : launch.outputs()) {
            if (output.into >= 0 && walk.aliasClass(output.into) == walk.aliasClass(leaf)) {
                return false;
            }
        }
        return true;
    }

    /**
     * A scatter whose base copy was made from the target itself: the copy is dropped and the scatter
     * writes the target, when the copy read the target whole, the scatter kernel reads nothing of it,
     * and nothing after the scatter reads the target or the value.
     *
     * @return whether the value is now written in place
     */
    private static boolean scattersInPlace(Schedule schedule, Value value, int leaf, GraphWalk walk) {
        int scatter = -1;
        int copy = -1;
        for (int i = 0; i < schedule.launches.size(); i++) {
            if (schedule.launches.get(i).outputs().contains(value)) {
                if (copy < 0) {
                    copy = i;
                } else {
                    scatter = i;
                }
            }
        }
        if (scatter != copy + 1 || value.lastUse != scatter || schedule.launches.get(scatter).kernel().kind() != Kernel.Kind.SCATTER) {
            return false;
        }
        Launch filling = schedule.launches.get(copy);
        Kernel copyKernel = filling.kernel();
        boolean wholeTarget = copyKernel.size() == 1 && copyKernel.instruction(0).isLoad() && filling.inputs().size() == 1
                && readsLeaf(filling.inputs().get(0), leaf, walk) && filling.inputs().get(0).size == value.size
                && copyKernel.instruction(0).view().equals(View.contiguous(copyKernel.outputShape()))
                && walk.leafData.get(filling.inputs().get(0).leaf).view().isContiguous();
        if (!wholeTarget) {
            return false;
        }
        for (Value input : schedule.launches.get(scatter).inputs()) {
            if (readsLeaf(input, leaf, walk)) {
                return false;
            }
        }
        for (int i = scatter + 1; i < schedule.launches.size(); i++) {
            for (Value input : schedule.launches.get(i).inputs()) {
                if (readsLeaf(input, leaf, walk)) {
                    return false;
                }
            }
        }
        schedule.remove(copy);
        value.into = leaf;
        return true;
    }

    /** Whether the value is the leaf's buffer, or another leaf's sharing its storage. */
    private static boolean readsLeaf(Value value, int leaf, GraphWalk walk) {
        return value.origin == Origin.LEAF && walk.aliasClass(value.leaf) == walk.aliasClass(leaf);
    }
}
