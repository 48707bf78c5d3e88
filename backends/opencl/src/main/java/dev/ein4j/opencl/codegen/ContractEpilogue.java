package dev.ein4j.opencl.codegen;

import dev.ein4j.kernel.Kernel;

/**
 * Stores one result of a contraction: the accumulated sum rounded to the contraction's type, then
 * the kernel's epilogue (bias, activation, scale) evaluated at the same flat index of the output,
 * then the store. Written as a block so that it can be repeated for each output a work item owns.
 */
final class ContractEpilogue {

    private final Kernel kernel;
    private final Accumulator accumulator;
    private final SegmentEmitter emitter;
    private final int[] members;
    private final int[] outputShape;
    private final Constants constants;

    /**
     * @param kernel the CONTRACT kernel
     * @param accumulator how its sums accumulate
     * @param fp64 whether double is available
     * @param constants baked or parameterised numbers
     */
    ContractEpilogue(Kernel kernel, Accumulator accumulator, boolean fp64, Constants constants) {
        this.kernel = kernel;
        this.accumulator = accumulator;
        this.constants = constants;
        this.emitter = new SegmentEmitter(kernel, fp64, constants);
        this.members = kernel.indicesOf(Kernel.Segment.OUTPUT);
        this.outputShape = kernel.outputShape();
        emitter.requireShape(members, outputShape);
    }

    /**
     * @param out where to write
     * @param flat the output's flat index (an int expression)
     * @param accumulated the accumulated sum
     */
    void store(SourceWriter out, String flat, String accumulated) {
        out.open("");
        out.line("const int f = " + flat + ";");
        out.line("const " + SegmentEmitter.typeOf(kernel.instruction(kernel.reductionIndex())).cName() + " red = "
                + accumulator.finish(accumulated) + ";");
        if (kernel.hasEpilogue() || members.length > 1) {
            String[] axes = Indexing.unflatten(out, "f", false, outputShape, ElementwiseGenerator.axisNames("e", outputShape.length), "te",
                    constants);
            emitter.emit(out, members, axes, "red");
            out.line("out[f] = " + SegmentEmitter.variable(kernel.size() - 1) + ";");
        } else {
            out.line("out[f] = red;");
        }
        out.close();
    }
}
