package dev.ein4j.cpu.gemm;

/**
 * Cache blocking of one multiply, in elements: B is packed kc × nc at a time (kept in L2 while every
 * A sliver of the panel passes over it), A mc × kc at a time, and each micro-kernel call sums kc steps
 * of an mr × nr tile. The defaults were measured on a Zen 5 (48 KiB L1d, 1 MiB L2 per core) and scale
 * with the element size; system properties {@code ein4j.cpu.gemm.kc|mc|nc} override them for tuning.
 *
 * @param mr rows of the micro-tile
 * @param nr columns of the micro-tile
 * @param mc rows of a packed A panel, a multiple of mr
 * @param nc columns of a packed B panel, a multiple of nr
 * @param kc depth of both panels
 */
record Blocking(int mr, int nr, int mc, int nc, int kc) {

    /** L2 budget for a packed B panel: half of a 1 MiB L2 leaves room for A slivers and C. */
    private static final int B_PANEL_BYTES = 512 * 1024;
    /** L2 budget for a packed A panel. */
    private static final int A_PANEL_BYTES = 256 * 1024;

    /**
     * @param mr the kernel's rows
     * @param nr the kernel's columns
     * @param elementBytes 4 or 8
     * @return the blocking for that kernel
     */
    static Blocking of(int mr, int nr, int elementBytes) {
        int kc = Integer.getInteger("ein4j.cpu.gemm.kc", 1024 / elementBytes);
        int nc = Integer.getInteger("ein4j.cpu.gemm.nc", B_PANEL_BYTES / (kc * elementBytes));
        int mc = Integer.getInteger("ein4j.cpu.gemm.mc", A_PANEL_BYTES / (kc * elementBytes));
        return new Blocking(mr, nr, roundUp(mc, mr), roundUp(nc, nr), Math.max(1, kc));
    }

    /** @return {@code value} rounded up to a positive multiple of {@code unit} */
    static int roundUp(int value, int unit) {
        return Math.max(unit, (value + unit - 1) / unit * unit);
    }
}
