package dev.ein4j.cpu.tile;

import dev.ein4j.cpu.WorkerPool;

/**
 * Splits a merged space into tiles and spreads them over the workers: the unit of work is one tile
 * of one row, so a single long row is split as well as many short ones. Each task gets a range of
 * consecutive units and walks it row by row.
 */
final class RowWalk {

    /** Below this many elements a kernel runs on the calling thread: a task costs microseconds. */
    static final long PARALLEL_THRESHOLD = 1 << 15;

    /** What a task does with its tiles. */
    interface TileConsumer {
        /**
         * @param task the task's index
         * @param outer indices of all but the innermost dimension (the row)
         * @param rowFlat flat index of the row's first element
         * @param start the tile's first index in the row
         * @param length the tile's length
         * @param newRow whether this is the first tile of the task in this row
         */
        void accept(int task, int[] outer, long rowFlat, int start, int length, boolean newRow);
    }

    private RowWalk() {
    }

    /** @return how many tasks to run for a space of this many elements */
    static int tasks(Space space, WorkerPool pool) {
        long elements = space.rows() * space.rowLength();
        if (elements < PARALLEL_THRESHOLD || pool.parallelism() == 1) {
            return 1;
        }
        long units = space.rows() * tilesPerRow(space);
        return (int) Math.max(1, Math.min(units, pool.parallelism() * 4L));
    }

    static int tilesPerRow(Space space) {
        int length = space.rowLength();
        return Math.max(1, (length + SegmentEvaluator.TILE - 1) / SegmentEvaluator.TILE);
    }

    /**
     * Walks units [from, to) of the space.
     *
     * @param space the space
     * @param task the task index passed on
     * @param from first unit (row · tilesPerRow + tile)
     * @param to one past the last unit
     * @param consumer what to do with each tile
     */
    static void walk(Space space, int task, long from, long to, TileConsumer consumer) {
        int perRow = tilesPerRow(space);
        int rowLength = space.rowLength();
        if (rowLength == 0 || from >= to || space.rows() == 0) {
            return; // an empty space: nothing to walk
        }
        int[] outer = new int[space.shape.length - 1];
        long row = from / perRow;
        long remainder = row;
        for (int k = outer.length - 1; k >= 0; k--) {
            outer[k] = (int) (remainder % space.shape[k]);
            remainder /= space.shape[k];
        }
        boolean newRow = true;
        for (long unit = from; unit < to; unit++) {
            long currentRow = unit / perRow;
            if (currentRow != row) {
                row = currentRow;
                newRow = true;
                for (int k = outer.length - 1; k >= 0; k--) {
                    if (++outer[k] < space.shape[k]) {
                        break;
                    }
                    outer[k] = 0;
                }
            }
            int tile = (int) (unit % perRow);
            int start = tile * SegmentEvaluator.TILE;
            consumer.accept(task, outer, row * rowLength, start, Math.min(SegmentEvaluator.TILE, rowLength - start), newRow);
            newRow = false;
        }
    }

    /**
     * Runs the whole space over the pool.
     *
     * @param space the space
     * @param pool the workers
     * @param tasks the number of tasks ({@link #tasks})
     * @param consumer what to do with each tile
     */
    static void run(Space space, WorkerPool pool, int tasks, TileConsumer consumer) {
        long units = space.rows() * tilesPerRow(space);
        pool.parallelFor(tasks, task -> walk(space, task, units * task / tasks, units * (task + 1) / tasks, consumer));
    }
}
