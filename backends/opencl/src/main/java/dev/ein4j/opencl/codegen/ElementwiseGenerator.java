package dev.ein4j.opencl.codegen;

import dev.ein4j.ir.Shapes;
import dev.ein4j.kernel.Kernel;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * One work item per element of a segment's iteration shape, in a grid-stride loop: the flat index
 * is split into the multi-index, every instruction of the segment evaluated inline, and the root
 * stored compact. Used for elementwise kernels (the OUTPUT segment) and for a contraction's operand
 * prologues (the LEFT or RIGHT segment, into a temporary).
 */
final class ElementwiseGenerator {

    /** Groups launched at most; the grid-stride loop covers larger outputs. */
    static final long MAX_GROUPS = 65_536;

    private ElementwiseGenerator() {
    }

    /**
     * @param kernel the kernel
     * @param segment the segment to evaluate
     * @param root the instruction whose values are stored
     * @param limits the device's limits
     * @param constants baked or parameterised numbers
     * @param outputTemporary the temporary written, or −1 for the kernel's output
     * @return the launch
     */
    static KernelPlan.Step generate(Kernel kernel, Kernel.Segment segment, int root, DeviceLimits limits, Constants constants,
                                    int outputTemporary) {
        int[] shape = kernel.instruction(root).shape();
        int[] members = kernel.indicesOf(segment);
        SegmentEmitter emitter = new SegmentEmitter(kernel, limits.fp64(), constants);
        emitter.requireShape(members, shape);
        long total = Shapes.size(shape);
        CType outputType = SegmentEmitter.typeOf(kernel.instruction(root));
        String name = "ein_" + segment.name().toLowerCase(Locale.ROOT);
        SourceWriter out = new SourceWriter().raw(Preamble.source(limits.fp64()));
        out.line("// " + kernel.kind().name().toLowerCase(Locale.ROOT) + " kernel, segment " + segment
                + ": one work item per element" + constants.describe(" of " + Arrays.toString(shape)));
        out.open("__kernel void " + name + "(" + Signature.parameters(kernel, outputType, List.of()) + ")");
        out.line("const long total = " + constants.wide(total) + ";");
        out.open("for (long g = get_global_id(0); g < total; g += get_global_size(0))");
        out.line("const int o = (int)g;"); // buffers hold fewer than 2^31 elements
        String[] axes = Indexing.unflatten(out, "o", false, shape, axisNames("i", shape.length), "t", constants);
        emitter.emit(out, members, axes, null);
        out.line("out[o] = " + SegmentEmitter.variable(root) + ";");
        out.close();
        out.close();
        int local = limits.groupSize();
        return new KernelPlan.Step(name, out.toString(), new long[] {Signature.globalSize(total, local, MAX_GROUPS)},
                new long[] {local}, outputTemporary, new int[0], constants.values(),
                "elementwise " + segment.name().toLowerCase(Locale.ROOT));
    }

    /**
     * @param prefix a letter
     * @param rank how many
     * @return prefix0, prefix1, ...
     */
    static String[] axisNames(String prefix, int rank) {
        String[] names = new String[rank];
        for (int k = 0; k < rank; k++) {
            names[k] = prefix + k;
        }
        return names;
    }
}
