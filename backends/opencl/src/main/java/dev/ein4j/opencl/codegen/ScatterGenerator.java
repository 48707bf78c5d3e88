package dev.ein4j.opencl.codegen;

import dev.ein4j.ir.Op;
import dev.ein4j.ir.Shapes;
import dev.ein4j.kernel.Indexed;
import dev.ein4j.kernel.Instruction;
import dev.ein4j.kernel.Kernel;
import java.util.Arrays;
import java.util.List;

/**
 * A SCATTER kernel as one launch, deterministic and equal to the interpreter without atomics. Two
 * values can land on one output element only if they agree on every coordinate but the scattered
 * one, so one work item owns each position of the other axes (a line along the scattered axis) and
 * walks that axis serially, in the interpreter's (ascending) order: for each value it evaluates the
 * prologue, checks the position and writes the value, or adds it rounding to the type after each
 * addition, into the output, which holds the base on entry. Later writes win and additions happen
 * in order, as in the interpreter. The parallelism is the number of lines (the values' size over
 * their length along the axis): a scatter along the only axis of a vector runs in one work item.
 *
 * <pre>{@code
 * // out[i0, x, i2] (+)= values[i0, a, i2] with x = positions[i0, a, i2], for a = 0, 1, ... in one item per (i0, i2)
 * }</pre>
 */
final class ScatterGenerator {

    /** Groups launched at most; the grid-stride loop covers more lines. */
    static final long MAX_GROUPS = 65_536;

    private ScatterGenerator() {
    }

    /**
     * @param kernel a SCATTER kernel
     * @param limits the device's limits
     * @param constants baked or parameterised numbers
     * @return the launch
     */
    static KernelPlan.Step generate(Kernel kernel, DeviceLimits limits, Constants constants) {
        int scatterIndex = kernel.scatterIndex();
        Instruction scatter = kernel.instruction(scatterIndex);
        Indexed indexed = scatter.indexed();
        int axis = indexed.axis();
        int[] shape = kernel.instruction(scatter.source(0)).shape();
        int[] lineShape = shape.clone();
        lineShape[axis] = 1;
        long lines = Shapes.size(lineShape);
        int[] members = kernel.indicesOf(Kernel.Segment.SCATTER_SOURCE);
        SegmentEmitter emitter = new SegmentEmitter(kernel, limits.fp64(), constants);
        emitter.requireShape(members, shape);
        CType type = SegmentEmitter.typeOf(scatter);

        SourceWriter out = new SourceWriter().raw(Preamble.source(limits.fp64(), true));
        out.line("// scatter (" + (indexed.accumulate() ? "add" : "set") + ") along axis " + axis
                + constants.describe(" of " + Arrays.toString(shape) + " into " + Arrays.toString(scatter.shape()))
                + ": one work item per line along the axis, walked in order");
        out.open("__kernel void ein_scatter(" + Signature.parameters(kernel, Signature.outputTypes(kernel), List.of(), constants) + ")");
        out.line("const long lines = " + constants.wide(lines) + ";");
        out.line("const int length = " + constants.integer(shape[axis]) + ";");
        out.open("for (long g = get_global_id(0); g < lines; g += get_global_size(0))");
        out.line("const int o = (int)g;"); // fewer lines than output elements, which a buffer holds
        String[] axes = Indexing.unflatten(out, "o", false, lineShape, ElementwiseGenerator.axisNames("i", shape.length), "t",
                constants);
        axes[axis] = "a";
        out.open("for (int a = 0; a < length; a++)");
        emitter.emit(out, members, axes, null);
        String position = "x" + scatterIndex;
        out.line("const int " + position + " = " + SegmentEmitter.variable(scatter.source(1)) + ";");
        out.open("if (" + position + " < 0 || " + position + " >= " + constants.integer(indexed.length()) + ")");
        out.line(IndexChecks.record(IndexChecks.slotOf(kernel, scatterIndex), IndexChecks.position(shape, axes, constants), position));
        out.close();
        out.open("else");
        out.line("const int target = " + target(scatter.shape(), axes, axis, position, constants) + ";");
        String value = SegmentEmitter.variable(scatter.source(0));
        if (indexed.accumulate()) {
            String element = Signature.output(0) + "[target]";
            value = new OpEmitter(limits.fp64()).apply(Op.ADD, type, new String[] {element, value}, new CType[] {type, type});
        }
        out.line(Signature.output(0) + "[target] = " + value + ";");
        out.close();
        out.close();
        out.close();
        out.close();
        int local = groupSize(lines, limits);
        return new KernelPlan.Step("ein_scatter", out.toString(), new long[] {Signature.globalSize(lines, local, MAX_GROUPS)},
                new long[] {local}, new int[0], new int[0], constants.values(), "scatter");
    }

    /**
     * Lines are few when the values are long along the axis: the groups shrink (halving) until there
     * are at least as many as compute units, so that every unit walks some lines.
     *
     * @return the work-group size
     */
    static int groupSize(long lines, DeviceLimits limits) {
        int local = limits.groupSize();
        while (local > 1 && (lines + local - 1) / local < limits.computeUnits()) {
            local /= 2;
        }
        return local;
    }

    /** The output's flat index: the line's coordinates, the position along the axis (the output is compact). */
    private static String target(int[] outputShape, String[] axes, int axis, String position, Constants constants) {
        long[] strides = Shapes.contiguousStrides(outputShape);
        StringBuilder sum = new StringBuilder();
        for (int k = 0; k < outputShape.length; k++) {
            String index = k == axis ? position : axes[k];
            if (constants.isBaked() && ("0".equals(index) || outputShape[k] == 1 && k != axis)) {
                continue;
            }
            sum.append(sum.length() == 0 ? "" : " + ").append(index).append(" * ").append(constants.integer(strides[k]));
        }
        return sum.length() == 0 ? "0" : sum.toString();
    }
}
