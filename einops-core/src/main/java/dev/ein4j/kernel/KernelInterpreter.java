package dev.ein4j.kernel;

import dev.ein4j.ir.DType;
import dev.ein4j.ir.Op;
import dev.ein4j.ir.Shapes;
import dev.ein4j.ir.View;
import java.util.Arrays;
import java.util.List;

/**
 * Runs any {@link Kernel} on host arrays, primitive by primitive, in double precision with every
 * result rounded to its type ({@link Arithmetic}): the semantic definition that backends are tested
 * against. The reference backend is this interpreter over heap buffers; a backend that lacks a
 * fast path for some kernel can copy its buffers to the host and run it here.
 *
 * <p>Reductions accumulate in double (in 64-bit integers for int32 and bool results, wrapping once
 * at the end) and round once. Memory stays bounded by the buffers themselves: iteration shapes are
 * walked in chunks, so a reduction over an expanded view of 2^32 elements needs no buffer of that size.
 */
public final class KernelInterpreter {

    /**
     * The interpreter evaluates a segment in runs of at most this many consecutive elements along
     * the innermost axis, every instruction over a run before the next run: with several indexed
     * instructions, the first bad index in that order is the one reported (a backend reporting
     * index errors itself follows the same order).
     */
    public static final int CHUNK_LENGTH = ChunkEvaluator.CHUNK;

    private KernelInterpreter() {
    }

    /**
     * Runs a kernel with one output.
     *
     * @param kernel the kernel
     * @param output a host array of the kernel's output type and size, overwritten
     * @param inputs one host array per input slot, of the slot's type
     * @param parameters the launch's constants and seeds
     */
    public static void run(Kernel kernel, HostData output, List<HostData> inputs, Parameters parameters) {
        run(kernel, List.of(output), inputs, parameters);
    }

    /**
     * @param kernel the kernel
     * @param outputs one host array per output, of its type and the kernel's output size, overwritten
     *     (an output may be one of the inputs when the kernel reads it only at the element it writes)
     * @param inputs one host array per input slot, of the slot's type
     * @param parameters the launch's constants and seeds, {@link Kernel#parameterCount()} of them
     */
    public static void run(Kernel kernel, List<HostData> outputs, List<HostData> inputs, Parameters parameters) {
        check(kernel, outputs, parameters);
        if (kernel.kind() == Kernel.Kind.SCATTER) {
            scatter(kernel, outputs.get(0), inputs, parameters);
            return;
        }
        double[][] reductionValues = switch (kernel.kind()) {
            case ELEMENTWISE, SCATTER -> null;
            case REDUCE -> reduce(kernel, inputs, parameters);
            case CONTRACT -> contract(kernel, inputs, parameters);
        };
        if (!kernel.hasEpilogue() && reductionValues != null) {
            for (int k = 0; k < outputs.size(); k++) {
                double[] values = reductionValues[kernel.outputIndex(k)];
                HostData output = outputs.get(k);
                for (int i = 0; i < values.length; i++) {
                    output.set(i, values[i]);
                }
            }
            return;
        }
        ChunkEvaluator epilogue = new ChunkEvaluator(kernel, Kernel.Segment.OUTPUT, inputs, parameters);
        epilogue.setReductionValues(reductionValues);
        // every output's chunk is computed before any is stored: an output may be an input read in place
        double[][] chunks = new double[outputs.size()][];
        ChunkEvaluator.forEachChunk(kernel.outputShape(), (outer, rowFlat, start, length) -> {
            epilogue.evaluate(outer, rowFlat, start, length);
            for (int k = 0; k < chunks.length; k++) {
                chunks[k] = epilogue.values(kernel.outputIndex(k));
            }
            for (int k = 0; k < chunks.length; k++) {
                HostData output = outputs.get(k);
                for (int j = 0; j < length; j++) {
                    output.set((int) (rowFlat + start + j), chunks[k][j]);
                }
            }
        });
    }

    private static void check(Kernel kernel, List<HostData> outputs, Parameters parameters) {
        if (outputs.size() != kernel.outputCount()) {
            throw new IllegalArgumentException(outputs.size() + " output buffers for a kernel of " + kernel.outputCount() + " outputs");
        }
        for (int k = 0; k < outputs.size(); k++) {
            HostData output = outputs.get(k);
            if (output.length() != kernel.outputSize() || output.dtype() != kernel.outputType(k)) {
                throw new IllegalArgumentException("output buffer " + output.dtype() + "[" + output.length()
                        + "] for a kernel writing " + kernel.outputType(k) + "[" + kernel.outputSize() + "]");
            }
        }
        if (parameters.size() < kernel.parameterCount()) {
            throw new IllegalArgumentException(parameters.size() + " parameters for a kernel reading " + kernel.parameterCount());
        }
    }

