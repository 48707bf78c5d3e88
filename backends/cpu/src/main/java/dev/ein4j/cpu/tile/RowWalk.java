package dev.ein4j.cpu.tile;

import dev.ein4j.cpu.WorkerPool;

/**
 * Splits a merged space into tiles and spreads them over the workers. A long row is cut into tiles
 * of {@link SegmentEvaluator#TILE} elements; short rows are grouped, several whole rows to a tile,
 * so that the per-tile work (dispatching each instruction) is paid once per thousands of elements
 * whatever the row length. Each task gets a range of consecutive units (tiles of long rows, or
 * rows) and walks it in order.
 */
final class RowWalk {

    /** Below this many elements a kernel runs on the calling thread: a task costs microseconds. */
    static final long PARALLEL_THRESHOLD = 1 << 15;

    /** What a task does with its tiles. */
    interface TileConsumer {
        /**
         * @param task the task's index
         * @param outer indices of all but the innermost dimension, of the tile's first row
         * @param rowFlat flat index of the first row's first element (in the space's order)
         * @param start the tile's first index in its rows
         * @param length the tile's length in each row
         * @param rows how many consecutive rows the tile holds (1 when rows are long)
         */
        void accept(int task, int[] outer, long rowFlat, int start, int length, int rows);
    }

    private RowWalk() {
    }

    /** @return how many tasks to run for a space of this many elements */
    static int tasks(Space space, WorkerPool pool) {
        long elements = space.rows() * space.rowLength();
        if (elements < PARALLEL_THRESHOLD || pool.parallelism() == 1) {
            return 1;
        }
        return (int) Math.max(1, Math.min(units(space), pool.parallelism() * 4L));
    }

    /** @return whole rows per tile: 1 for rows of at least half a tile */
    static int rowsPerTile(Space space) {
        int length = space.rowLength();
        return length == 0 ? 1 : Math.max(1, SegmentEvaluator.TILE / length);
    }

    private static boolean grouped(Space space) {
        return rowsPerTile(space) > 1;
    }

    private static int tilesPerRow(Space space) {
        int length = space.rowLength();
        return Math.max(1, (length + SegmentEvaluator.TILE - 1) / SegmentEvaluator.TILE);
    }

    /** @return the units of work: rows when they are grouped, else tiles */
    static long units(Space space) {
        return grouped(space) ? space.rows() : space.rows() * tilesPerRow(space);
    }

    /**
     * Runs the whole space over the pool.
     *
     * @param space the space
     * @param pool the workers
     * @param tasks the number of tasks ({@link #tasks})
     * @param alignRows task boundaries fall on multiples of this many rows (1: anywhere); a
     *     reduction uses it so that the rows writing one output element stay in one task
     * @param consumer what to do with each tile
     */
    static void run(Space space, WorkerPool pool, int tasks, long alignRows, TileConsumer consumer) {
        long unitsPerAlignment = grouped(space) ? alignRows : alignRows * tilesPerRow(space);
        long blocks = units(space) / unitsPerAlignment;
        pool.parallelFor(tasks, task -> walk(space, task, unitsPerAlignment * (blocks * task / tasks),
                unitsPerAlignment * (blocks * (task + 1) / tasks), consumer));
    }

    /** Walks units [from, to) of the space. */
    private static void walk(Space space, int task, long from, long to, TileConsumer consumer) {
        int rowLength = space.rowLength();
        if (rowLength == 0 || from >= to || space.rows() == 0) {
            return; // an empty space: nothing to walk
        }
        int[] outer = new int[space.outerRank()];
        if (grouped(space)) {
            int group = rowsPerTile(space);
            setOuter(space, outer, from);
            for (long row = from; row < to; ) {
                int rows = (int) Math.min(group, to - row);
                consumer.accept(task, outer, row * rowLength, 0, rowLength, rows);
                row += rows;
                if (row < to) {
                    setOuter(space, outer, row);
                }
            }
            return;
        }
        int perRow = tilesPerRow(space);
        long row = from / perRow;
        setOuter(space, outer, row);
        for (long unit = from; unit < to; unit++) {
            long currentRow = unit / perRow;
            if (currentRow != row) {
                advance(space, outer, (int) (currentRow - row));
                row = currentRow;
            }
            int start = (int) (unit % perRow) * SegmentEvaluator.TILE;
            consumer.accept(task, outer, row * rowLength, start, Math.min(SegmentEvaluator.TILE, rowLength - start), 1);
        }
    }

    /**
     * Walks flat positions [from, to) of a space in its own (row-major, not reordered) order on the
     * calling thread: whole rows grouped as {@link #run} groups them where the range covers them, the
     * rest tile by tile; the consumer's task is 0.
     */
    static void walkFlat(Space space, long from, long to, TileConsumer consumer) {
        int rowLength = space.rowLength();
        if (rowLength == 0 || from >= to) {
            return;
        }
        int group = rowsPerTile(space);
        int[] outer = new int[space.outerRank()];
        long at = from;
        while (at < to) {
            long row = at / rowLength;
            long rowFlat = row * rowLength;
            setOuter(space, outer, row);
            if (group > 1 && at == rowFlat && to - at >= rowLength) {
                int rows = (int) Math.min(group, (to - at) / rowLength);
                consumer.accept(0, outer, rowFlat, 0, rowLength, rows);
                at += (long) rows * rowLength;
                continue;
            }
            long rowEnd = Math.min(to, rowFlat + rowLength);
            while (at < rowEnd) {
                int length = (int) Math.min(SegmentEvaluator.TILE, rowEnd - at);
                consumer.accept(0, outer, rowFlat, (int) (at - rowFlat), length, 1);
                at += length;
            }
        }
    }

    static void setOuter(Space space, int[] outer, long row) {
        long remainder = row;
        for (int k = outer.length - 1; k >= 0; k--) {
            outer[k] = (int) (remainder % space.shape[k]);
            remainder /= space.shape[k];
        }
    }

    /** Moves the outer indices on by some rows (an odometer over all but the innermost dimension). */
    static void advance(Space space, int[] outer, int rows) {
        for (int step = 0; step < rows; step++) {
            for (int k = outer.length - 1; k >= 0; k--) {
                if (++outer[k] < space.shape[k]) {
                    break;
                }
                outer[k] = 0;
            }
        }
    }
}
