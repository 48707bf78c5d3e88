package dev.ein4j.opencl.codegen;

import dev.ein4j.kernel.Kernel;

/**
 * Stores one result of a contraction: the accumulated sum rounded to the contraction's type, then
 * the kernel's epilogue (bias, activation, scale) evaluated at the same flat index of the output,
 * then the store. Written as a block so that it can be repeated for each output a work item owns.
 * A contraction with replicated axes stores only the rounded product, into a temporary: its
 * epilogue runs afterwards over every replica ({@link ElementwiseGenerator#replicas}).
 */
final class ContractEpilogue {

    private final Kernel kernel;
    private final Accumulator accumulator;
    private final SegmentEmitter emitter;
    private final int[] members;
    private final int[] outputShape;
    private final Constants constants;
    private final boolean productOnly;

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
        this.productOnly = kernel.contractSpec().hasReplicas();
        emitter.requireShape(members, outputShape);
    }

    /** @return whether only the product is stored (into a temporary), the epilogue running in a later launch */
    boolean productOnly() {
        return productOnly;
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
        if (!productOnly && (kernel.hasEpilogue() || members.length > 1)) {
            String[] axes = Indexing.unflatten(out, "f", false, outputShape, ElementwiseGenerator.axisNames("e", outputShape.length), "te",
                    constants);
            emitter.emit(out, members, axes, index -> "red");
            SegmentEmitter.store(out, "f", kernel.outputIndices());
        } else {
            out.line(Signature.output(0) + "[f] = red;");
        }
        out.close();
    }
}
