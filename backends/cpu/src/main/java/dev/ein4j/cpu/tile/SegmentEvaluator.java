package dev.ein4j.cpu.tile;

import dev.ein4j.ir.DType;
import dev.ein4j.ir.Op;
import dev.ein4j.ir.View;
import dev.ein4j.kernel.CounterRandom;
import dev.ein4j.kernel.HostData;
import dev.ein4j.kernel.Instruction;
import dev.ein4j.kernel.Kernel;
import java.util.ArrayList;
import java.util.List;

/**
 * Evaluates the instructions of one kernel segment over tiles of its (merged) iteration space:
 * each instruction fills a typed array for the tile, primitive by primitive, so dispatch happens
 * once per tile and the loops themselves are tight (and vectorized where the Vector API is there).
 * One evaluator per worker task: it owns its tile arrays.
 */
final class SegmentEvaluator {

    /** The most elements in one tile: the tiles of a kernel stay in L1/L2 together. */
    static final int TILE = 2048;

    private final Kernel kernel;
    private final int[] members;
    private final int[] accessOf;
    private final Space space;
    private final List<HostData> inputs;
    private final TileArithmetic arithmetic;
    private final Object[] tiles;
    private final long[] bases;
    private final boolean[] rowValid;
    private final int viewCount;
    private Object reductionValues;

    /**
     * @param kernel the kernel
     * @param segment the segment to evaluate
     * @param shape the segment's iteration shape
     * @param extraStrides further accesses of the space (an accumulator, the output), or empty
     * @param inputs the kernel's input buffers
     * @param ops the tile loops
     */
    SegmentEvaluator(Kernel kernel, Kernel.Segment segment, int[] shape, List<long[]> extraStrides,
                     List<HostData> inputs, TileOps ops) {
        this.kernel = kernel;
        this.members = kernel.indicesOf(segment);
        this.accessOf = new int[kernel.size()];
        List<View> views = new ArrayList<>();
        for (int i : members) {
            View view = kernel.instruction(i).view();
            accessOf[i] = view == null ? -1 : views.size();
            if (view != null) {
                views.add(view);
            }
        }
        this.viewCount = views.size();
        this.space = Space.of(shape, views, extraStrides);
        this.inputs = inputs;
        this.arithmetic = new TileArithmetic(ops);
        int tile = Math.min(TILE, space.rowLength());
        this.tiles = new Object[kernel.size()];
        for (int i : members) {
            tiles[i] = Tiles.allocate(kernel.instruction(i).dtype(), Math.max(1, tile));
        }
        this.bases = new long[space.accesses.size()];
        this.rowValid = new boolean[space.accesses.size()];
    }

    /** @return the merged iteration space */
    Space space() {
        return space;
    }

    /** @param values the reduction's results by flat index (an epilogue reads them), a float[] or double[] tile-typed array */
    void setReductionValues(Object values) {
        this.reductionValues = values;
    }

    /** @param index an instruction of the segment; @return its tile */
    Object tile(int index) {
        return tiles[index];
    }

    /** @return the base position of a further access (an accumulator) for the current row */
    long extraBase(int extra) {
        return bases[viewCount + extra];
    }

    /** @return the innermost stride of a further access */
    long extraStride(int extra) {
        return space.accesses.get(viewCount + extra).strides()[space.shape.length - 1];
    }

    /**
     * Moves to a row of the merged space.
     *
     * @param outer the indices of all dimensions but the innermost
     */
    void beginRow(int[] outer) {
        for (int a = 0; a < bases.length; a++) {
            Space.Access access = space.accesses.get(a);
            long base = access.offset();
            boolean valid = true;
            for (int k = 0; k < outer.length; k++) {
                base += outer[k] * access.strides()[k];
                if (access.masked()) {
                    valid &= outer[k] >= access.maskStart()[k] && outer[k] < access.maskEnd()[k];
                }
            }
            bases[a] = base;
            rowValid[a] = valid;
        }
    }

    /** @return the position of access a at element {@code index} of the current row */
    long position(int access, int index) {
        return bases[access] + index * space.accesses.get(access).strides()[space.shape.length - 1];
    }

    /**
     * Evaluates every instruction of the segment for one tile of the current row.
     *
     * @param rowFlat the flat index of the row's first element (for reading the reduction's results)
     * @param start the tile's first index along the row
     * @param length the tile's length
     */
    void evaluate(long rowFlat, int start, int length) {
        for (int i : members) {
            Instruction instruction = kernel.instruction(i);
            if (instruction.isReduction()) {
                System.arraycopy(reductionValues, (int) (rowFlat + start), tiles[i], 0, length);
            } else if (accessOf[i] >= 0) {
                read(i, instruction, start, length);
            } else if (instruction.op() == Op.WHERE) {
                arithmetic.where(instruction.dtype(), tiles[i], (boolean[]) tiles[instruction.source(0)],
                        tiles[instruction.source(1)], tiles[instruction.source(2)], length);
            } else {
                DType operandType = kernel.instruction(instruction.source(0)).dtype();
                Object y = instruction.sourceCount() > 1 ? tiles[instruction.source(1)] : null;
                arithmetic.apply(instruction.op(), instruction.dtype(), operandType, tiles[i], tiles[instruction.source(0)],
                        y, null, length);
            }
        }
    }

    /** A load or generator: the (virtual) buffer at the access's positions, the pad value where masked. */
    private void read(int i, Instruction instruction, int start, int length) {
        int a = accessOf[i];
        Space.Access access = space.accesses.get(a);
        int last = space.shape.length - 1;
        int from = 0;
        int to = length;
        if (!rowValid[a]) {
            to = 0;
        } else if (access.masked()) {
            from = Math.max(0, Math.min(length, access.maskStart()[last] - start));
            to = Math.max(from, Math.min(length, access.maskEnd()[last] - start));
        }
        Object tile = tiles[i];
        Tiles.fill(tile, 0, from, access.pad());
        Tiles.fill(tile, to, length, access.pad());
        long stride = access.strides()[last];
        long position = bases[a] + (long) (start + from) * stride;
        switch (instruction.op()) {
            case INPUT -> Tiles.gather(inputs.get(instruction.input()), tile, from, to, position, stride);
            case CONST -> Tiles.fill(tile, from, to, instruction.constant());
            case IOTA -> {
                for (int j = from; j < to; j++, position += stride) {
                    Tiles.set(tile, j, position);
                }
            }
            case RAND -> {
                boolean single = instruction.dtype() != DType.FLOAT64;
                long seed = instruction.seed();
                for (int j = from; j < to; j++, position += stride) {
                    Tiles.set(tile, j, single ? CounterRandom.uniformFloat(seed, position) : CounterRandom.uniformDouble(seed, position));
                }
            }
            default -> throw new IllegalStateException(instruction.op() + " does not read");
        }
    }
}
