package dev.ein4j.cpu.tile;

import dev.ein4j.ir.DType;
import dev.ein4j.ir.Op;
import dev.ein4j.ir.View;
import dev.ein4j.kernel.CounterRandom;
import dev.ein4j.kernel.HostData;
import dev.ein4j.kernel.Instruction;
import dev.ein4j.kernel.Kernel;
import dev.ein4j.kernel.Parameters;
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
    /**
     * Per instruction, what its readers read: its tile, or for a load read in place (see
     * {@link #readInPlace}) the input's array, from {@link #operandFrom}.
     */
    private final Object[] operands;
    private final int[] operandFrom;
    /** Per instruction, whether it is a load whose tile rows may be read in place from the input. */
    private final boolean[] inPlace;
    /** x ≤ y evaluated in one pass, its comparisons skipped. */
    private final LessOrEqualFusion lessOrEqual;
    /** Products read by one sum, and constants, evaluated as x·y + z passes. */
    private final MultiplyAddFusion multiplyAdd;
    /** Per access, the position of each row of the current tile (index access · rowsPerTile + row). */
    private final long[] bases;
    private final boolean[] rowValid;
    private final int rowsPerTile;
    /** Per access and outer dimension k: how far its position moves when k advances by one (later dimensions wrapping). */
    private final long[][] steps;
    private final boolean[] masked;
    /** Per CONST instruction read without a mask: how much of its tile already holds the constant. */
    private final int[] filled;
    private int rows = 1;
    private final int viewCount;
    private final Parameters parameters;
    private Object[] reductionValues;

    /**
     * @param kernel the kernel
     * @param segment the segment to evaluate
     * @param shape the segment's iteration shape
     * @param extraStrides further accesses of the space (an accumulator, the output), or empty
     * @param inputs the kernel's input buffers
     * @param parameters the launch's constants and seeds
     * @param ops the tile loops
     */
    SegmentEvaluator(Kernel kernel, Kernel.Segment segment, int[] shape, List<long[]> extraStrides,
                     List<HostData> inputs, Parameters parameters, TileOps ops) {
        this(kernel, segment, shape, extraStrides, inputs, parameters, ops, false);
    }

    /**
     * @param kernel the kernel
     * @param segment the segment to evaluate
     * @param shape the segment's iteration shape
     * @param extraStrides further accesses (an accumulator, the output), or empty
     * @param inputs the kernel's input buffers
     * @param parameters the launch's constants and seeds
     * @param ops the tile loops
     * @param reorder whether the space may reorder dimensions (see {@link Space#of(int[], List, List, boolean)});
     *     then results must be written through an extra access, and no reduction may be read by flat index
     */
    SegmentEvaluator(Kernel kernel, Kernel.Segment segment, int[] shape, List<long[]> extraStrides,
                     List<HostData> inputs, Parameters parameters, TileOps ops, boolean reorder) {
        this.kernel = kernel;
        this.parameters = parameters;
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
        this.space = Space.of(shape, views, extraStrides, reorder);
        this.inputs = inputs;
        this.arithmetic = new TileArithmetic(ops);
        this.rowsPerTile = RowWalk.rowsPerTile(space);
        int tile = (int) Math.min(TILE, (long) rowsPerTile * space.rowLength());
        this.tiles = new Object[kernel.size()];
        for (int i : members) {
            tiles[i] = TileArena.SHARED.take(kernel.instruction(i).dtype(), Math.max(1, tile));
        }
        this.bases = new long[space.accesses.size() * rowsPerTile];
        this.rowValid = new boolean[space.accesses.size() * rowsPerTile];
        int outer = space.shape.length - 1;
        this.steps = new long[space.accesses.size()][outer];
        this.masked = new boolean[space.accesses.size()];
        this.filled = new int[kernel.size()];
        this.operands = tiles.clone();
        this.operandFrom = new int[kernel.size()];
        this.inPlace = readInPlace(kernel, segment, members, accessOf, space);
        this.lessOrEqual = new LessOrEqualFusion(kernel, members);
        this.multiplyAdd = new MultiplyAddFusion(kernel, members, i -> kernel.instruction(i).op() == Op.CONST
                && accessOf[i] >= 0 && !space.accesses.get(accessOf[i]).masked(), parameters);
        for (int a = 0; a < space.accesses.size(); a++) {
            long[] strides = space.accesses.get(a).strides();
            masked[a] = space.accesses.get(a).masked();
            for (int k = 0; k < outer; k++) { // advancing dimension k wraps every later outer dimension
                long step = strides[k];
                for (int wrapped = k + 1; wrapped < outer; wrapped++) {
                    step -= (long) (space.shape[wrapped] - 1) * strides[wrapped];
                }
                steps[a][k] = step;
            }
        }
    }

    /**
     * A float load whose every reader is binary arithmetic or a comparison of this segment (which
     * take their operands at an offset) and whose view is unmasked with unit stride along the row
     * can be read in place wherever the tile's rows are adjacent in the input (one row, or rows of
     * a contiguous tensor): its tile is then the input's own array from the first row's position,
     * with no copy (a copy per load made a plain add of two 12.8 MB arrays 2.2x slower than
     * the loop alone). A reduction's source may be read in place too (the accumulators take
     * {@link #operand} at {@link #operandFrom}: a row max or sum of an input reads it once, with
     * no copy into a tile). The kernel's outputs, and the root of a segment whose caller reads
     * {@link #tile} (an elementwise kernel, a prologue), keep tiles.
     */
    private static boolean[] readInPlace(Kernel kernel, Kernel.Segment segment, int[] members, int[] accessOf, Space space) {
        boolean[] inPlace = new boolean[kernel.size()];
        boolean[] member = new boolean[kernel.size()];
        for (int i : members) {
            member[i] = true;
            Instruction instruction = kernel.instruction(i);
            Space.Access access = accessOf[i] < 0 ? null : space.accesses.get(accessOf[i]);
            inPlace[i] = instruction.op() == Op.INPUT && access != null && !access.masked() && !access.patterned()
                    && access.strides()[space.shape.length - 1] == 1 && kernel.inputType(instruction.input()) == instruction.dtype()
                    && (instruction.dtype() == DType.FLOAT32 || instruction.dtype() == DType.FLOAT64);
        }
        for (int j = 0; j < kernel.size(); j++) {
            Instruction reader = kernel.instruction(j);
            boolean readsInPlace = member[j] && !reader.isReduction()
                    && TileArithmetic.readsInPlace(reader.op(), reader.sourceCount() > 0 ? kernel.instruction(reader.source(0)).dtype() : null)
                    || segment == Kernel.Segment.REDUCE_SOURCE && reader.isReduction() && reader.op() != Op.CONTRACT;
            for (int k = 0; k < reader.sourceCount(); k++) {
                if (!readsInPlace) {
                    inPlace[reader.source(k)] = false;
                }
            }
        }
        for (int output : kernel.outputIndices()) {
            inPlace[output] = false;
        }
        if (members.length > 0 && segment != Kernel.Segment.REDUCE_SOURCE) {
            inPlace[members[members.length - 1]] = false;
        }
        return inPlace;
    }

    /**
     * Gives the tile arrays back to the shared arena for the next launch; the evaluator must not
     * be used afterwards (and never is: its launch has ended).
     */
    void release() {
        for (int i : members) {
            if (tiles[i] != null) {
                TileArena.SHARED.give(kernel.instruction(i).dtype(), tiles[i]);
                tiles[i] = null;
            }
        }
    }

    /**
     * Releases every evaluator of a finished launch (see {@link #release()}).
     *
     * @param evaluators the launch's evaluators, some null (tasks that had no work)
     */
    static void releaseAll(SegmentEvaluator[] evaluators) {
        for (SegmentEvaluator evaluator : evaluators) {
            if (evaluator != null) {
                evaluator.release();
            }
        }
    }

    /** @return the merged iteration space */
    Space space() {
        return space;
    }

    /** @param values each reduction's results by flat index (indexed by instruction; an epilogue reads them), tile-typed arrays */
    void setReductionValues(Object[] values) {
        this.reductionValues = values;
    }

    /** @param index an instruction of the segment; @return its tile (never an input read in place) */
    Object tile(int index) {
        return tiles[index];
    }

    /**
     * @param index an instruction of the segment
     * @return what its readers read for the current tile: its tile, or the input's array where it is
     *     read in place (rows one after another from {@link #operandFrom})
     */
    Object operand(int index) {
        return operands[index];
    }

    /** @return where {@link #operand} holds the current tile's first element */
    int operandFrom(int index) {
        return operandFrom[index];
    }

    /** @return the position of a further access (an accumulator, the output) at row 0 of the tile */
    long extraBase(int extra) {
        return extraBase(extra, 0);
    }

    /** @return the position of a further access at a row of the tile */
    long extraBase(int extra, int row) {
        return bases[(viewCount + extra) * rowsPerTile + row];
    }

    /** @return the row positions of all accesses (index access · rowsPerTile + row) */
    long[] bases() {
        return bases;
    }

    /** @return where a further access's rows start in {@link #bases()} */
    int extraBaseIndex(int extra) {
        return (viewCount + extra) * rowsPerTile;
    }

    /** @return the innermost stride of a further access (never patterned: see {@link RowPatterns}) */
    long extraStride(int extra) {
        return space.accesses.get(viewCount + extra).strides()[space.shape.length - 1];
    }

    /**
     * Moves to a row of the merged space (a tile of one row).
     *
     * @param outer the indices of all dimensions but the innermost
     */
    void beginRow(int[] outer) {
        beginRows(outer, 1);
    }

    /**
     * Moves to a tile of consecutive rows.
     *
     * @param outer the indices of all dimensions but the innermost, of the first row
     * @param count how many rows, at most {@link RowWalk#rowsPerTile}
     */
    void beginRows(int[] outer, int count) {
        rows = count;
        int accesses = space.accesses.size();
        int[] index = count == 1 ? outer : outer.clone();
        for (int a = 0; a < accesses; a++) {
            Space.Access access = space.accesses.get(a);
            long base = access.offset();
            long[] strides = access.strides();
            for (int k = 0; k < index.length; k++) {
                base += index[k] * strides[k];
            }
            bases[a * rowsPerTile] = base;
            rowValid[a * rowsPerTile] = access.inside(index);
        }
        int[] shape = space.shape;
        for (int r = 1; r < count; r++) {
            // the next row: an odometer step; dimension k advances and those after it wrap to 0
            int k = index.length - 1;
            while (k > 0 && index[k] == shape[k] - 1) {
                k--;
            }
            index[k]++;
            for (int wrapped = k + 1; wrapped < index.length; wrapped++) {
                index[wrapped] = 0;
            }
            for (int a = 0; a < accesses; a++) {
                int at = a * rowsPerTile + r;
                bases[at] = bases[at - 1] + steps[a][k];
                rowValid[at] = !masked[a] || space.accesses.get(a).inside(index);
            }
        }
    }

    /**
     * Evaluates every instruction of the segment for one tile of the current row.
     *
     * @param rowFlat the flat index of the row's first element (for reading the reduction's results)
     * @param start the tile's first index along the row
     * @param length the tile's length
     */
    void evaluate(long rowFlat, int start, int length) {
        int total = length * rows;
        for (int i : members) {
            Instruction instruction = kernel.instruction(i);
            if (lessOrEqual.skipped[i] || multiplyAdd.skipped[i]) {
                continue;
            }
            if (lessOrEqual.lessThanOf[i] >= 0) {
                Instruction lessThan = kernel.instruction(lessOrEqual.lessThanOf[i]);
                int x = lessThan.source(0);
                int y = lessThan.source(1);
                arithmetic.lessOrEqual(kernel.instruction(x).dtype(), (boolean[]) tiles[i], operands[x], operandFrom[x],
                        operands[y], operandFrom[y], total);
                continue;
            }
            if (instruction.isReduction()) {
                // rows of a tile are consecutive in flat order here (no reordered space reads a reduction)
                System.arraycopy(reductionValues[i], (int) (rowFlat + start), tiles[i], 0, total);
            } else if (accessOf[i] >= 0) {
                int a = accessOf[i];
                boolean whole = !space.accesses.get(a).masked();
                if (instruction.op() == Op.CONST && whole) {
                    if (filled[i] < total) { // a constant tile, filled once for all the tiles that follow
                        Tiles.fill(tiles[i], 0, total, parameters.constant(instruction.parameter()));
                        filled[i] = total;
                    }
                } else if (instruction.op() == Op.INPUT && whole && inPlace[i] && adjacentRows(a, length)) {
                    HostData input = inputs.get(instruction.input());
                    operands[i] = input instanceof HostData.Float32 f ? f.values() : ((HostData.Float64) input).values();
                    operandFrom[i] = (int) (bases[a * rowsPerTile] + start);
                } else if (instruction.op() == Op.INPUT && whole && space.accesses.get(a).patterned()) {
                    operands[i] = tiles[i];
                    operandFrom[i] = 0;
                    Tiles.gatherPattern(inputs.get(instruction.input()), tiles[i], rows, length, bases, a * rowsPerTile,
                            start, space.accesses.get(a).pattern());
                } else if (instruction.op() == Op.INPUT && whole) {
                    operands[i] = tiles[i];
                    operandFrom[i] = 0;
                    // every row valid and whole: one call gathers the tile's rows
                    Tiles.gatherRows(inputs.get(instruction.input()), tiles[i], rows, length, bases, a * rowsPerTile,
                            start, space.accesses.get(a).strides()[space.shape.length - 1]);
                } else {
                    operands[i] = tiles[i];
                    operandFrom[i] = 0;
                    for (int r = 0; r < rows; r++) {
                        read(i, instruction, r, start, length);
                    }
                }
            } else if (multiplyAdd.plans[i] != null) {
                multiplyAdd(instruction.dtype(), i, multiplyAdd.plans[i], total);
            } else if (instruction.op() == Op.WHERE) {
                arithmetic.where(instruction.dtype(), tiles[i], (boolean[]) tiles[instruction.source(0)],
                        tiles[instruction.source(1)], tiles[instruction.source(2)], total);
            } else {
                DType operandType = kernel.instruction(instruction.source(0)).dtype();
                int x = instruction.source(0);
                int y = instruction.sourceCount() > 1 ? instruction.source(1) : -1;
                arithmetic.apply(instruction.op(), instruction.dtype(), operandType, tiles[i], operands[x], operandFrom[x],
                        y < 0 ? null : operands[y], y < 0 ? 0 : operandFrom[y], null, total);
            }
        }
    }

    /** One fused x·y + z pass (see {@link MultiplyAddFusion}), tile operands read where their readers would read them. */
    private void multiplyAdd(DType type, int i, MultiplyAddFusion.Plan plan, int n) {
        boolean yTile = plan.y() >= 0 && !plan.yNumber();
        boolean zTile = plan.z() >= 0 && !plan.zNumber();
        arithmetic.multiplyAdd(type, tiles[i], operands[plan.x()], operandFrom[plan.x()],
                yTile ? operands[plan.y()] : null, yTile ? operandFrom[plan.y()] : 0, multiplyAdd.number(plan.y(), 1.0),
                zTile ? operands[plan.z()] : null, zTile ? operandFrom[plan.z()] : 0, multiplyAdd.number(plan.z(), -0.0), n);
    }

    /** @return whether the tile's rows of an access lie one after another in its buffer (a unit-stride access) */
    private boolean adjacentRows(int access, int length) {
        long first = bases[access * rowsPerTile];
        for (int r = 1; r < rows; r++) {
            if (bases[access * rowsPerTile + r] != first + (long) r * length) {
                return false;
            }
        }
        return true;
    }

    /** A load or generator for one row of the tile: the (virtual) buffer at the access's positions, the pad value where masked. */
    private void read(int i, Instruction instruction, int row, int start, int length) {
        int a = accessOf[i];
        Space.Access access = space.accesses.get(a);
        int last = space.shape.length - 1;
        int offset = row * length;
        Object tile = tiles[i];
        if (!rowValid[a * rowsPerTile + row]) {
            Tiles.fill(tile, offset, offset + length, access.pad());
            return;
        }
        long stride = access.strides()[last];
        long base = bases[a * rowsPerTile + row];
        if (access.patterned()) { // unmasked along its row (RowPatterns)
            readPattern(instruction, tile, offset, length, base, start, access.pattern());
            return;
        }
        int from = 0;
        int to = length;
        if (access.masked()) {
            from = Math.max(0, Math.min(length, access.maskStart()[last] - start));
            to = Math.max(from, Math.min(length, access.maskEnd()[last] - start));
        }
        Tiles.fill(tile, offset, offset + from, access.pad());
        Tiles.fill(tile, offset + to, offset + length, access.pad());
        readRun(instruction, tile, offset + from, offset + to, base + (long) (start + from) * stride, stride);
    }

    /** tile[offset + j] from positions base + pattern[start + j], for j below length. */
    private void readPattern(Instruction instruction, Object tile, int offset, int length, long base, int start, int[] pattern) {
        switch (instruction.op()) {
            case INPUT -> Tiles.gatherPattern(inputs.get(instruction.input()), tile, offset, length, base, start, pattern);
            case CONST -> Tiles.fill(tile, offset, offset + length, parameters.constant(instruction.parameter()));
            default -> {
                for (int j = 0; j < length; j++) {
                    readRun(instruction, tile, offset + j, offset + j + 1, base + pattern[start + j], 0);
                }
            }
        }
    }

    /** tile[begin .. end) from positions position, position + stride, ... */
    private void readRun(Instruction instruction, Object tile, int begin, int end, long position, long stride) {
        switch (instruction.op()) {
            case INPUT -> Tiles.gather(inputs.get(instruction.input()), tile, begin, end, position, stride);
            case CONST -> Tiles.fill(tile, begin, end, parameters.constant(instruction.parameter()));
            case IOTA -> {
                for (int j = begin; j < end; j++, position += stride) {
                    Tiles.set(tile, j, position);
                }
            }
            case RAND -> {
                boolean single = instruction.dtype() != DType.FLOAT64;
                long seed = parameters.seed(instruction.parameter());
                for (int j = begin; j < end; j++, position += stride) {
                    Tiles.set(tile, j, single ? CounterRandom.uniformFloat(seed, position) : CounterRandom.uniformDouble(seed, position));
                }
            }
            default -> throw new IllegalStateException(instruction.op() + " does not read");
        }
    }
}
