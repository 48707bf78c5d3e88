package dev.ein4j.cpu.tile;

import dev.ein4j.ir.View;
import java.util.ArrayList;
import java.util.List;

/**
 * An iteration shape with the strided accesses of every view read or written in it, with adjacent
 * dimensions merged wherever every access allows (same layout as one longer dimension, no mask on
 * them). An elementwise kernel over contiguous or broadcast operands becomes one long row, so tiles
 * are long whatever the tensor's rank.
 *
 * <p>When the caller allows it, the dimensions are first reordered so that the innermost one (the
 * tile row) is where the accesses are unit-stride: a 2×2 pooling window over a channels-last
 * convolution output would otherwise walk rows of length 2, paying the per-row cost for every two
 * elements. The order only changes which elements a tile holds, never a value.
 */
final class Space {

    /**
     * One view in the merged space.
     *
     * @param pattern null for a strided row (element j at the row's base + j · the last stride), or,
     *     when the row spans dimensions this access cannot merge (see {@link RowPatterns}), each row
     *     element's offset from the row's base (the last stride is then unused)
     */
    record Access(long offset, long[] strides, int[] maskStart, int[] maskEnd, double pad, int[] pattern) {
        boolean masked() {
            return maskStart != null;
        }

        boolean patterned() {
            return pattern != null;
        }

        /**
         * @param index indices of the leading dimensions (a row's outer indices)
         * @return whether they lie inside the mask on each of those dimensions (always, unmasked)
         */
        boolean inside(int[] index) {
            if (maskStart == null) {
                return true;
            }
            for (int k = 0; k < index.length; k++) {
                if (index[k] < maskStart[k] || index[k] >= maskEnd[k]) {
                    return false;
                }
            }
            return true;
        }
    }

    final int[] shape;
    final List<Access> accesses;

    Space(int[] shape, List<Access> accesses) {
        this.shape = shape;
        this.accesses = accesses;
    }

    /**
     * @param shape the iteration shape (rank 0 is treated as [1])
     * @param views views of that shape
     * @param extraStrides further accesses given by strides only (an accumulator, the output), or empty
     * @return the merged space; accesses in the order given, views first
     */
    static Space of(int[] shape, List<View> views, List<long[]> extraStrides) {
        return of(shape, views, extraStrides, false);
    }

    /**
     * @param shape the iteration shape (rank 0 is treated as [1])
     * @param views views of that shape
     * @param extraStrides further accesses given by strides only, or empty
     * @param reorder whether the dimensions may be reordered for a longer unit-stride row (then
     *     rows no longer follow the shape's row-major order: outputs must be written through an
     *     extra access)
     * @return the merged space, or its form with patterned rows ({@link RowPatterns}) where that is
     *     estimated cheaper
     */
    static Space of(int[] shape, List<View> views, List<long[]> extraStrides, boolean reorder) {
        return cached(shape, views, extraStrides, reorder, true);
    }

    /**
     * @return the merged space of {@link #of(int[], List, List, boolean)} without patterned rows, for
     *     callers that walk it their own way ({@link TransposedCopy})
     */
    static Space plain(int[] shape, List<View> views, List<long[]> extraStrides, boolean reorder) {
        return cached(shape, views, extraStrides, reorder, false);
    }

    private static Space cached(int[] shape, List<View> views, List<long[]> extraStrides, boolean reorder, boolean patterns) {
        List<List<Long>> extras = new ArrayList<>(extraStrides.size());
        for (long[] extra : extraStrides) {
            extras.add(java.util.Arrays.stream(extra).boxed().toList());
        }
        Key key = new Key(java.util.Arrays.stream(shape).boxed().toList(), List.copyOf(views), extras, reorder, patterns);
        synchronized (CACHE) {
            Space known = CACHE.get(key);
            if (known != null) {
                return known;
            }
        }
        Space space = patterns ? choose(shape, views, extraStrides, reorder) : merged(shape, views, extraStrides, reorder);
        synchronized (CACHE) {
            CACHE.put(key, space);
        }
        return space;
    }

