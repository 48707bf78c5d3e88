package dev.ein4j.cpu.tile;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Longer rows for spaces whose rows are short because one view cannot merge dimensions that the
 * others can: the outer dimensions next to the row are absorbed into it, and each view that cannot
 * follow them reads its row through a table of offsets (its <em>pattern</em>) instead of a stride.
 *
 * <p>The case it is for: a max-pool gradient compares {@code x} of shape [b, c, h, 2, w, 2] with the
 * pooled values broadcast over both window axes (strides ..., 1, 0). No two inner dimensions merge
 * for the broadcast, so the rows were 2 elements long and every two elements paid the per-row work
 * of all accesses. Absorbed into rows of up to {@link SegmentEvaluator#TILE} elements (tables within
 * {@link #TABLE_BUDGET}), the contiguous views stay one stride and the broadcast reads
 * {@code base + pattern[j]}: one pooled value for the elements of each window.
 *
 * <p>Only views are patterned: the further accesses (outputs, accumulators) must follow the absorbed
 * dimensions with one stride, and a masked view must be unmasked over the whole row, so masks stay
 * per row. Element order is unchanged (row-major over the space's shape), so flat indices hold.
 */
final class RowPatterns {

    /**
     * The most bytes of offset tables one space may hold: half the first-level data cache, which they
     * share with the tiles. Longer tables spilled: resnet18's 3 × 3 max pool patterned into rows of
     * 1,568 (nine tables, 56 KiB against a 48 KiB L1d) ran a third slower than its strided rows of 56,
     * while the flagship's 2 × 2 pooling (four tables of 1,792) ran faster.
     */
    static final long TABLE_BUDGET = dev.ein4j.cpu.gemm.CacheSizes.ofMachine().level1Data() / 2;

    private RowPatterns() {
    }

    /**
     * @param space a merged space (no patterns), its dimensions in row-major order
     * @param viewCount how many of its accesses are views (the rest are further accesses)
     * @return the space with dimensions absorbed into its row, or null when none can be
     */
    static Space absorb(Space space, int viewCount) {
        return absorb(space, viewCount, true);
    }

    private static Space absorb(Space space, int viewCount, boolean split) {
        int last = space.shape.length - 1;
        int row = space.rowLength();
        List<Space.Access> accesses = space.accesses;
        int count = accesses.size();
        for (Space.Access access : accesses) {
            if (access.masked() && (access.maskStart()[last] != 0 || access.maskEnd()[last] != row)) {
                return null; // a mask along the row would not be one range of the longer row
            }
        }
        long[] rowStride = new long[count];
        int[][] patterns = new int[count][];
        for (int a = 0; a < count; a++) {
            rowStride[a] = accesses.get(a).strides()[last];
        }
        int k = last - 1;
        while (k >= 0 && (long) row * space.shape[k] <= rowLimit(space, k, row, rowStride, patterns) && absorbable(space, k,
                row, rowStride, patterns, viewCount)) {
            for (int a = 0; a < count; a++) {
                if (!follows(space, a, k, row, rowStride, patterns)) {
                    patterns[a] = pattern(patterns[a], rowStride[a], row, accesses.get(a).strides()[k], space.shape[k]);
                }
            }
            row *= space.shape[k];
            k--;
        }
        if (split && k >= 0 && (long) row * space.shape[k] > rowLimit(space, k, row, rowStride, patterns)) {
            // the next dimension is too long to join whole (the rows of b·c·h): split a factor off it
            int factor = largestDivisor(space.shape[k], (int) (rowLimit(space, k, row, rowStride, patterns) / row));
            Space finer = factor < 2 ? null : split(space, k, factor);
            Space longer = finer == null ? null : absorb(finer, viewCount, false);
            if (longer != null && longer.rowLength() > row) {
                return longer;
            }
        }
        if (k == last - 1) {
            return null;
        }
        int outer = k + 1;
        int[] shape = Arrays.copyOf(space.shape, outer + 1);
        shape[outer] = row;
        List<Space.Access> absorbed = new ArrayList<>(count);
        for (int a = 0; a < count; a++) {
            Space.Access access = accesses.get(a);
            long[] strides = Arrays.copyOf(access.strides(), outer + 1);
            strides[outer] = patterns[a] == null ? rowStride[a] : 0;
            int[] starts = null;
            int[] ends = null;
            if (access.masked()) {
                starts = Arrays.copyOf(access.maskStart(), outer + 1);
                ends = Arrays.copyOf(access.maskEnd(), outer + 1);
                starts[outer] = 0;
                ends[outer] = row;
            }
            absorbed.add(new Space.Access(access.offset(), strides, starts, ends, access.pad(), patterns[a]));
        }
        return new Space(shape, absorbed);
    }

    /**
     * Whether dimension k can join the row: every further access follows it with its stride, every
     * masked view is unmasked along it, and every pattern's offsets fit an int.
     */
    private static boolean absorbable(Space space, int k, int row, long[] rowStride, int[][] patterns, int viewCount) {
        int length = space.shape[k];
        for (int a = 0; a < space.accesses.size(); a++) {
            Space.Access access = space.accesses.get(a);
            boolean follows = follows(space, a, k, row, rowStride, patterns);
            if (a >= viewCount && !follows) {
                return false;
            }
            if (access.masked() && (access.maskStart()[k] != 0 || access.maskEnd()[k] != length)) {
                return false;
            }
            long rowReach = patterns[a] == null ? Math.abs(rowStride[a]) * (row - 1) : maxMagnitude(patterns[a]);
            if (!follows && Math.abs(access.strides()[k]) * (length - 1) + rowReach > Integer.MAX_VALUE) {
                return false;
            }
        }
        return true;
    }

    /** Whether access a continues its strided row along dimension k (then it needs no table). */
    private static boolean follows(Space space, int a, int k, int row, long[] rowStride, int[][] patterns) {
        return patterns[a] == null && space.accesses.get(a).strides()[k] == rowStride[a] * row;
    }

    /**
     * The longest row dimension k may join into: a tile, and the tables of every view patterned by
     * then within {@link #TABLE_BUDGET}.
     */
    private static long rowLimit(Space space, int k, int row, long[] rowStride, int[][] patterns) {
        int tables = 0;
        for (int a = 0; a < space.accesses.size(); a++) {
            tables += follows(space, a, k, row, rowStride, patterns) ? 0 : 1;
        }
        long byTables = tables == 0 ? Long.MAX_VALUE : TABLE_BUDGET / (tables * (long) Integer.BYTES);
        return Math.min(SegmentEvaluator.TILE, byTables);
    }

    /** @return the largest divisor of length that is at most limit (1 if none above 1) */
    private static int largestDivisor(int length, int limit) {
        for (int factor = Math.min(length, limit); factor > 1; factor--) {
            if (length % factor == 0) {
                return factor;
            }
        }
        return 1;
    }

    /**
     * @return the space with dimension k of length L split into (L / factor, factor), or null where
     *     an access is masked along it
     */
    private static Space split(Space space, int k, int factor) {
        int rank = space.shape.length;
        int[] shape = new int[rank + 1];
        for (int d = 0, at = 0; d < rank; d++) {
            if (d == k) {
                shape[at++] = space.shape[d] / factor;
                shape[at++] = factor;
            } else {
                shape[at++] = space.shape[d];
            }
        }
        List<Space.Access> accesses = new ArrayList<>();
        for (Space.Access access : space.accesses) {
            if (access.masked() && (access.maskStart()[k] != 0 || access.maskEnd()[k] != space.shape[k])) {
                return null;
            }
            long[] strides = new long[rank + 1];
            int[] starts = access.masked() ? new int[rank + 1] : null;
            int[] ends = access.masked() ? new int[rank + 1] : null;
            for (int d = 0, at = 0; d < rank; d++) {
                if (d == k) {
                    strides[at] = access.strides()[d] * factor;
                    strides[at + 1] = access.strides()[d];
                } else {
                    strides[at] = access.strides()[d];
                }
                if (starts != null) {
                    starts[at] = d == k ? 0 : access.maskStart()[d];
                    ends[at] = d == k ? shape[at] : access.maskEnd()[d];
                    if (d == k) {
                        ends[at + 1] = factor;
                    }
                }
                at += d == k ? 2 : 1;
            }
            accesses.add(new Space.Access(access.offset(), strides, starts, ends, access.pad(), null));
        }
        return new Space(shape, accesses);
    }

    /** The offsets of a row of {@code length} blocks of the old row, block i at {@code i · stride}. */
    private static int[] pattern(int[] old, long oldStride, int oldRow, long stride, int length) {
        int[] pattern = new int[oldRow * length];
        for (int i = 0, at = 0; i < length; i++) {
            long block = i * stride;
            for (int j = 0; j < oldRow; j++) {
                pattern[at++] = (int) (block + (old == null ? j * oldStride : old[j]));
            }
        }
        return pattern;
    }

    private static long maxMagnitude(int[] values) {
        long max = 0;
        for (int value : values) {
            max = Math.max(max, Math.abs((long) value));
        }
        return max;
    }
}