    /**
     * Writes (or adds) the values into the output, which holds the base, at their coordinates with the
     * scattered one replaced by the position; added values round to the type after each addition.
     */
    private static void scatter(Kernel kernel, HostData output, List<HostData> inputs, Parameters parameters) {
        Instruction write = kernel.instruction(kernel.scatterIndex());
        Indexed indexed = write.indexed();
        int axis = indexed.axis();
        int[] shape = kernel.instruction(write.source(0)).shape();
        long[] strides = Shapes.contiguousStrides(write.shape());
        ChunkEvaluator values = new ChunkEvaluator(kernel, Kernel.Segment.SCATTER_SOURCE, inputs, parameters);
        int last = shape.length - 1;
        DType type = write.dtype();
        ChunkEvaluator.forEachChunk(shape, (outer, rowFlat, start, length) -> {
            values.evaluate(outer, rowFlat, start, length);
            double[] source = values.values(write.source(0));
            double[] positions = values.values(write.source(1));
            long base = 0;
            for (int k = 0; k < last; k++) {
                base += k == axis ? 0 : (long) outer[k] * strides[k];
            }
            for (int j = 0; j < length; j++) {
                long at = (long) positions[j];
                if (at < 0 || at >= indexed.length()) {
                    throw new dev.ein4j.error.IndexOutOfRangeException("scatter", at, axis, indexed.length());
                }
                long target = base + at * strides[axis] + (axis == last ? 0 : (start + j) * (last < 0 ? 0 : strides[last]));
                int position = (int) target;
                output.set(position, indexed.accumulate() ? type.round(output.get(position) + source[j]) : source[j]);
            }
        });
    }

    /** @return each reduction's results (indexed by instruction) in the row-major order of the reduced shape, rounded */
    private static double[][] reduce(Kernel kernel, List<HostData> inputs, Parameters parameters) {
        int[] reductions = kernel.reductionIndices();
        Instruction first = kernel.instruction(reductions[0]);
        int[] shape = kernel.reductionSourceShape();
        int[] reduced = shape.clone();
        for (int axis : first.axes()) {
            reduced[axis] = 1;
        }
        long[] outStrides = Shapes.contiguousStrides(reduced);
        for (int axis : first.axes()) {
            outStrides[axis] = 0;
        }
        int count = (int) Shapes.size(reduced);
        Accumulator[] accumulators = new Accumulator[reductions.length];
        for (int r = 0; r < reductions.length; r++) {
            Instruction reduce = kernel.instruction(reductions[r]);
            accumulators[r] = new Accumulator(reduce.op(), reduce.dtype(), count);
        }
        ChunkEvaluator prologue = new ChunkEvaluator(kernel, Kernel.Segment.REDUCE_SOURCE, inputs, parameters);
        int last = shape.length - 1;
        long innerStride = last < 0 ? 0 : outStrides[last];
        ChunkEvaluator.forEachChunk(shape, (outer, rowFlat, start, length) -> {
            prologue.evaluate(outer, rowFlat, start, length);
            long target = 0;
            for (int k = 0; k < last; k++) {
                target += outer[k] * outStrides[k];
            }
            for (int r = 0; r < reductions.length; r++) {
                accumulators[r].add(prologue.values(kernel.instruction(reductions[r]).source(0)), length,
                        (int) (target + start * innerStride), (int) innerStride);
            }
        });
        double[][] results = new double[kernel.size()][];
        for (int r = 0; r < reductions.length; r++) {
            results[reductions[r]] = accumulators[r].results();
        }
        return results;
    }

    /** @return the contraction's results (at its instruction's index) in the row-major order of the spec's output shape */
    private static double[][] contract(Kernel kernel, List<HostData> inputs, Parameters parameters) {
        double[][] results = new double[kernel.size()][];
        results[kernel.reductionIndex()] = contractValues(kernel, inputs, parameters);
        return results;
    }

