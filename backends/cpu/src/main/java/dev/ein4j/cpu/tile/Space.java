package dev.ein4j.cpu.tile;

import dev.ein4j.ir.View;
import java.util.ArrayList;
import java.util.List;

/**
 * An iteration shape with the strided accesses of every view read or written in it, with adjacent
 * dimensions merged wherever every access allows (same layout as one longer dimension, no mask on
 * them). An elementwise kernel over contiguous or broadcast operands becomes one long row, so tiles
 * are long whatever the tensor's rank.
 */
final class Space {

    /** One view in the merged space. */
    record Access(long offset, long[] strides, int[] maskStart, int[] maskEnd, double pad) {
        boolean masked() {
            return maskStart != null;
        }
    }

    final int[] shape;
    final List<Access> accesses;

    private Space(int[] shape, List<Access> accesses) {
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
        int[] dims = shape.length == 0 ? new int[] {1} : shape.clone();
        int rank = dims.length;
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
                    en == null ? null : kept.stream().mapToInt(k -> en[k]).toArray(), pads.get(a)));
        }
        return new Space(merged, accesses);
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

    /** @return the number of rows (all dimensions but the innermost) */
    long rows() {
        long rows = 1;
        for (int k = 0; k < shape.length - 1; k++) {
            rows *= shape[k];
        }
        return rows;
    }

    /** @return the innermost dimension's length */
    int rowLength() {
        return shape[shape.length - 1];
    }
}
