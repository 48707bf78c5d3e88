package dev.ein4j.cpu.tile;

import dev.ein4j.cpu.WorkerPool;
import dev.ein4j.cpu.gemm.CacheSizes;
import dev.ein4j.ir.DType;
import dev.ein4j.ir.Shapes;
import dev.ein4j.kernel.HostData;
import dev.ein4j.kernel.Instruction;
import dev.ein4j.kernel.Kernel;
import dev.ein4j.kernel.Parameters;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;

/**
 * Runs row-local kernels ({@link dev.ein4j.backend.Backend#executeRowBlocks}) block by block: every
 * kernel of the run on rows [a, b), then every kernel on the next block, so that the block's data,
 * read from memory by the first kernel, is still in L2 for the others. A softmax of [8192, 4096]
 * float32 reads its input once instead of three times.
 *
 * <p>A block holds as many rows as fit in half the L2 the OS reports (the bytes of all the run's
 * buffers divided by its rows give a row's share), and no more than leave four blocks per worker;
 * each worker takes consecutive blocks. A reduction's row is accumulated by the one worker that owns
 * it, in order, so results do not depend on timing. Runs whose buffers fit in L2 together gain
 * nothing: {@link #run} declines them and the caller runs the kernels one by one.
 */
public final class RowBlocks {

    private static final long LEVEL2 = CacheSizes.ofMachine().level2();

    private final TileOps ops;
    private final WorkerPool pool;
    private final java.util.concurrent.atomic.AtomicLong runs = new java.util.concurrent.atomic.AtomicLong();

    /**
     * @param ops the tile loops
     * @param pool the workers
     */
    public RowBlocks(TileOps ops, WorkerPool pool) {
        this.ops = ops;
        this.pool = pool;
    }

    /** @return whether the run's kernels are all ones this class runs (elementwise or reduce, no gather or scatter) */
    public static boolean supports(List<Kernel> kernels) {
        for (Kernel kernel : kernels) {
            if (kernel.isIndexed() || !TileKernels.supports(kernel)) {
                return false;
            }
        }
        return true;
    }

    /**
     * @param kernels the run's kernels, in order ({@link #supports})
     * @param outputs each kernel's outputs
     * @param inputs each kernel's inputs
     * @param parameters each kernel's parameters
     * @param rows the rows they share
     * @return false (and nothing run) when blocking would not pay: the caller runs the kernels in order
     */
    public boolean run(List<Kernel> kernels, List<List<HostData>> outputs, List<List<HostData>> inputs,
                       List<Parameters> parameters, long rows) {
        long bytes = bytes(outputs, inputs);
        if (bytes <= LEVEL2 || rows < 2) {
            return false;
        }
        long rowBytes = Math.max(1, bytes / rows);
        long blockRows = Math.max(1, Math.min(LEVEL2 / 2 / rowBytes, rows / (4L * pool.parallelism())));
        long blocks = (rows + blockRows - 1) / blockRows;
        int tasks = (int) Math.min(blocks, 4L * pool.parallelism());
        Reduction[] reductions = new Reduction[kernels.size()];
        for (int k = 0; k < kernels.size(); k++) {
            if (kernels.get(k).kind() == Kernel.Kind.REDUCE) {
                reductions[k] = new Reduction(kernels.get(k), ops);
            }
        }
        try {
            pool.parallelFor(tasks, task -> {
                Stage[] stages = new Stage[kernels.size()];
                try {
                    for (long block = blocks * task / tasks; block < blocks * (task + 1) / tasks; block++) {
                        long from = block * blockRows;
                        long to = Math.min(rows, from + blockRows);
                        for (int k = 0; k < stages.length; k++) {
                            if (stages[k] == null) {
                                stages[k] = new Stage(kernels.get(k), reductions[k], outputs.get(k), inputs.get(k),
                                        parameters.get(k), rows, ops);
                            }
                            stages[k].run(from, to);
                        }
                    }
                } finally {
                    for (Stage stage : stages) {
                        if (stage != null) {
                            stage.release();
                        }
                    }
                }
            });
        } finally {
            for (Reduction reduction : reductions) {
                if (reduction != null) {
                    reduction.release();
                }
            }
        }
        runs.incrementAndGet();
        return true;
    }

    /** @return how many runs were interleaved over blocks of rows so far */
    public long runs() {
        return runs.get();
    }

    /** @return the bytes of every distinct buffer the run reads or writes */
    private static long bytes(List<List<HostData>> outputs, List<List<HostData>> inputs) {
        Set<HostData> seen = Collections.newSetFromMap(new IdentityHashMap<>());
        long bytes = 0;
        for (List<List<HostData>> lists : List.of(outputs, inputs)) {
            for (List<HostData> list : lists) {
                for (HostData data : list) {
                    if (seen.add(data)) {
                        bytes += (long) data.length() * data.dtype().bytes();
                    }
                }
            }
        }
        return bytes;
    }

