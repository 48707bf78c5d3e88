package dev.ein4j.cpu.gemm;

/**
 * Cache blocking of one multiply, in elements: B is packed kc × nc at a time (kept in L2 while every
 * A sliver of the panel passes over it), A mc × kc at a time, and each micro-kernel call sums kc steps
 * of an mr × nr tile (the kernel's, from the Vector API's preferred species).
 *
 * <p>{@link #derive} sizes the blocks from the machine's caches ({@link CacheSizes}); with e the
 * element size in bytes:
 * <ul>
 * <li>the packed B panel takes half the L2, {@code kc·nc·e = L2/2}, the other half holding the A
 * sliver being streamed, the C tiles and what the other operand's packing brings in;</li>
 * <li>within that product, {@code kc ≈ nc ≈ √(L2/2 / e)}: each C tile is loaded and stored once per
 * kc steps, and A is packed again for every nc columns, so the two overheads, ∝ 1/kc and ∝ 1/nc, sum
 * least when the sides are equal. kc is the power of two at or below (packed A rows then start on
 * cache lines), capped so that the mr × kc A sliver fills at most half the L1d, since it is reread
 * from L1 for every B sliver of the panel; nc is the rest of the budget, a multiple of nr;</li>
 * <li>the packed A panel takes a quarter of the L2, {@code mc·kc·e = L2/4}, mc rounded up to a multiple
 * of mr (down, 256 rows would be a panel of 255 and one of a single row): the sliver just packed is
 * still in L2 when the kernel reads it.</li>
 * </ul>
 * On a Zen 5 (48 KiB L1d, 1 MiB L2) this gives float kc = 256, nc = 512, mc = 260, what was measured
 * best there by hand; {@link Tuner} then tries neighbours of the derived values on the machine.
 *
 * @param mr rows of the micro-tile
 * @param nr columns of the micro-tile
 * @param mc rows of a packed A panel, a multiple of mr
 * @param nc columns of a packed B panel, a multiple of nr
 * @param kc depth of both panels
 */
record Blocking(int mr, int nr, int mc, int nc, int kc) {

    /** The least kc derived: below it the C loads and stores of each tile dominate. */
    static final int MIN_KC = 16;
    /**
     * The largest block derived, scaled to or forced, in elements, whatever the caches claim: a packed
     * panel (two blocks' product, rounded to whole tiles) then stays near 2^28 elements, far below int
     * indices' limit.
     */
    static final int MAX_BLOCK = 1 << 14;

    /**
     * @param mr the kernel's rows
     * @param nr the kernel's columns
     * @param elementBytes 4 or 8
     * @param caches the machine's cache sizes
     * @return the blocking the formulas above give
     */
    static Blocking derive(int mr, int nr, int elementBytes, CacheSizes caches) {
        long panelElements = caches.level2() / 2 / elementBytes;
        long kc = Long.highestOneBit(Math.max(1, (long) Math.sqrt((double) panelElements)));
        long slivers = caches.level1Data() / 2 / ((long) mr * elementBytes);
        kc = Math.max(MIN_KC, Math.min(Math.min(kc, Long.highestOneBit(Math.max(1, slivers))), MAX_BLOCK));
        long nc = roundDown(Math.min(panelElements / kc, MAX_BLOCK), nr);
        long mc = roundUp((int) Math.min(caches.level2() / 4 / (kc * elementBytes), MAX_BLOCK), mr);
        return new Blocking(mr, nr, (int) mc, (int) nc, (int) kc);
    }

    /**
     * @param kcShift the power of two to scale kc by (−1 halves, 1 doubles)
     * @param ncShift the power of two to scale nc by
     * @param mcShift the power of two to scale mc by
     * @return this blocking with its blocks scaled, rounded again to whole tiles
     */
    Blocking scaled(int kcShift, int ncShift, int mcShift) {
        return new Blocking(mr, nr, roundUp(shift(mc, mcShift), mr), roundUp(shift(nc, ncShift), nr),
                Math.max(1, shift(kc, kcShift)));
    }

    /**
     * @param kcForced the kc to use, or 0 to keep this one's
     * @param ncForced the nc to use, or 0 to keep this one's
     * @param mcForced the mc to use, or 0 to keep this one's
     * @return this blocking with the forced blocks replaced (mc and nc rounded up to whole tiles)
     */
    Blocking forced(int kcForced, int ncForced, int mcForced) {
        return new Blocking(mr, nr, mcForced > 0 ? roundUp(mcForced, mr) : mc,
                ncForced > 0 ? roundUp(ncForced, nr) : nc, kcForced > 0 ? kcForced : kc);
    }

    private static int shift(int value, int by) {
        long scaled = by >= 0 ? (long) value << by : value >> -by;
        return (int) Math.max(1, Math.min(scaled, MAX_BLOCK));
    }

    private static long roundDown(long value, int unit) {
        return Math.max(unit, value / unit * unit);
    }

    /** @return {@code value} rounded up to a positive multiple of {@code unit} */
    static int roundUp(int value, int unit) {
        return Math.max(unit, (value + unit - 1) / unit * unit);
    }
}