    /** What a space is made from. */
    private record Key(List<Integer> shape, List<View> views, List<List<Long>> extras, boolean reorder, boolean patterns) {
    }

    /**
     * Spaces already made: every task of a launch makes its evaluator from the same views, and a
     * replayed step launches the same kernels again (the patterned form builds offset tables, tens of
     * microseconds, which made a 4.6 ms pooling kernel of 8 tasks a millisecond slower).
     */
    private static final java.util.Map<Key, Space> CACHE = new java.util.LinkedHashMap<>(64, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(java.util.Map.Entry<Key, Space> eldest) {
            return size() > 512;
        }
    };

    private static Space choose(int[] shape, List<View> views, List<long[]> extraStrides, boolean reorder) {
        Space merged = merged(shape, views, extraStrides, reorder);
        if (merged.rowLength() >= SegmentEvaluator.TILE / 2 || merged.outerRank() == 0) {
            return merged;
        }
        Space inOrder = reorder ? merged(shape, views, extraStrides, false) : merged;
        Space patterned = RowPatterns.absorb(inOrder, views.size());
        return patterned != null && patterned.cost() < merged.cost() ? patterned : merged;
    }

    private static Space merged(int[] shape, List<View> views, List<long[]> extraStrides, boolean reorder) {
        int[] dims = shape.length == 0 ? new int[] {1} : shape.clone();
        List<long[]> strides = new ArrayList<>();
        List<int[]> starts = new ArrayList<>();
        List<int[]> ends = new ArrayList<>();
        List<Long> offsets = new ArrayList<>();
        List<Double> pads = new ArrayList<>();
        for (View view : views) {
            View shaped = view.rank() == 0 ? view.reshape(new int[] {1}) : view;
            strides.add(shaped.strides());
            starts.add(shaped.maskStart());
            ends.add(shaped.maskEnd());
            offsets.add(shaped.offset());
            pads.add(shaped.padValue());
        }
        for (long[] extra : extraStrides) {
            strides.add(extra.length == 0 ? new long[] {0} : extra.clone());
            starts.add(null);
            ends.add(null);
            offsets.add(0L);
            pads.add(0.0);
        }
        dims = dropUnitDimensions(dims, strides, starts, ends);
        int rank = dims.length;
        if (reorder && rank > 1) {
            int[] order = innermostLast(dims, strides, starts, ends);
            if (order != null) {
                dims = permute(dims, order);
                for (int a = 0; a < strides.size(); a++) {
                    strides.set(a, permute(strides.get(a), order));
                    if (starts.get(a) != null) {
                        starts.set(a, permute(starts.get(a), order));
                        ends.set(a, permute(ends.get(a), order));
                    }
                }
            }
        }
        // merge from the innermost pair outwards: dimension k into k + 1 when every access allows
        List<Integer> kept = new ArrayList<>();
        for (int k = 0; k < rank; k++) {
            kept.add(k);
        }
        int[] lengths = dims.clone();
        for (int k = rank - 2; k >= 0; k--) {
            int inner = kept.get(kept.indexOf(k) + 1);
            if (mergeable(k, inner, lengths, strides, starts, ends)) {
                lengths[inner] *= lengths[k];
                for (int a = 0; a < strides.size(); a++) {
                    if (ends.get(a) != null) {
                        ends.get(a)[inner] = lengths[inner]; // both were unmasked: so is the merged one
                    }
                }
                kept.remove(Integer.valueOf(k));
            }
        }
        int[] merged = kept.stream().mapToInt(k -> lengths[k]).toArray();
        List<Access> accesses = new ArrayList<>();
        for (int a = 0; a < strides.size(); a++) {
            long[] s = strides.get(a);
            int[] st = starts.get(a);
            int[] en = ends.get(a);
            accesses.add(new Access(offsets.get(a), kept.stream().mapToLong(k -> s[k]).toArray(),
                    st == null ? null : kept.stream().mapToInt(k -> st[k]).toArray(),
                    en == null ? null : kept.stream().mapToInt(k -> en[k]).toArray(), pads.get(a), null));
        }
        return new Space(merged, accesses);
    }

