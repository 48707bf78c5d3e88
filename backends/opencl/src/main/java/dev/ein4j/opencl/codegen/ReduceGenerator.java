package dev.ein4j.opencl.codegen;

import dev.ein4j.kernel.Instruction;
import dev.ein4j.kernel.Kernel;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A REDUCE kernel as one launch (two when split): for each output (a position of the kept axes) the
 * prologue is evaluated once at every position of the reduced axes and each reduction's source
 * accumulated into its own accumulator (a batch norm's sum and sum of squares in one pass); the
 * results are rounded to each reduction's type and the epilogue runs on them before the outputs
 * are stored. The schedule (one work item or one work group per output, or a split in two passes)
 * is {@link ReductionSchedule}'s.
 */
final class ReduceGenerator {

    private ReduceGenerator() {
    }

    /**
     * @param kernel a REDUCE kernel
     * @param limits the device's limits
     * @param constants baked or parameterised numbers
     * @param temporaries the plan's temporaries (a split reduction adds its partials)
     * @return the launches
     */
    static List<KernelPlan.Step> generate(Kernel kernel, DeviceLimits limits, Constants constants,
                                          List<KernelPlan.Temporary> temporaries) {
        int[] reductions = kernel.reductionIndices();
        Instruction first = kernel.instruction(reductions[0]);
        int[] shape = kernel.reductionSourceShape();
        int[] reducedAxes = first.axes();
        boolean[] isReduced = new boolean[shape.length];
        for (int axis : reducedAxes) {
            isReduced[axis] = true;
        }
        int[] kept = java.util.stream.IntStream.range(0, shape.length).filter(k -> !isReduced[k]).toArray();
        int[] keptLengths = Arrays.stream(kept).map(k -> shape[k]).toArray();
        int[] reducedLengths = Arrays.stream(reducedAxes).map(k -> shape[k]).toArray();
        long outputs = kernel.outputSize();
        long length = product(reducedLengths);

        SegmentEmitter emitter = new SegmentEmitter(kernel, limits.fp64(), constants);
        int[] prologue = kernel.indicesOf(Kernel.Segment.REDUCE_SOURCE);
        emitter.requireShape(prologue, shape);
        int[] epilogue = kernel.indicesOf(Kernel.Segment.OUTPUT);
        int[] outputShape = kernel.outputShape();
        emitter.requireShape(epilogue, outputShape);
        List<Accumulator> accumulators = new ArrayList<>();
        for (int reduction : reductions) {
            Instruction reduce = kernel.instruction(reduction);
            accumulators.add(Accumulator.of(reduce.op(), reduce.dtype(), sourceType(kernel, reduction), limits.fp64()));
        }
        int innermost = shape.length - 1;
        while (innermost >= 0 && shape[innermost] == 1) {
            innermost--;
        }
        boolean coalescedItems = innermost < 0 || !isReduced[innermost];

        String[] axes = new String[shape.length];
        String[] names = ElementwiseGenerator.axisNames("i", shape.length);
        ReductionLoop.Parts parts = new ReductionLoop.Parts() {
            @Override
            public void setup(SourceWriter out, String o) {
                String[] keptAxes = Indexing.unflatten(out, o, false, keptLengths, pick(names, kept), "to", constants);
                for (int j = 0; j < kept.length; j++) {
                    axes[kept[j]] = keptAxes[j];
                }
            }

            @Override
            public String[] elements(SourceWriter out, String r) {
                String[] reducedNames = Indexing.unflatten(out, r, length > Integer.MAX_VALUE, reducedLengths,
                        pick(names, reducedAxes), "tr", constants);
                for (int j = 0; j < reducedAxes.length; j++) {
                    axes[reducedAxes[j]] = reducedNames[j];
                }
                emitter.emit(out, prologue, axes, null);
                String[] values = new String[reductions.length];
                for (int j = 0; j < reductions.length; j++) {
                    int source = kernel.instruction(reductions[j]).source(0);
                    values[j] = accumulators.get(j).lift(SegmentEmitter.variable(source), sourceType(kernel, reductions[j]));
                }
                return values;
            }

            @Override
            public void finish(SourceWriter out, String o, String[] accumulated) {
                for (int j = 0; j < reductions.length; j++) {
                    out.line("const " + SegmentEmitter.typeOf(kernel.instruction(reductions[j])).cName() + " " + result(j) + " = "
                            + accumulators.get(j).finish(accumulated[j]) + ";");
                }
                String[] outputAxes = Indexing.unflatten(out, o, false, outputShape,
                        ElementwiseGenerator.axisNames("e", outputShape.length), "te", constants);
                emitter.emit(out, epilogue, outputAxes, index -> result(Arrays.binarySearch(reductions, index)));
                SegmentEmitter.store(out, o, kernel.outputIndices());
            }
        };
        StringBuilder ops = new StringBuilder();
        for (int reduction : reductions) {
            ops.append(ops.length() == 0 ? "" : ", ").append(kernel.instruction(reduction).op());
        }
        String header = "// reduce " + ops + " over axes " + Arrays.toString(reducedAxes)
                + constants.describe(" of " + Arrays.toString(shape) + ": " + outputs + " outputs of " + length + " elements");
        return ReductionSchedule.steps(new ReductionSchedule.Job(kernel, "ein_reduce", header, outputs, length, accumulators,
                coalescedItems, parts, List.of(), new int[0], Signature.outputTypes(kernel), new int[0]), limits, constants, temporaries);
    }

    private static CType sourceType(Kernel kernel, int reduction) {
        return SegmentEmitter.typeOf(kernel.instruction(kernel.instruction(reduction).source(0)));
    }

    /** The variable holding reduction number {@code j}'s rounded result. */
    private static String result(int j) {
        return "red" + j;
    }

    private static String[] pick(String[] names, int[] axes) {
        return Arrays.stream(axes).mapToObj(a -> names[a]).toArray(String[]::new);
    }

    static long product(int[] lengths) {
        long product = 1;
        for (int length : lengths) {
            product *= length;
        }
        return product;
    }
}
