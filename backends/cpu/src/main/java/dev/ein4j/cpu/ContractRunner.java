package dev.ein4j.cpu;

import dev.ein4j.cpu.gemm.Gemm;
import dev.ein4j.cpu.gemm.Operand;
import dev.ein4j.cpu.tile.TileKernels;
import dev.ein4j.ir.DType;
import dev.ein4j.ir.Shapes;
import dev.ein4j.ir.View;
import dev.ein4j.kernel.ContractSpec;
import dev.ein4j.kernel.HostData;
import dev.ein4j.kernel.Instruction;
import dev.ein4j.kernel.Kernel;
import dev.ein4j.kernel.Parameters;
import java.util.ArrayList;
import java.util.List;

/**
 * Contraction kernels on the packed GEMM: each operand is read in place through its view (a
 * transposed or broadcast weight is packed straight from its buffer), or, when the kernel gives it
 * a prologue, evaluated into a pooled compact array first. Without an epilogue the GEMM writes the
 * output; with one, it writes a pooled array and the epilogue (bias, activation, scale) runs on
 * each block of the output as soon as the block is final, while it is still in cache.
 */
final class ContractRunner {

    private final Gemm gemm;
    private final TileKernels tiles;
    private final BufferPool pool;
    private final OffsetTables offsetTables = new OffsetTables();

    ContractRunner(Gemm gemm, TileKernels tiles, BufferPool pool) {
        this.gemm = gemm;
        this.tiles = tiles;
        this.pool = pool;
    }

    /** @return whether the GEMM can run this contraction (float types) */
    static boolean supports(Kernel kernel) {
        DType type = kernel.contractSpec().accumulation();
        return type == DType.FLOAT32 || type == DType.FLOAT64;
    }

    void run(Kernel kernel, HostData output, List<HostData> inputs, Parameters parameters) {
        Instruction contract = kernel.instruction(kernel.reductionIndex());
        ContractSpec spec = contract.contractSpec();
        List<HostData> borrowed = new ArrayList<>();
        try {
            HostData left = operand(kernel, kernel.leftOperand(), Kernel.Segment.LEFT, spec.leftShape(), inputs, parameters, borrowed);
            HostData right = operand(kernel, kernel.rightOperand(), Kernel.Segment.RIGHT, spec.rightShape(), inputs, parameters,
                    borrowed);
            ContractSpec layout = spec.withOperands(
                    kernel.leftOperand() != null ? kernel.leftOperand().view() : View.contiguous(spec.leftShape()),
                    kernel.rightOperand() != null ? kernel.rightOperand().view() : View.contiguous(spec.rightShape()));
            boolean epilogue = kernel.hasEpilogue();
            HostData product = epilogue ? borrow(contract.dtype(), (int) Shapes.size(spec.outputShape()), borrowed) : output;
            Operand a = new Operand(layout.leftOffset(), offsetTables.offsets(layout.batch(), layout.leftBatchStrides()),
                    offsetTables.offsets(layout.m(), layout.leftMStrides()), offsetTables.offsets(layout.k(), layout.leftKStrides()));
            Operand b = new Operand(layout.rightOffset(), offsetTables.offsets(layout.batch(), layout.rightBatchStrides()),
                    offsetTables.offsets(layout.k(), layout.rightKStrides()), offsetTables.offsets(layout.n(), layout.rightNStrides()));
            long[] outRows = offsetTables.offsets(layout.m(), layout.outMStrides());
            long[] outColumns = offsetTables.offsets(layout.n(), layout.outNStrides());
            long[] outBatch = offsetTables.offsets(layout.batch(), layout.outBatchStrides());
            Operand c = new Operand(0, outBatch, outRows, outColumns);
            int batches = outBatch.length;
            int m = outRows.length;
            int n = outColumns.length;
            int k = a.cols().length;
            Object productArray = product instanceof HostData.Float32 f ? f.values() : ((HostData.Float64) product).values();
            TileKernels.Epilogue finish = epilogue ? tiles.epilogue(kernel, output, inputs, parameters, productArray) : null;
            // replicated axes (in neither operand) hold copies of index 0: the epilogue waits for them
            boolean blockwise = epilogue && !layout.hasReplicas() && isUnitProgression(outColumns);
            dev.ein4j.cpu.gemm.BlockListener listener = blockwise ? (batch, rowFrom, rowTo, colFrom, colTo) -> {
                for (int row = rowFrom; row < rowTo; row++) {
                    long start = outBatch[batch] + outRows[row] + outColumns[colFrom];
                    finish.run(start, start + (colTo - colFrom));
                }
            } : null;
            if (product instanceof HostData.Float32) {
                gemm.multiply(batches, m, n, k, ((HostData.Float32) left).values(), a, ((HostData.Float32) right).values(), b,
                        (float[]) productArray, c, listener);
            } else {
                gemm.multiply(batches, m, n, k, ((HostData.Float64) left).values(), a, ((HostData.Float64) right).values(), b,
                        (double[]) productArray, c, listener);
            }
            // one element of either array type; index 0 of the replicated axes is never a copy's target
            layout.replicate((from, to) -> System.arraycopy(productArray, (int) from, productArray, (int) to, 1));
            if (epilogue && !blockwise) {
                finish.run(0, output.length());
            }
        } finally {
            borrowed.forEach(pool::give);
        }
    }

    /** An operand in place, or its prologue evaluated into a pooled compact array. */
    private HostData operand(Kernel kernel, Instruction direct, Kernel.Segment segment, int[] shape, List<HostData> inputs,
                             Parameters parameters, List<HostData> borrowed) {
        if (direct != null) {
            return inputs.get(direct.input());
        }
        int[] members = kernel.indicesOf(segment);
        Instruction root = kernel.instruction(members[members.length - 1]);
        HostData compact = borrow(root.dtype(), (int) Shapes.size(shape), borrowed);
        tiles.segment(kernel, segment, shape, compact, inputs, parameters);
        return compact;
    }

    private HostData borrow(DType dtype, int length, List<HostData> borrowed) {
        HostData data = pool.take(dtype, length);
        borrowed.add(data);
        return data;
    }

    private static boolean isUnitProgression(long[] offsets) {
        for (int i = 1; i < offsets.length; i++) {
            if (offsets[i] - offsets[i - 1] != 1) {
                return false;
            }
        }
        return true;
    }
}
