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

    void run(Kernel kernel, HostData output, List<HostData> inputs) {
        Instruction contract = kernel.instruction(kernel.reductionIndex());
        ContractSpec spec = contract.contractSpec();
        List<HostData> borrowed = new ArrayList<>();
        try {
            HostData left = operand(kernel, kernel.leftOperand(), Kernel.Segment.LEFT, spec.leftShape(), inputs, borrowed);
            HostData right = operand(kernel, kernel.rightOperand(), Kernel.Segment.RIGHT, spec.rightShape(), inputs, borrowed);
            ContractSpec layout = spec.withOperands(
                    kernel.leftOperand() != null ? kernel.leftOperand().view() : View.contiguous(spec.leftShape()),
                    kernel.rightOperand() != null ? kernel.rightOperand().view() : View.contiguous(spec.rightShape()));
            boolean epilogue = kernel.hasEpilogue();
            HostData product = epilogue ? borrow(contract.dtype(), (int) Shapes.size(spec.outputShape()), borrowed) : output;
            // an output axis that neither operand has (the spec classes it N, with right stride 0:
            // loads arrive with broadcast axes shrunk to 1) holds equal columns: compute one, copy
            // it (a constant seed's gradient would otherwise repeat the whole product along it)
            int[] mLengths = layout.m();
            int[] nLengths = layout.n();
            boolean broadcast = !epilogue && hasBroadcast(nLengths, layout.rightNStrides());
            if (broadcast) {
                nLengths = withoutBroadcast(nLengths, layout.rightNStrides());
            }
            Operand a = new Operand(layout.leftOffset(), ContractSpec.offsets(layout.batch(), layout.leftBatchStrides()),
                    ContractSpec.offsets(mLengths, layout.leftMStrides()), ContractSpec.offsets(layout.k(), layout.leftKStrides()));
            Operand b = new Operand(layout.rightOffset(), ContractSpec.offsets(layout.batch(), layout.rightBatchStrides()),
                    ContractSpec.offsets(layout.k(), layout.rightKStrides()), ContractSpec.offsets(nLengths, layout.rightNStrides()));
            long[] outRows = ContractSpec.offsets(mLengths, layout.outMStrides());
            long[] outColumns = ContractSpec.offsets(nLengths, layout.outNStrides());
            long[] outBatch = ContractSpec.offsets(layout.batch(), layout.outBatchStrides());
            Operand c = new Operand(0, outBatch, outRows, outColumns);
            int batches = outBatch.length;
            int m = outRows.length;
            int n = outColumns.length;
            int k = a.cols().length;
            Object productArray = product instanceof HostData.Float32 f ? f.values() : ((HostData.Float64) product).values();
            TileKernels.Epilogue finish = epilogue ? tiles.epilogue(kernel, output, inputs, productArray) : null;
            boolean blockwise = epilogue && isUnitProgression(outColumns);
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
            if (epilogue && !blockwise) {
                finish.run(0, output.length());
            }
            if (broadcast) {
                copyAlongBroadcast(layout, outBatch, productArray);
            }
        } finally {
            borrowed.forEach(pool::give);
        }
    }

    /** @return whether some dimension longer than 1 has operand stride 0 */
    private static boolean hasBroadcast(int[] lengths, long[] operandStrides) {
        for (int d = 0; d < lengths.length; d++) {
            if (operandStrides[d] == 0 && lengths[d] > 1) {
                return true;
            }
        }
        return false;
    }

    /** @return {@code lengths} with 1 for every dimension whose operand stride is 0 */
    private static int[] withoutBroadcast(int[] lengths, long[] operandStrides) {
        int[] narrow = lengths.clone();
        for (int d = 0; d < narrow.length; d++) {
            narrow[d] = operandStrides[d] == 0 ? 1 : narrow[d];
        }
        return narrow;
    }

    /** Fills every output column from the computed one at index 0 of the broadcast dimensions. */
    private static void copyAlongBroadcast(ContractSpec layout, long[] outBatch, Object output) {
        long[] rows = ContractSpec.offsets(layout.m(), layout.outMStrides());
        long[] columns = ContractSpec.offsets(layout.n(), layout.outNStrides());
        long[] columnSources = ContractSpec.offsets(layout.n(), zeroWhereBroadcast(layout.outNStrides(), layout.rightNStrides()));
        for (long batch : outBatch) {
            for (long row : rows) {
                for (int j = 0; j < columns.length; j++) {
                    // one element of either array type; the sources (index 0 of every broadcast
                    // dimension) are never targets of another element, so the order does not matter
                    System.arraycopy(output, (int) (batch + row + columnSources[j]), output, (int) (batch + row + columns[j]), 1);
                }
            }
        }
    }

    private static long[] zeroWhereBroadcast(long[] outStrides, long[] operandStrides) {
        long[] strides = outStrides.clone();
        for (int d = 0; d < strides.length; d++) {
            strides[d] = operandStrides[d] == 0 ? 0 : strides[d];
        }
        return strides;
    }

    /** An operand in place, or its prologue evaluated into a pooled compact array. */
    private HostData operand(Kernel kernel, Instruction direct, Kernel.Segment segment, int[] shape, List<HostData> inputs,
                             List<HostData> borrowed) {
        if (direct != null) {
            return inputs.get(direct.input());
        }
        int[] members = kernel.indicesOf(segment);
        Instruction root = kernel.instruction(members[members.length - 1]);
        HostData compact = borrow(root.dtype(), (int) Shapes.size(shape), borrowed);
        tiles.segment(kernel, segment, shape, compact, inputs);
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
