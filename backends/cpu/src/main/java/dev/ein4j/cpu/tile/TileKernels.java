package dev.ein4j.cpu.tile;

import dev.ein4j.cpu.WorkerPool;
import dev.ein4j.ir.DType;
import dev.ein4j.ir.Op;
import dev.ein4j.ir.Shapes;
import dev.ein4j.kernel.Instruction;
import dev.ein4j.kernel.HostData;
import dev.ein4j.kernel.Kernel;
import java.util.List;

/**
 * Runs elementwise and reduce kernels (and the epilogues of contractions) tile by tile over the
 * shared workers. Reductions accumulate per task (float sums and products in double, maxima in the
 * input's type, integers in 64 bits) and the tasks' partial results are combined in task order, so
 * a result does not depend on timing.
 */
public final class TileKernels {

    private final TileOps ops;
    private final WorkerPool pool;

    /**
     * @param ops the tile loops
     * @param pool the workers
     */
    public TileKernels(TileOps ops, WorkerPool pool) {
        this.ops = ops;
        this.pool = pool;
    }

    /** @return whether this class runs the kernel (else the caller falls back to the interpreter) */
    public static boolean supports(Kernel kernel) {
        return kernel.kind() != Kernel.Kind.CONTRACT;
    }

    /**
     * @param kernel an elementwise or reduce kernel
     * @param output its output
     * @param inputs its inputs
     */
    public void run(Kernel kernel, HostData output, List<HostData> inputs) {
        Object reduction = null;
        if (kernel.kind() == Kernel.Kind.REDUCE) {
            reduction = reduce(kernel, inputs);
            if (kernel.reductionIndex() == kernel.size() - 1) {
                storeAll(reduction, output);
                return;
            }
        }
        elementwise(kernel, output, inputs, reduction);
    }

    /**
     * Evaluates the OUTPUT segment over the whole output and writes the root's values.
     *
     * @param kernel the kernel
     * @param output its output
     * @param inputs its inputs
     * @param reduction the reduction's values by flat index (tile-typed array), or null
     */
    private void elementwise(Kernel kernel, HostData output, List<HostData> inputs, Object reduction) {
        segment(kernel, Kernel.Segment.OUTPUT, kernel.outputShape(), output, inputs, reduction);
    }

    /**
     * Evaluates one segment over its whole shape into a compact array (the output, or a
     * contraction operand's prologue).
     *
     * @param kernel the kernel
     * @param segment the segment
     * @param shape its iteration shape
     * @param target where its root's values go, compact
     * @param inputs the kernel's inputs
     */
    public void segment(Kernel kernel, Kernel.Segment segment, int[] shape, HostData target, List<HostData> inputs) {
        segment(kernel, segment, shape, target, inputs, null);
    }

    private void segment(Kernel kernel, Kernel.Segment segment, int[] shape, HostData target, List<HostData> inputs,
                         Object reduction) {
        int[] members = kernel.indicesOf(segment);
        int root = members[members.length - 1];
        if (Shapes.size(shape) == 0) {
            return;
        }
        // Without a reduction read by flat index, the space may reorder its dimensions; the
        // target is then written through an access of its own (row-major strides of the shape).
        boolean reorder = reduction == null;
        List<long[]> extras = reorder ? List.of(Shapes.contiguousStrides(shape.length == 0 ? new int[] {1} : shape)) : List.of();
        SegmentEvaluator first = new SegmentEvaluator(kernel, segment, shape, extras, inputs, ops, reorder);
        Space space = first.space();
        if (space.rowLength() == 0) {
            return;
        }
        int tasks = RowWalk.tasks(space, pool);
        SegmentEvaluator[] evaluators = new SegmentEvaluator[tasks];
        evaluators[0] = first;
        RowWalk.run(space, pool, tasks, 1, (task, outer, rowFlat, start, length, rows) -> {
            SegmentEvaluator evaluator = evaluators[task];
            if (evaluator == null) {
                evaluator = new SegmentEvaluator(kernel, segment, shape, extras, inputs, ops, reorder);
                evaluators[task] = evaluator;
            }
            evaluator.setReductionValues(reduction);
            evaluator.beginRows(outer, rows);
            evaluator.evaluate(rowFlat, start, length);
            Object tile = evaluator.tile(root);
            if (reorder) {
                long stride = evaluator.extraStride(0);
                for (int r = 0; r < rows; r++) {
                    Tiles.scatter(tile, r * length, target, evaluator.extraBase(0, r) + start * stride, stride, length);
                }
            } else {
                Tiles.store(tile, target, (int) (rowFlat + start), length * rows); // rows in flat order
            }
        });
    }

    /**
     * An epilogue to run on flat ranges of the output as they become final (a contraction's blocks),
     * from any worker thread; each thread keeps its own tile arrays.
     *
     * @param kernel the contraction kernel
     * @param output its output
     * @param inputs its inputs
     * @param reduction the contraction's values by flat index (tile-typed array)
     * @return the epilogue
     */
    public Epilogue epilogue(Kernel kernel, HostData output, List<HostData> inputs, Object reduction) {
        return new Epilogue(kernel, output, inputs, reduction);
    }

