package dev.ein4j.cpu.gemm;

/**
 * A count of the work of one packed multiply in one orientation, for {@link Call} to compare C = A·B
 * with Cᵀ = Bᵀ·Aᵀ: the tile multiply-adds, the packing of both operands by the path each takes, and
 * the stores of C. The unit is one tile multiply-add (a vector of L lanes), as in {@link DotCall}.
 *
 * <ul>
 * <li>Kernel: {@code m'·n'·k / L}, m' and n' padded to the tile.</li>
 * <li>Packing A, repeated for every nc-wide panel of B: {@code m·k·⌈n / nc⌉} elements; packing B once:
 * {@code k·n} elements; each at the cost of its path (below).</li>
 * <li>C, loaded and stored once per kc-deep panel: {@code m·n·⌈k / kc⌉} elements, a vector at a time
 * where C's columns run at least a tile wide ({@link #STORE_RUN} each), else one by one
 * ({@link #SCATTER}).</li>
 * </ul>
 * The per-element costs, measured on convolution windows' panels (8 × 32 × 26 × 26 float32 input,
 * 3 × 3 taps, kc = 256; AMD EPYC, JDK 25, one thread): a copy along runs ({@code System.arraycopy} of
 * rows of 24) 0.16 ns per element, one tile multiply-add's time at two FMAs a cycle; runs across the
 * packed rows (one column's elements written kc or NR apart) 0.45 ns; element by element through the
 * offset tables 0.56 ns where consecutive offsets are close (a stride-2 window's positions) and 2.0 ns
 * where they are not (its taps, a channel apart): {@link #ELEMENT} is the lower, so the choice only
 * moves an element-wise operand when the rest of the count says so. The weight gradient of a 3 × 3
 * convolution from 32 to 64 channels over 64 × 24 × 24 positions counts 81 M packed against 67 M
 * swapped, and ran 8.7 and 10.9 ms packed as C = [64, 288], 6.6 and 6.1 ms swapped (cnn-step, 2 threads,
 * the same machine): its window, the larger operand, is then packed along its runs.
 */
final class PackingCost {

    /** Copying one element of a run along the packed rows. */
    static final double RUN = 1.0;
    /** Copying one element of a run across the packed rows (a column's elements written apart). */
    static final double TRANSPOSE = 2.8;
    /** Copying one element through the offset tables. */
    static final double ELEMENT = 3.5;
    /** Loading, adding to and storing one element of C one by one. */
    static final double SCATTER = TRANSPOSE;
    /** The same for one element of C whose row is stored a vector at a time. */
    static final double STORE_RUN = 0.25;

    private PackingCost() {
    }

    /**
     * @param m rows of C in this orientation
     * @param n columns of C
     * @param k the summed dimension
     * @param left A's view
     * @param right B's view
     * @param out C's view
     * @param blocking the blocks and tile the multiply runs with
     * @param lanes lanes of one vector of the tile
     * @return the count of the work, in tile multiply-adds
     */
    static double of(int m, int n, int k, View left, View right, View out, Blocking blocking, int lanes) {
        double kernel = padded(m, blocking.mr()) * padded(n, blocking.nr()) * k / lanes;
        double packA = (double) m * k * panels(n, blocking.nc()) * perElement(left);
        double packB = (double) k * n * perElement(right);
        double store = (double) m * n * panels(k, blocking.kc()) * (storesRuns(out, n, blocking.nr()) ? STORE_RUN : SCATTER);
        return kernel + packA + packB + store;
    }

    /**
     * @return the per-element cost of the path {@link FloatPacking#packA} and {@link FloatPacking#packB}
     *     (and their float64 twins) take for this view: both copy runs across the packed rows where
     *     {@link View#packsAlongRows}, else runs along them where the columns have runs, else element by
     *     element
     */
    static double perElement(View v) {
        return v.packsAlongRows ? TRANSPOSE : v.colRuns != null ? RUN : ELEMENT;
    }

    /** @return whether C's first n columns come in runs at least a tile wide on average */
    private static boolean storesRuns(View out, int n, int nr) {
        if (out.unitCols) {
            return true;
        }
        int runs = n - Call.adjacentSteps(out.cols, n);
        return (double) n / runs >= nr;
    }

    private static double padded(int size, int tile) {
        return Math.ceil((double) size / tile) * tile;
    }

    private static double panels(int size, int block) {
        return Math.max(1, Math.ceil((double) size / Math.max(1, block)));
    }
}