    private static double[] contractValues(Kernel kernel, List<HostData> inputs, Parameters parameters) {
        Instruction contract = kernel.instruction(kernel.reductionIndex());
        ContractSpec spec = contract.contractSpec();
        if (Shapes.size(spec.outputShape()) == 0) {
            return new double[0]; // an empty output reads nothing (its operands may be empty too)
        }
        Instruction leftLoad = kernel.leftOperand();
        Instruction rightLoad = kernel.rightOperand();
        HostData left = leftLoad != null ? inputs.get(leftLoad.input())
                : evaluateOperand(kernel, Kernel.Segment.LEFT, contract.source(0), inputs, parameters);
        HostData right = rightLoad != null ? inputs.get(rightLoad.input())
                : evaluateOperand(kernel, Kernel.Segment.RIGHT, contract.source(1), inputs, parameters);
        ContractSpec layout = spec.withOperands(
                leftLoad != null ? leftLoad.view() : View.contiguous(spec.leftShape()),
                rightLoad != null ? rightLoad.view() : View.contiguous(spec.rightShape()));
        long[] leftBatch = ContractSpec.offsets(layout.batch(), layout.leftBatchStrides());
        long[] rightBatch = ContractSpec.offsets(layout.batch(), layout.rightBatchStrides());
        long[] outBatch = ContractSpec.offsets(layout.batch(), layout.outBatchStrides());
        long[] leftM = ContractSpec.offsets(layout.m(), layout.leftMStrides());
        long[] outM = ContractSpec.offsets(layout.m(), layout.outMStrides());
        long[] leftK = ContractSpec.offsets(layout.k(), layout.leftKStrides());
        long[] rightK = ContractSpec.offsets(layout.k(), layout.rightKStrides());
        long[] rightN = ContractSpec.offsets(layout.n(), layout.rightNStrides());
        long[] outN = ContractSpec.offsets(layout.n(), layout.outNStrides());
        double[] results = new double[(int) Shapes.size(spec.outputShape())];
        double[] row = new double[rightN.length];
        DType type = contract.dtype();
        for (int b = 0; b < leftBatch.length; b++) {
            for (int m = 0; m < leftM.length; m++) {
                Arrays.fill(row, 0.0);
                long leftBase = layout.leftOffset() + leftBatch[b] + leftM[m];
                long rightBase = layout.rightOffset() + rightBatch[b];
                for (int k = 0; k < leftK.length; k++) {
                    double a = left.get((int) (leftBase + leftK[k]));
                    long rightRow = rightBase + rightK[k];
                    for (int n = 0; n < rightN.length; n++) {
                        row[n] += a * right.get((int) (rightRow + rightN[n]));
                    }
                }
                long outBase = outBatch[b] + outM[m];
                for (int n = 0; n < row.length; n++) {
                    results[(int) (outBase + outN[n])] = type.round(row[n]);
                }
            }
        }
        layout.replicate((from, to) -> results[(int) to] = results[(int) from]);
        return results;
    }

    /** A prologue evaluated into a compact array of the operand's shape. */
    private static HostData evaluateOperand(Kernel kernel, Kernel.Segment segment, int root, List<HostData> inputs,
                                            Parameters parameters) {
        Instruction operand = kernel.instruction(root);
        HostData compact = HostData.allocate(DType.FLOAT64, (int) operand.size());
        ChunkEvaluator evaluator = new ChunkEvaluator(kernel, segment, inputs, parameters);
        ChunkEvaluator.forEachChunk(operand.shape(), (outer, rowFlat, start, length) -> {
            evaluator.evaluate(outer, rowFlat, start, length);
            double[] values = evaluator.values(root);
            for (int j = 0; j < length; j++) {
                compact.set((int) (rowFlat + start + j), values[j]);
            }
        });
        return compact;
    }

    /** Running SUM, REDUCE_MAX or PROD per output element: doubles for floats, wrapping longs for integers. */
    private static final class Accumulator {
        private final Op op;
        private final DType type;
        private final double[] floats;
        private final long[] integers;

        Accumulator(Op op, DType type, int count) {
            this.op = op;
            this.type = type;
            if (type.isFloating()) {
                floats = new double[count];
                integers = null;
                Arrays.fill(floats, Arithmetic.identity(op));
            } else {
                floats = null;
                integers = new long[count];
                Arrays.fill(integers, Arithmetic.integerIdentity(op, type));
            }
        }

        /** Adds values[0..length) to targets target, target + stride, ... (stride 0: all to one). */
        void add(double[] values, int length, int target, int stride) {
            if (integers != null) {
                for (int j = 0; j < length; j++, target += stride) {
                    long acc = integers[target];
                    long x = (long) values[j];
                    integers[target] = op == Op.SUM ? acc + x : op == Op.PROD ? acc * x : Math.max(acc, x);
                }
            } else if (stride == 0) {
                floats[target] = fold(floats[target], values, length);
            } else if (op == Op.SUM) {
                for (int j = 0; j < length; j++, target += stride) {
                    floats[target] += values[j];
                }
            } else {
                for (int j = 0; j < length; j++, target += stride) {
                    floats[target] = op == Op.PROD ? floats[target] * values[j] : Arithmetic.max(floats[target], values[j]);
                }
            }
        }

        /** Folds a run into one accumulator, in order (the reference's summation order). */
        private double fold(double acc, double[] values, int length) {
            switch (op) {
                case SUM -> {
                    for (int j = 0; j < length; j++) {
                        acc += values[j];
                    }
                }
                case PROD -> {
                    for (int j = 0; j < length; j++) {
                        acc *= values[j];
                    }
                }
                default -> {
                    for (int j = 0; j < length; j++) {
                        acc = Arithmetic.max(acc, values[j]);
                    }
                }
            }
            return acc;
        }

        double[] results() {
            if (floats != null) {
                for (int i = 0; i < floats.length; i++) {
                    floats[i] = type.round(floats[i]);
                }
                return floats;
            }
            double[] results = new double[integers.length];
            for (int i = 0; i < results.length; i++) {
                results[i] = type.round((int) integers[i]);
            }
            return results;
        }
    }
}