    /** See {@link #epilogue}. */
    public final class Epilogue {
        private final Kernel kernel;
        private final HostData output;
        private final List<HostData> inputs;
        private final Object reduction;
        private final ThreadLocal<SegmentEvaluator> evaluators;

        private Epilogue(Kernel kernel, HostData output, List<HostData> inputs, Object reduction) {
            this.kernel = kernel;
            this.output = output;
            this.inputs = inputs;
            this.reduction = reduction;
            this.evaluators = ThreadLocal.withInitial(() -> {
                SegmentEvaluator evaluator = new SegmentEvaluator(kernel, Kernel.Segment.OUTPUT, kernel.outputShape(),
                        List.of(), inputs, ops);
                evaluator.setReductionValues(reduction);
                return evaluator;
            });
        }

        /**
         * @param from first flat index of the output
         * @param to one past the last
         */
        public void run(long from, long to) {
            SegmentEvaluator evaluator = evaluators.get();
            Space space = evaluator.space();
            int root = kernel.size() - 1;
            long rowLength = space.rowLength();
            int[] outer = new int[space.shape.length - 1];
            long at = from;
            while (at < to) {
                long row = at / rowLength;
                long remainder = row;
                for (int k = outer.length - 1; k >= 0; k--) {
                    outer[k] = (int) (remainder % space.shape[k]);
                    remainder /= space.shape[k];
                }
                long rowFlat = row * rowLength;
                long rowEnd = Math.min(to, rowFlat + rowLength);
                evaluator.beginRow(outer);
                while (at < rowEnd) {
                    int length = (int) Math.min(SegmentEvaluator.TILE, rowEnd - at);
                    evaluator.evaluate(rowFlat, (int) (at - rowFlat), length);
                    Tiles.store(evaluator.tile(root), output, (int) at, length);
                    at += length;
                }
            }
        }
    }

    // ------------------------------------------------------------------ reductions

    /** @return the reduction's values in the row-major order of the reduced shape, tile-typed */
    private Object reduce(Kernel kernel, List<HostData> inputs) {
        Instruction reduce = kernel.instruction(kernel.reductionIndex());
        int source = reduce.source(0);
        int[] shape = kernel.instruction(source).shape();
        int[] reduced = shape.clone();
        for (int axis : reduce.axes()) {
            reduced[axis] = 1;
        }
        long[] accumulatorStrides = Shapes.contiguousStrides(reduced);
        for (int axis : reduce.axes()) {
            accumulatorStrides[axis] = 0;
        }
        int count = (int) Shapes.size(reduced);
        List<long[]> extras = List.of(accumulatorStrides);
        SegmentEvaluator first = new SegmentEvaluator(kernel, Kernel.Segment.REDUCE_SOURCE, shape, extras, inputs, ops, true);
        Space space = first.space();
        int tasks = RowWalk.tasks(space, pool);
        SegmentEvaluator[] evaluators = new SegmentEvaluator[tasks];
        evaluators[0] = first;
        DType type = kernel.instruction(source).dtype();
        long outerStride = space.accesses.get(space.accesses.size() - 1).strides()[0];
        boolean disjoint = tasks > 1 && space.outerRank() >= 1 && outerStride != 0 && space.shape[0] >= tasks;
        // With the outermost dimension kept, tasks take whole slices of it: each output element is
        // accumulated by one task, in order, into one shared accumulator (no per-task copies).
        Accumulator[] partials = new Accumulator[disjoint ? 1 : tasks];
        if (disjoint) {
            partials[0] = new Accumulator(reduce.op(), type, count, ops);
        }
        long alignRows = disjoint ? space.rows() / space.shape[0] : 1;
        RowWalk.run(space, pool, tasks, alignRows, (task, outer, rowFlat, start, length, rows) -> {
            SegmentEvaluator evaluator = reductionEvaluator(evaluators, task, kernel, shape, extras, inputs);
            int slot = disjoint ? 0 : task;
            if (partials[slot] == null) {
                partials[slot] = new Accumulator(reduce.op(), type, count, ops);
            }
            evaluator.beginRows(outer, rows);
            evaluator.evaluate(rowFlat, start, length);
            Object tile = evaluator.tile(source);
            partials[slot].addRows(tile, rows, length, evaluator.bases(), evaluator.extraBaseIndex(0), start,
                    (int) evaluator.extraStride(0));
        });
        Accumulator total = null;
        for (Accumulator partial : partials) {
            if (partial != null) {
                total = total == null ? partial : total.combine(partial);
            }
        }
        if (total == null) {
            total = new Accumulator(reduce.op(), type, count, ops); // an empty space: the identity
        }
        return total.results(reduce.dtype());
    }

    private SegmentEvaluator reductionEvaluator(SegmentEvaluator[] evaluators, int task, Kernel kernel, int[] shape,
                                                List<long[]> extras, List<HostData> inputs) {
        SegmentEvaluator evaluator = evaluators[task];
        if (evaluator == null) {
            evaluator = new SegmentEvaluator(kernel, Kernel.Segment.REDUCE_SOURCE, shape, extras, inputs, ops, true);
            evaluators[task] = evaluator;
        }
        return evaluator;
    }

    private static void storeAll(Object values, HostData output) {
        Tiles.store(values, output, 0, output.length());
    }
}