    /** A reduce kernel's running values and rounded results, shared by the workers (each owns whole rows). */
    private static final class Reduction {
        final int[] indices;
        final Accumulator[] accumulators;
        final Object[] results;
        final DType[] types;

        Reduction(Kernel kernel, TileOps ops) {
            indices = kernel.reductionIndices();
            Instruction first = kernel.instruction(indices[0]);
            int count = (int) first.size();
            accumulators = new Accumulator[indices.length];
            results = new Object[kernel.size()];
            types = new DType[indices.length];
            for (int r = 0; r < indices.length; r++) {
                Instruction reduce = kernel.instruction(indices[r]);
                accumulators[r] = new Accumulator(reduce.op(), kernel.instruction(reduce.source(0)).dtype(), count, ops);
                types[r] = reduce.dtype();
                results[indices[r]] = TileArena.SHARED.take(reduce.dtype(), count);
            }
        }

        void release() {
            for (int r = 0; r < indices.length; r++) {
                accumulators[r].release();
                TileArena.SHARED.give(types[r], results[indices[r]]);
            }
        }
    }

    /** One kernel on one worker: its evaluators, run on a block of rows at a time. */
    private static final class Stage {
        private final Kernel kernel;
        private final Reduction reduction;
        private final List<HostData> outputs;
        private final SegmentEvaluator source;
        private final SegmentEvaluator output;
        private final long sourceRow;
        private final long outputRow;

        Stage(Kernel kernel, Reduction reduction, List<HostData> outputs, List<HostData> inputs, Parameters parameters,
              long rows, TileOps ops) {
            this.kernel = kernel;
            this.reduction = reduction;
            this.outputs = outputs;
            int[] shape = kernel.outputShape();
            outputRow = Shapes.size(shape) / rows;
            if (reduction != null) {
                Instruction first = kernel.instruction(reduction.indices[0]);
                int[] sourceShape = kernel.reductionSourceShape();
                sourceRow = Shapes.size(sourceShape) / rows;
                source = new SegmentEvaluator(kernel, Kernel.Segment.REDUCE_SOURCE, sourceShape,
                        List.of(Accumulator.strides(sourceShape, first.axes())), inputs, parameters, ops, false);
            } else {
                sourceRow = 0;
                source = null;
            }
            boolean epilogue = reduction == null || kernel.hasEpilogue();
            output = epilogue ? new SegmentEvaluator(kernel, Kernel.Segment.OUTPUT, shape, List.of(), inputs, parameters, ops, false)
                    : null;
            if (output != null && reduction != null) {
                output.setReductionValues(reduction.results);
            }
        }

        /** Runs rows [from, to) of the kernel. */
        void run(long from, long to) {
            long outputFrom = from * outputRow;
            int count = (int) ((to - from) * outputRow);
            if (reduction != null) {
                accumulate(from * sourceRow, to * sourceRow);
                for (int r = 0; r < reduction.indices.length; r++) {
                    reduction.accumulators[r].resultsInto(reduction.results[reduction.indices[r]], reduction.types[r],
                            (int) outputFrom, count);
                }
            }
            if (output == null) {
                for (int k = 0; k < outputs.size(); k++) {
                    Tiles.store(reduction.results[kernel.outputIndex(k)], (int) outputFrom, outputs.get(k), (int) outputFrom, count);
                }
                return;
            }
            RowWalk.walkFlat(output.space(), outputFrom, outputFrom + count, (task, outer, rowFlat, start, length, rows) -> {
                output.beginRows(outer, rows);
                output.evaluate(rowFlat, start, length);
                for (int k = 0; k < outputs.size(); k++) {
                    Tiles.store(output.tile(kernel.outputIndex(k)), outputs.get(k), (int) (rowFlat + start), length * rows);
                }
            });
        }

        private void accumulate(long from, long to) {
            int[] indices = reduction.indices;
            RowWalk.walkFlat(source.space(), from, to, (task, outer, rowFlat, start, length, rows) -> {
                source.beginRows(outer, rows);
                source.evaluate(rowFlat, start, length);
                for (int r = 0; r < indices.length; r++) {
                    int operand = kernel.instruction(indices[r]).source(0);
                    reduction.accumulators[r].addRows(source.operand(operand), source.operandFrom(operand), rows, length,
                            source.bases(), source.extraBaseIndex(0), start, (int) source.extraStride(0));
                }
            });
        }

        void release() {
            if (source != null) {
                source.release();
            }
            if (output != null) {
                output.release();
            }
        }
    }
}