    /**
     * Removes the dimensions of length 1 (an unrolled reduction's [b, c, h, 1, w, 1]): their strides
     * are arbitrary and would stop the merge of their neighbours. One a mask excludes (every element
     * of that access is padding) stays; so does a last one.
     *
     * @return the remaining lengths; the access lists are narrowed in place
     */
    private static int[] dropUnitDimensions(int[] dims, List<long[]> strides, List<int[]> starts, List<int[]> ends) {
        boolean[] keep = new boolean[dims.length];
        int kept = 0;
        for (int k = 0; k < dims.length; k++) {
            keep[k] = dims[k] != 1;
            for (int a = 0; a < starts.size() && !keep[k]; a++) {
                keep[k] = starts.get(a) != null && (starts.get(a)[k] > 0 || ends.get(a)[k] < 1);
            }
            kept += keep[k] ? 1 : 0;
        }
        if (kept == dims.length) {
            return dims;
        }
        if (kept == 0) {
            keep[dims.length - 1] = true;
            kept = 1;
        }
        int[] lengths = new int[kept];
        for (int k = 0, at = 0; k < dims.length; k++) {
            if (keep[k]) {
                lengths[at++] = dims[k];
            }
        }
        for (int a = 0; a < strides.size(); a++) {
            strides.set(a, select(strides.get(a), keep, kept));
            if (starts.get(a) != null) {
                starts.set(a, select(starts.get(a), keep, kept));
                ends.set(a, select(ends.get(a), keep, kept));
            }
        }
        return lengths;
    }

    private static long[] select(long[] values, boolean[] keep, int kept) {
        long[] result = new long[kept];
        for (int k = 0, at = 0; k < keep.length; k++) {
            if (keep[k]) {
                result[at++] = values[k];
            }
        }
        return result;
    }

    private static int[] select(int[] values, boolean[] keep, int kept) {
        int[] result = new int[kept];
        for (int k = 0, at = 0; k < keep.length; k++) {
            if (keep[k]) {
                result[at++] = values[k];
            }
        }
        return result;
    }

    /**
     * The estimated cost per element of walking this space: the per-row overhead spread over the
     * row, plus per access a cost by how its row is read (see {@link #accessCost}).
     */
    double cost() {
        double cost = ROW_OVERHEAD / Math.min(Math.max(1, rowLength()), SegmentEvaluator.TILE);
        int last = shape.length - 1;
        for (Access access : accesses) {
            cost += access.patterned() ? PATTERN_COST : accessCost(access.strides()[last]);
        }
        return cost;
    }

    /** Per element, in units of one unit-stride read: a broadcast is cheapest, a long stride a cache line per element. */
    private static double accessCost(long stride) {
        long magnitude = Math.abs(stride);
        return magnitude == 0 ? 0.25 : magnitude == 1 ? 1 : magnitude < 16 ? 2 : 8;
    }

    /**
     * A patterned row reads through a table (kept in L1 by {@link RowPatterns#TABLE_BUDGET}): a little
     * more than a short stride. Bounded by two measurements (AMD EPYC, JDK 25): patterning the
     * flagship's 2 × 2 pooling reads (four stride-2 views in rows of 14) made its epoch faster, 55.5 →
     * 49.0 s, so the extra cost per view is below 1.1 units; patterning resnet18's 3 × 3 max pool (nine
     * in rows of 56) made that kernel a third slower, so it is above 0.12.
     */
    private static final double PATTERN_COST = 2.5;

