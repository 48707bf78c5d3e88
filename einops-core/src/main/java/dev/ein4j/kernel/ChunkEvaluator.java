package dev.ein4j.kernel;

import dev.ein4j.ir.DType;
import dev.ein4j.ir.Op;
import dev.ein4j.ir.Shapes;
import dev.ein4j.ir.View;
import java.util.List;

/**
 * Evaluates one segment of a kernel, primitive by primitive, over chunks of its iteration shape:
 * each chunk is a run of at most {@link #CHUNK} consecutive elements along the innermost axis, and
 * each instruction fills an array of doubles for it. Memory stays bounded whatever the shape, so an
 * expanded view of 2^32 elements is reduced without a buffer of that size.
 */
final class ChunkEvaluator {

    static final int CHUNK = 4096;

    /** Receives each evaluated chunk. */
    interface ChunkConsumer {
        /**
         * @param outer the indices of all but the innermost axis
         * @param rowFlat the flat row-major index of the row's first element
         * @param start the chunk's first index along the innermost axis
         * @param length the chunk's number of elements
         */
        void accept(int[] outer, long rowFlat, int start, int length);
    }

    private final Kernel kernel;
    private final int[] members;
    private final List<HostData> inputs;
    private final double[][] values;
    private final View[] views;
    private final Parameters parameters;
    private double[][] reductionValues;

    /**
     * @param kernel the kernel
     * @param segment which instructions to evaluate
     * @param inputs the kernel's input buffers
     * @param parameters the launch's constants and seeds
     */
    ChunkEvaluator(Kernel kernel, Kernel.Segment segment, List<HostData> inputs, Parameters parameters) {
        this.kernel = kernel;
        this.members = kernel.indicesOf(segment);
        this.inputs = inputs;
        this.parameters = parameters;
        this.values = new double[kernel.size()][];
        this.views = new View[kernel.size()];
        int chunk = members.length == 0 ? 1 : chunkLength(kernel.instruction(members[members.length - 1]).shape());
        for (int i : members) {
            values[i] = new double[chunk];
            View view = kernel.instruction(i).view();
            views[i] = view == null || view.rank() > 0 ? view : view.reshape(new int[] {1});
        }
    }

    /** @param results each reduction's results by flat index (indexed by instruction), read by the epilogue */
    void setReductionValues(double[][] results) {
        this.reductionValues = results;
    }

    /**
     * @param index an instruction of this segment
     * @return its values for the last evaluated chunk
     */
    double[] values(int index) {
        return values[index];
    }

    /**
     * Evaluates every instruction of the segment for one chunk.
     *
     * @param outer indices of all but the innermost axis
     * @param rowFlat flat index of the row's first element (for reading the reduction's results)
     * @param start first index along the innermost axis
     * @param length number of elements
     */
    void evaluate(int[] outer, long rowFlat, int start, int length) {
        for (int i : members) {
            Instruction instruction = kernel.instruction(i);
            Op op = instruction.op();
            if (instruction.isReduction()) {
                double[] results = reductionValues[i];
                for (int j = 0; j < length; j++) {
                    values[i][j] = results[(int) (rowFlat + start + j)];
                }
            } else if (instruction.isGather()) {
                gather(instruction, views[i], values[i], values[instruction.source(0)], outer, start, length);
            } else if (instruction.isLoad() || op.group() == Op.Group.CREATION) {
                read(instruction, views[i], values[i], outer, start, length);
            } else {
                double[] x = values[instruction.source(0)];
                double[] y = instruction.sourceCount() > 1 ? values[instruction.source(1)] : null;
                double[] z = instruction.sourceCount() > 2 ? values[instruction.source(2)] : null;
                applyChunk(op, instruction.dtype(), values[i], x, y, z, length);
            }
        }
    }

    /** A load or generator: the (virtual) buffer at the view's positions, the pad value where masked. */
    private void read(Instruction instruction, View view, double[] out, int[] outer, int start, int length) {
        int last = view.rank() - 1;
        long base = view.offset();
        boolean valid = true;
        int[] maskStart = view.maskStart();
        int[] maskEnd = view.maskEnd();
        for (int k = 0; k < last; k++) {
            base += (long) outer[k] * view.stride(k);
            valid &= maskStart == null || outer[k] >= maskStart[k] && outer[k] < maskEnd[k];
        }
        int validFrom = valid ? Math.max(start, maskStart == null ? 0 : maskStart[last]) : start + length;
        int validTo = valid ? Math.min(start + length, maskEnd == null ? start + length : maskEnd[last]) : start;
        double pad = instruction.dtype().round(view.padValue());
        long stride = view.stride(last);
        for (int j = 0; j < length; j++) {
            int index = start + j;
            if (index < validFrom || index >= validTo) {
                out[j] = pad;
            }
        }
        int from = Math.max(validFrom, start) - start;
        int to = Math.max(from, validTo - start);
        long position = base + (start + from) * stride;
        switch (instruction.op()) {
            case INPUT -> gather(inputs.get(instruction.input()), out, from, to, position, stride);
            case CONST -> java.util.Arrays.fill(out, from, to, instruction.dtype().round(parameters.constant(instruction.parameter())));
            case IOTA -> {
                for (int j = from; j < to; j++, position += stride) {
                    out[j] = instruction.dtype().round(position);
                }
            }
            case RAND -> {
                boolean single = instruction.dtype() != DType.FLOAT64;
                long seed = parameters.seed(instruction.parameter());
                for (int j = from; j < to; j++, position += stride) {
                    out[j] = single ? CounterRandom.uniformFloat(seed, position) : CounterRandom.uniformDouble(seed, position);
                }
            }
            default -> throw new IllegalStateException(instruction.op() + " does not read");
        }
    }

