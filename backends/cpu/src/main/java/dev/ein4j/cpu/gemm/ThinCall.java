package dev.ein4j.cpu.gemm;

/**
 * A multiply whose C has at most {@link #MAX_ROWS} rows (a matrix-vector product, a decode step of a
 * language model, a few prompts at once), or as many columns, oriented so that C is thin: then
 * packing B costs as much as the product itself, which is bound by reading B from memory, and
 * {@link ThinSplit} streams B once, in place, instead. That needs B contiguous along one dimension:
 * along N (row-major, its rows are added into C) or along K (its columns are dotted with A's rows);
 * any other B, and k = 0, is left to the general path. System property
 * {@code ein4j.cpu.gemm.thin=false} turns the path off.
 */
final class ThinCall {

    /** The most rows (after orientation) that C may have. */
    static final int MAX_ROWS = 4;
    private static final boolean ENABLED =
            !"false".equalsIgnoreCase(System.getProperty("ein4j.cpu.gemm.thin", "true").trim());

    /** Rows of the oriented C, at most {@link #MAX_ROWS}. */
    final int m;
    /** Columns of the oriented C. */
    final int n;
    final View left;
    final View right;
    final View out;
    final BlockListener listener;
    /** Whether A and B (and their arrays) are exchanged: the product runs as Cᵀ = Bᵀ·Aᵀ. */
    final boolean swapped;
    /** Whether B is read down its columns (contiguous along K) rather than along its rows. */
    final boolean dotted;

    private ThinCall(int m, int n, View left, View right, View out, BlockListener listener, boolean swapped,
            boolean dotted) {
        this.m = m;
        this.n = n;
        this.left = left;
        this.right = right;
        this.out = out;
        this.listener = listener;
        this.swapped = swapped;
        this.dotted = dotted;
    }

    /**
     * @return the thin call, or null when the product is not thin or its streamed operand is not
     *     contiguous along either dimension; the arguments must have passed {@link Call#of}
     */
    static ThinCall of(int m, int n, int k, Operand left, Operand right, Operand out, BlockListener listener) {
        // A's rows are gathered into one array: a broadcast A longer than an array can hold stays general
        if (!ENABLED || k == 0 || (long) MAX_ROWS * k > Integer.MAX_VALUE - 8) {
            return null;
        }
        if (m <= MAX_ROWS) {
            View streamed = new View(right);
            if (streamed.unitRows || streamed.unitCols) {
                return new ThinCall(m, n, new View(left), streamed, new View(out), listener, false,
                        dotted(streamed, k, n));
            }
        }
        if (n <= MAX_ROWS) {
            View streamed = new View(left.transposed());
            if (streamed.unitRows || streamed.unitCols) {
                BlockListener back = listener == null ? null
                        : (b, rowFrom, rowTo, colFrom, colTo) -> listener.finished(b, colFrom, colTo, rowFrom, rowTo);
                return new ThinCall(n, m, new View(right.transposed()), streamed, new View(out.transposed()), back,
                        true, dotted(streamed, k, m));
            }
        }
        return null;
    }

    /**
     * A B contiguous both ways (one row, one column, or both tables trivially unit) is read along the
     * longer side, which gives the kernels the longer vectors.
     */
    private static boolean dotted(View streamed, int k, int n) {
        return streamed.unitRows && (!streamed.unitCols || k >= n);
    }
}
