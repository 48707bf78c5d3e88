package dev.ein4j.cpu.gemm;

/**
 * One multiply's arguments, checked, and oriented: C = A·B may run as Cᵀ = Bᵀ·Aᵀ (operands swapped
 * and transposed, m and n exchanged), which is chosen when it wastes fewer padded tile entries by a
 * wide margin (a thin C such as a matrix-vector product), or else when it makes C's columns adjacent
 * (or more often adjacent than its rows), so that tile rows are stored as runs; unless the other
 * orientation's count of work ({@link PackingCost}: tiles, packing by path, stores) is lower by more
 * than {@value #COUNT_MARGIN_PERCENT} %, as for a convolution's weight gradient, whose window packs
 * along its runs only as A.
 */
final class Call {

    /** How much lower, in percent, the other orientation's count must be to override the rules. */
    static final int COUNT_MARGIN_PERCENT = 10;

    final int m;
    final int n;
    final View left;
    final View right;
    final View out;
    final BlockListener listener;
    /** Whether A and B (and their arrays) are exchanged. */
    final boolean swapped;

    private Call(int m, int n, View left, View right, View out, BlockListener listener, boolean swapped) {
        this.m = m;
        this.n = n;
        this.left = left;
        this.right = right;
        this.out = out;
        this.listener = listener;
        this.swapped = swapped;
    }

    /**
     * @param blocking the blocks and tile the multiply will run with (the count needs kc and nc)
     * @param lanes lanes of one vector of the tile (1 for the plain-Java kernels)
     * @return the call to run, or null when C has no elements; the arguments must have passed
     *     {@link #check} ({@link Gemm} checks them once, before choosing among its paths)
     */
    static Call of(int batches, int m, int n, int k, Operand left, Operand right, Operand out,
            BlockListener listener, Blocking blocking, int lanes) {
        if (batches == 0 || m == 0 || n == 0) {
            return null;
        }
        int mr = blocking.mr();
        int nr = blocking.nr();
        View c = new View(out);
        long padded = padded(m, mr) * padded(n, nr);
        long paddedSwapped = padded(n, mr) * padded(m, nr);
        if (paddedSwapped * 2 < padded || padded * 2 < paddedSwapped) {
            return paddedSwapped < padded ? swapped(m, n, left, right, out, listener) : kept(m, n, left, right, c, listener);
        }
        // C's columns should be the adjacent side: a tile's rows are then stored as runs. With
        // neither side wholly adjacent (a convolution's [b, o, h, w] output: rows (b, h, w) in
        // runs of h·w, columns o h·w apart) the side with more adjacent steps wins; columns 4 KiB
        // apart alias in L1 and made the scattered stores 70 % of a convolution's time
        boolean swap = !c.unitCols && (c.unitRows || adjacentSteps(out.rows(), m) > adjacentSteps(out.cols(), n));
        Call kept = kept(m, n, left, right, c, listener);
        Call swapped = swapped(m, n, left, right, out, listener);
        Call ruled = swap ? swapped : kept;
        Call other = swap ? kept : swapped;
        double ruledCount = ruled.count(k, blocking, lanes);
        double otherCount = other.count(k, blocking, lanes);
        return otherCount * 100 < ruledCount * (100 - COUNT_MARGIN_PERCENT) ? other : ruled;
    }

    private static Call kept(int m, int n, Operand left, Operand right, View out, BlockListener listener) {
        return new Call(m, n, new View(left), new View(right), out, listener, false);
    }

    private static Call swapped(int m, int n, Operand left, Operand right, Operand out, BlockListener listener) {
        BlockListener back = listener == null ? null
                : (b, rowFrom, rowTo, colFrom, colTo) -> listener.finished(b, colFrom, colTo, rowFrom, rowTo);
        return new Call(n, m, new View(right.transposed()), new View(left.transposed()),
                new View(out.transposed()), back, true);
    }

    /** @return this orientation's count of work ({@link PackingCost}) */
    double count(int k, Blocking blocking, int lanes) {
        return PackingCost.of(m, n, k, left, right, out, blocking, lanes);
    }

    /** Checks a multiply's sizes against its tables. */
    static void check(int batches, int m, int n, int k, Operand left, Operand right, Operand out) {
        require(batches >= 0 && m >= 0 && n >= 0 && k >= 0, "negative size");
        require(left.batch().length >= batches && right.batch().length >= batches && out.batch().length >= batches,
                "a batch table is shorter than batches");
        require(left.rows().length >= m && left.cols().length >= k, "A's tables are shorter than m × k");
        require(right.rows().length >= k && right.cols().length >= n, "B's tables are shorter than k × n");
        require(out.rows().length >= m && out.cols().length >= n, "C's tables are shorter than m × n");
    }

    /** @return how many of the first {@code length} offsets are the previous one plus 1 */
    static int adjacentSteps(long[] offsets, int length) {
        int steps = 0;
        for (int i = 1; i < length; i++) {
            steps += offsets[i] == offsets[i - 1] + 1 ? 1 : 0;
        }
        return steps;
    }

    private static long padded(int size, int tile) {
        return (size + tile - 1L) / tile * tile;
    }

    private static void require(boolean condition, String message) {
        if (!condition) {
            throw new IllegalArgumentException(message);
        }
    }
}