    /** An indexed load: the view's position with the gathered coordinate replaced by the index's value. */
    private void gather(Instruction instruction, View view, double[] out, double[] index, int[] outer, int start, int length) {
        Indexed indexed = instruction.indexed();
        int axis = indexed.axis();
        int last = view.rank() - 1;
        long base = view.offset();
        for (int k = 0; k < last; k++) {
            base += (long) outer[k] * view.stride(k);
        }
        long stride = view.stride(last);
        long axisStride = view.stride(axis);
        HostData data = inputs.get(instruction.input());
        for (int j = 0; j < length; j++) {
            long at = (long) index[j];
            if (at < 0 || at >= indexed.length()) {
                throw new dev.ein4j.error.IndexOutOfRangeException("gather", at, axis, indexed.length());
            }
            long coordinate = axis == last ? start + j : outer[axis];
            out[j] = data.get((int) (base + (start + j) * stride + (at - coordinate) * axisStride));
        }
    }

    private static void gather(HostData data, double[] out, int from, int to, long position, long stride) {
        if (from >= to) {
            return;
        }
        if (stride == 0) {
            java.util.Arrays.fill(out, from, to, data.get((int) position));
            return;
        }
        int at = (int) position;
        int step = (int) stride; // a buffer holds at most 2^31 - 9 elements, so positions and in-buffer steps fit an int
        if (data instanceof HostData.Float32 f) {
            float[] a = f.values();
            for (int j = from; j < to; j++, at += step) {
                out[j] = a[at];
            }
        } else if (data instanceof HostData.Float64 d) {
            double[] a = d.values();
            for (int j = from; j < to; j++, at += step) {
                out[j] = a[at];
            }
        } else if (data instanceof HostData.Int32 n) {
            int[] a = n.values();
            for (int j = from; j < to; j++, at += step) {
                out[j] = a[at];
            }
        } else {
            byte[] a = ((HostData.Bool) data).values();
            for (int j = from; j < to; j++, at += step) {
                out[j] = a[at];
            }
        }
    }

    /** One primitive over a chunk, then rounding to the result type. */
    private static void applyChunk(Op op, DType type, double[] out, double[] x, double[] y, double[] z, int n) {
        switch (op) {
            case ADD -> {
                for (int j = 0; j < n; j++) {
                    out[j] = x[j] + y[j];
                }
            }
            case MUL -> {
                if (type == DType.INT32) {
                    for (int j = 0; j < n; j++) {
                        out[j] = (double) ((long) x[j] * (long) y[j]);
                    }
                } else {
                    for (int j = 0; j < n; j++) {
                        out[j] = x[j] * y[j];
                    }
                }
            }
            case CAST, CONTIGUOUS -> System.arraycopy(x, 0, out, 0, n);
            case WHERE -> {
                for (int j = 0; j < n; j++) {
                    out[j] = x[j] != 0.0 ? y[j] : z[j];
                }
            }
            default -> {
                for (int j = 0; j < n; j++) {
                    out[j] = Arithmetic.apply(op, DType.FLOAT64, x[j], y == null ? 0 : y[j], z == null ? 0 : z[j]);
                }
            }
        }
        if (type != DType.FLOAT64) {
            for (int j = 0; j < n; j++) {
                out[j] = type.round(out[j]);
            }
        }
    }

    /** @return the longest chunk a walk over this shape produces */
    static int chunkLength(int[] shape) {
        return shape.length == 0 ? 1 : Math.max(1, Math.min(CHUNK, shape[shape.length - 1]));
    }

    /**
     * Walks a shape row by row in chunks.
     *
     * @param shape the iteration shape (rank 0 is one element)
     * @param consumer what to do with each chunk
     */
    static void forEachChunk(int[] shape, ChunkConsumer consumer) {
        int[] rows = shape.length == 0 ? new int[] {1} : shape;
        long size = Shapes.size(rows);
        if (size == 0) {
            return;
        }
        int last = rows.length - 1;
        int rowLength = rows[last];
        int[] outer = new int[last];
        for (long rowFlat = 0; rowFlat < size; rowFlat += rowLength) {
            for (long start = 0; start < rowLength; start += CHUNK) { // long: a row may be 2^31 - 1 long
                consumer.accept(outer, rowFlat, (int) start, (int) Math.min(CHUNK, rowLength - start));
            }
            for (int k = last - 1; k >= 0; k--) {
                if (++outer[k] < rows[k]) {
                    break;
                }
                outer[k] = 0;
            }
        }
    }
}
