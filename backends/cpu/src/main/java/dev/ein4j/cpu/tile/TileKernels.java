package dev.ein4j.cpu.tile;

import dev.ein4j.cpu.WorkerPool;
import dev.ein4j.ir.DType;
import dev.ein4j.ir.Shapes;
import dev.ein4j.kernel.HostData;
import dev.ein4j.kernel.Instruction;
import dev.ein4j.kernel.Kernel;
import dev.ein4j.kernel.Parameters;
import java.util.List;

/**
 * Runs elementwise and reduce kernels (and the epilogues of contractions) tile by tile over the
 * shared workers. Reductions accumulate per task (float sums and products in double, maxima in the
 * input's type, integers in 64 bits) and the tasks' partial results are combined in task order, so
 * a result does not depend on timing. A kernel's reductions share one pass over their source, and
 * its outputs are stored from the same tiles, each tile's values all computed before any is stored
 * (an output may be an input updated in place).
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
     * @param outputs its outputs
     * @param inputs its inputs
     * @param parameters the launch's constants and seeds
     */
    public void run(Kernel kernel, List<HostData> outputs, List<HostData> inputs, Parameters parameters) {
        if (kernel.kind() != Kernel.Kind.REDUCE) {
            segment(kernel, Kernel.Segment.OUTPUT, kernel.outputShape(), kernel.outputIndices(), outputs, inputs,
                    parameters, null);
            return;
        }
        Object[] reductions = reduce(kernel, inputs, parameters);
        if (!kernel.hasEpilogue()) {
            for (int k = 0; k < outputs.size(); k++) {
                Tiles.store(reductions[kernel.outputIndex(k)], outputs.get(k), 0, outputs.get(k).length());
            }
        } else {
            segment(kernel, Kernel.Segment.OUTPUT, kernel.outputShape(), kernel.outputIndices(), outputs, inputs,
                    parameters, reductions);
        }
        int[] reductionIndices = kernel.reductionIndices();
        for (int index : reductionIndices) { // not after a failure: a task might still read them
            TileArena.SHARED.give(kernel.instruction(index).dtype(), reductions[index]);
        }
    }

    /**
     * Evaluates a contraction operand's prologue over its whole shape into a compact array.
     *
     * @param kernel the kernel
     * @param segment LEFT or RIGHT
     * @param shape its iteration shape
     * @param target where its root's values go, compact
     * @param inputs the kernel's inputs
     * @param parameters the launch's constants and seeds
     */
    public void segment(Kernel kernel, Kernel.Segment segment, int[] shape, HostData target, List<HostData> inputs,
                        Parameters parameters) {
        int[] members = kernel.indicesOf(segment);
        segment(kernel, segment, shape, new int[] {members[members.length - 1]}, List.of(target), inputs, parameters, null);
    }

    private void segment(Kernel kernel, Kernel.Segment segment, int[] shape, int[] roots, List<HostData> targets,
                         List<HostData> inputs, Parameters parameters, Object[] reductions) {
        if (Shapes.size(shape) == 0) {
            return;
        }
        // Without a reduction read by flat index, the space may reorder its dimensions; the
        // targets are then written through an access of their own (row-major strides of the shape).
        boolean reorder = reductions == null;
        List<long[]> extras = reorder ? List.of(Shapes.contiguousStrides(shape.length == 0 ? new int[] {1} : shape)) : List.of();
        SegmentEvaluator first = new SegmentEvaluator(kernel, segment, shape, extras, inputs, parameters, ops, reorder);
        Space space = first.space();
        if (space.rowLength() == 0) {
            first.release();
            return;
        }
        int tasks = RowWalk.tasks(space, pool);
        SegmentEvaluator[] evaluators = new SegmentEvaluator[tasks];
        evaluators[0] = first;
        RowWalk.run(space, pool, tasks, 1, (task, outer, rowFlat, start, length, rows) -> {
            SegmentEvaluator evaluator = evaluators[task];
            if (evaluator == null) {
                evaluator = new SegmentEvaluator(kernel, segment, shape, extras, inputs, parameters, ops, reorder);
                evaluators[task] = evaluator;
            }
            evaluator.setReductionValues(reductions);
            evaluator.beginRows(outer, rows);
            evaluator.evaluate(rowFlat, start, length);
            for (int k = 0; k < roots.length; k++) {
                Object tile = evaluator.tile(roots[k]);
                HostData target = targets.get(k);
                if (reorder) {
                    long stride = evaluator.extraStride(0);
                    for (int r = 0; r < rows; r++) {
                        Tiles.scatter(tile, r * length, target, evaluator.extraBase(0, r) + start * stride, stride, length);
                    }
                } else {
                    Tiles.store(tile, target, (int) (rowFlat + start), length * rows); // rows in flat order
                }
            }
        });
        SegmentEvaluator.releaseAll(evaluators); // not after a failure: a task might still hold its tiles
    }

    /**
     * An epilogue to run on flat ranges of the output as they become final (a contraction's blocks),
     * from any worker thread; each thread keeps its own tile arrays.
     *
     * @param kernel the contraction kernel
     * @param output its output
     * @param inputs its inputs
     * @param parameters the launch's constants and seeds
     * @param reduction the contraction's values by flat index (tile-typed array)
     * @return the epilogue
     */
    public Epilogue epilogue(Kernel kernel, HostData output, List<HostData> inputs, Parameters parameters, Object reduction) {
        return new Epilogue(kernel, output, inputs, parameters, reduction);
    }

    /** See {@link #epilogue}. */
    public final class Epilogue {
        private final Kernel kernel;
        private final HostData output;
        private final ThreadLocal<SegmentEvaluator> evaluators;

        private Epilogue(Kernel kernel, HostData output, List<HostData> inputs, Parameters parameters, Object reduction) {
            this.kernel = kernel;
            this.output = output;
            Object[] reductions = new Object[kernel.size()];
            reductions[kernel.reductionIndex()] = reduction;
            this.evaluators = ThreadLocal.withInitial(() -> {
                SegmentEvaluator evaluator = new SegmentEvaluator(kernel, Kernel.Segment.OUTPUT, kernel.outputShape(),
                        List.of(), inputs, parameters, ops);
                evaluator.setReductionValues(reductions);
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
            int root = kernel.outputIndex(0);
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

    /** @return each reduction's values (indexed by instruction) in the row-major order of the reduced shape, tile-typed */
    private Object[] reduce(Kernel kernel, List<HostData> inputs, Parameters parameters) {
        int[] reductionIndices = kernel.reductionIndices();
        Instruction first = kernel.instruction(reductionIndices[0]);
        int[] shape = kernel.reductionSourceShape();
        int count = (int) first.size();
        List<long[]> extras = List.of(Accumulator.strides(shape, first.axes()));
        SegmentEvaluator firstEvaluator = new SegmentEvaluator(kernel, Kernel.Segment.REDUCE_SOURCE, shape, extras, inputs,
                parameters, ops, true);
        Space space = firstEvaluator.space();
        int tasks = RowWalk.tasks(space, pool);
        SegmentEvaluator[] evaluators = new SegmentEvaluator[tasks];
        evaluators[0] = firstEvaluator;
        long outerStride = space.accesses.get(space.accesses.size() - 1).strides()[0];
        boolean disjoint = tasks > 1 && space.outerRank() >= 1 && outerStride != 0 && space.shape[0] >= tasks;
        // With the outermost dimension kept, tasks take whole slices of it: each output element is
        // accumulated by one task, in order, into one shared accumulator (no per-task copies).
        Accumulator[][] partials = new Accumulator[disjoint ? 1 : tasks][];
        if (disjoint) {
            partials[0] = accumulators(kernel, reductionIndices, count);
        }
        long alignRows = disjoint ? space.rows() / space.shape[0] : 1;
        RowWalk.run(space, pool, tasks, alignRows, (task, outer, rowFlat, start, length, rows) -> {
            SegmentEvaluator evaluator = evaluators[task];
            if (evaluator == null) {
                evaluator = new SegmentEvaluator(kernel, Kernel.Segment.REDUCE_SOURCE, shape, extras, inputs, parameters, ops, true);
                evaluators[task] = evaluator;
            }
            int slot = disjoint ? 0 : task;
            if (partials[slot] == null) {
                partials[slot] = accumulators(kernel, reductionIndices, count);
            }
            evaluator.beginRows(outer, rows);
            evaluator.evaluate(rowFlat, start, length);
            for (int r = 0; r < reductionIndices.length; r++) {
                int source = kernel.instruction(reductionIndices[r]).source(0);
                partials[slot][r].addRows(evaluator.operand(source), evaluator.operandFrom(source), rows, length,
                        evaluator.bases(), evaluator.extraBaseIndex(0), start, (int) evaluator.extraStride(0));
            }
        });
        SegmentEvaluator.releaseAll(evaluators); // not after a failure: a task might still hold its tiles
        Object[] results = new Object[kernel.size()];
        for (int r = 0; r < reductionIndices.length; r++) {
            Accumulator total = null;
            for (Accumulator[] partial : partials) {
                if (partial != null) {
                    total = total == null ? partial[r] : total.combine(partial[r]);
                }
            }
            Instruction reduce = kernel.instruction(reductionIndices[r]);
            if (total == null) { // an empty space: the identity, given back at once (no partial holds it)
                Accumulator identity = new Accumulator(reduce.op(), kernel.instruction(reduce.source(0)).dtype(), count, ops);
                results[reductionIndices[r]] = identity.results(reduce.dtype());
                identity.release();
            } else {
                results[reductionIndices[r]] = total.results(reduce.dtype());
            }
        }
        for (Accumulator[] partial : partials) {
            for (int r = 0; partial != null && r < partial.length; r++) {
                partial[r].release();
            }
        }
        return results;
    }

    private Accumulator[] accumulators(Kernel kernel, int[] reductionIndices, int count) {
        Accumulator[] accumulators = new Accumulator[reductionIndices.length];
        for (int r = 0; r < reductionIndices.length; r++) {
            Instruction reduce = kernel.instruction(reductionIndices[r]);
            DType type = kernel.instruction(reduce.source(0)).dtype();
            accumulators[r] = new Accumulator(reduce.op(), type, count, ops);
        }
        return accumulators;
    }
}
