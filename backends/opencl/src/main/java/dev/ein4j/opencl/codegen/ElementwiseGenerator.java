package dev.ein4j.opencl.codegen;

import dev.ein4j.ir.Shapes;
import dev.ein4j.kernel.ContractSpec;
import dev.ein4j.kernel.Instruction;
import dev.ein4j.kernel.Kernel;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * One work item per element of a segment's iteration shape, in a grid-stride loop: the flat index
 * is split into the multi-index, every instruction of the segment evaluated inline, then the roots
 * stored compact, each into its buffer. Used for elementwise kernels (the OUTPUT segment, every
 * output), for a contraction's operand prologues (the LEFT or RIGHT segment, into a temporary),
 * and for the epilogue of a contraction with replicated axes (the OUTPUT segment, reading the
 * product computed once at replica 0).
 */
final class ElementwiseGenerator {

    /** Groups launched at most; the grid-stride loop covers larger outputs. */
    static final long MAX_GROUPS = 65_536;

    /** The temporary holding a contraction's product, as the replica epilogue reads it. */
    static final String PRODUCT = "product";

    private ElementwiseGenerator() {
    }

    /**
     * @param kernel an elementwise kernel
     * @param limits the device's limits
     * @param constants baked or parameterised numbers
     * @return the launch writing every output
     */
    static KernelPlan.Step outputs(Kernel kernel, DeviceLimits limits, Constants constants) {
        return write(kernel, Kernel.Segment.OUTPUT, kernel.outputShape(), kernel.outputIndices(), Signature.outputTypes(kernel),
                new int[0], null, limits, constants);
    }

    /**
     * @param kernel a contraction kernel
     * @param segment LEFT or RIGHT
     * @param root the operand's instruction
     * @param limits the device's limits
     * @param constants baked or parameterised numbers
     * @param temporary the temporary written
     * @return the launch evaluating the operand into a compact temporary of its shape
     */
    static KernelPlan.Step prologue(Kernel kernel, Kernel.Segment segment, int root, DeviceLimits limits, Constants constants,
                                    int temporary) {
        Instruction operand = kernel.instruction(root);
        return write(kernel, segment, operand.shape(), new int[] {root}, List.of(SegmentEmitter.typeOf(operand)),
                new int[] {temporary}, null, limits, constants);
    }

    /**
     * The epilogue of a contraction whose product was computed at replica 0 only: every output
     * element reads the product at its replica-0 position (its replicated digits zeroed), then the
     * epilogue runs and the output is stored.
     *
     * @param kernel a contraction kernel with replicated axes
     * @param spec its contraction
     * @param limits the device's limits
     * @param constants baked or parameterised numbers
     * @param product the temporary holding the product (compact in the spec's output shape)
     * @return the launch
     */
    static KernelPlan.Step replicas(Kernel kernel, ContractSpec spec, DeviceLimits limits, Constants constants, int product) {
        String type = SegmentEmitter.typeOf(kernel.instruction(kernel.reductionIndex())).cName();
        Replicas read = new Replicas(spec, type, product);
        return write(kernel, Kernel.Segment.OUTPUT, kernel.outputShape(), kernel.outputIndices(), Signature.outputTypes(kernel),
                new int[0], read, limits, constants);
    }

    /** Where the replica epilogue finds a contraction's value: the product at the replica-0 position. */
    private record Replicas(ContractSpec spec, String type, int temporary) {
        String declare(SourceWriter out, String flat, Constants constants) {
            out.line("int r0 = " + flat + ";");
            int[] lengths = spec.replicated();
            long[] strides = spec.outReplicatedStrides();
            for (int g = 0; g < lengths.length; g++) {
                String stride = constants.integer(strides[g]);
                out.line("r0 -= ((" + flat + " / " + stride + ") % " + constants.integer(lengths[g]) + ") * " + stride + ";");
            }
            out.line("const " + type + " red = " + PRODUCT + "[r0];");
            return "red";
        }
    }

    private static KernelPlan.Step write(Kernel kernel, Kernel.Segment segment, int[] shape, int[] roots, List<CType> outputTypes,
                                         int[] outputTemporaries, Replicas replicas, DeviceLimits limits, Constants constants) {
        int[] members = kernel.indicesOf(segment);
        SegmentEmitter emitter = new SegmentEmitter(kernel, limits.fp64(), constants);
        emitter.requireShape(members, shape);
        long total = Shapes.size(shape);
        List<String[]> reads = replicas == null ? List.of() : List.<String[]>of(new String[] {PRODUCT, replicas.type()});
        int[] readIndices = replicas == null ? new int[0] : new int[] {replicas.temporary()};
        String name = "ein_" + segment.name().toLowerCase(Locale.ROOT);
        SourceWriter out = new SourceWriter().raw(Preamble.source(limits.fp64(), IndexChecks.slots(kernel) > 0));
        out.line("// " + kernel.kind().name().toLowerCase(Locale.ROOT) + " kernel, segment " + segment
                + (replicas == null ? "" : " (replicas of the product)") + ": one work item per element"
                + constants.describe(" of " + Arrays.toString(shape)));
        out.open("__kernel void " + name + "(" + Signature.parameters(kernel, outputTypes, reads, constants) + ")");
        out.line("const long total = " + constants.wide(total) + ";");
        out.open("for (long g = get_global_id(0); g < total; g += get_global_size(0))");
        out.line("const int o = (int)g;"); // buffers hold fewer than 2^31 elements
        String product = replicas == null ? null : replicas.declare(out, "o", constants);
        String[] axes = Indexing.unflatten(out, "o", false, shape, axisNames("i", shape.length), "t", constants);
        emitter.emit(out, members, axes, index -> product);
        SegmentEmitter.store(out, "o", roots);
        out.close();
        out.close();
        int local = limits.groupSize();
        return new KernelPlan.Step(name, out.toString(), new long[] {Signature.globalSize(total, local, MAX_GROUPS)},
                new long[] {local}, outputTemporaries, readIndices, constants.values(),
                "elementwise " + segment.name().toLowerCase(Locale.ROOT) + (replicas == null ? "" : " (replicas)"));
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