    /**
     * The order (all other dimensions kept in order, one chosen dimension moved innermost) with the
     * lowest estimated cost per element: a per-row overhead spread over the merged row's length,
     * plus per access a cost by its innermost stride (a broadcast is cheapest, unit stride cheap, a
     * short stride a gather within cache lines, a long stride a cache line per element). Null
     * when the shape's own order is the best.
     */
    private static int[] innermostLast(int[] dims, List<long[]> strides, List<int[]> starts, List<int[]> ends) {
        int rank = dims.length;
        int[] identity = new int[rank];
        for (int k = 0; k < rank; k++) {
            identity[k] = k;
        }
        int[] best = null;
        double bestCost = cost(identity, dims, strides, starts, ends);
        for (int candidate = 0; candidate < rank - 1; candidate++) {
            if (dims[candidate] < 2) {
                continue;
            }
            int[] order = new int[rank];
            int at = 0;
            for (int k = 0; k < rank; k++) {
                if (k != candidate) {
                    order[at++] = k;
                }
            }
            order[rank - 1] = candidate;
            double cost = cost(order, dims, strides, starts, ends);
            if (cost < bestCost * 0.8) { // a clear gain only: the shape's order keeps outputs sequential
                bestCost = cost;
                best = order;
            }
        }
        return best;
    }

    /** Per-row overhead in units of one unit-stride element access. */
    private static final double ROW_OVERHEAD = 64.0;

    private static double cost(int[] order, int[] dims, List<long[]> strides, List<int[]> starts, List<int[]> ends) {
        int rank = order.length;
        int inner = order[rank - 1];
        long row = dims[inner];
        for (int k = rank - 2; k >= 0; k--) { // the innermost run of dimensions that would merge
            int outer = order[k];
            int next = order[k + 1];
            boolean merges = true;
            for (int a = 0; a < strides.size() && merges; a++) {
                long[] s = strides.get(a);
                merges = s[outer] == s[next] * dims[next] && (starts.get(a) == null || unmasked(outer, next, dims, starts.get(a), ends.get(a)));
            }
            if (!merges) {
                break;
            }
            row *= dims[outer];
        }
        double cost = ROW_OVERHEAD / Math.min(row, SegmentEvaluator.TILE);
        for (long[] s : strides) {
            cost += accessCost(s[inner]);
        }
        return cost;
    }

    private static boolean unmasked(int outer, int inner, int[] dims, int[] start, int[] end) {
        return start[outer] == 0 && end[outer] == dims[outer] && start[inner] == 0 && end[inner] == dims[inner];
    }

    private static int[] permute(int[] values, int[] order) {
        int[] result = new int[order.length];
        for (int k = 0; k < order.length; k++) {
            result[k] = values[order[k]];
        }
        return result;
    }

    private static long[] permute(long[] values, int[] order) {
        long[] result = new long[order.length];
        for (int k = 0; k < order.length; k++) {
            result[k] = values[order[k]];
        }
        return result;
    }

    private static boolean mergeable(int outer, int inner, int[] lengths, List<long[]> strides, List<int[]> starts,
                                     List<int[]> ends) {
        if ((long) lengths[outer] * lengths[inner] > Integer.MAX_VALUE) {
            return false;
        }
        for (int a = 0; a < strides.size(); a++) {
            long[] s = strides.get(a);
            if (s[outer] != s[inner] * lengths[inner]) {
                return false;
            }
            int[] st = starts.get(a);
            int[] en = ends.get(a);
            if (st != null && (st[outer] != 0 || en[outer] != lengths[outer] || st[inner] != 0 || en[inner] != lengths[inner])) {
                return false;
            }
        }
        return true;
    }

    /** @return how many dimensions index the rows (all but the innermost) */
    int outerRank() {
        return shape.length - 1;
    }

    /** @return the number of rows */
    long rows() {
        long rows = 1;
        for (int k = 0; k < outerRank(); k++) {
            rows *= shape[k];
        }
        return rows;
    }

    /** @return the elements of one row: the innermost dimension's length */
    int rowLength() {
        return shape[shape.length - 1];
    }
}
