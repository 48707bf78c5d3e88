package dev.ein4j.cpu.gemm;

/**
 * One float multiply: the operands, the kernel and the per-thread buffers the blocked loops of
 * {@link Job} fill and stream. The twin of {@link DoubleJob}, for float (kept identical but for the type).
 */
final class FloatJob extends Job<FloatJob.Workspace> {

    /** Packing buffers, one set per thread, grown as needed and kept: fresh large arrays page-fault. */
    static final class Workspace {
        float[] a = new float[0];
        float[] b = new float[0];
        float[] tile = new float[0];
        int[] tileRows = new int[0];
        int[] rows = new int[0];
        /** The start in C of each row of one tile stored in place through a run of C's columns. */
        int[] tileStarts = new int[0];
        /** Whether a multiply on this thread is using the buffers (a listener may multiply again). */
        boolean busy;
    }

    private static final ThreadLocal<Workspace> WORKSPACES = ThreadLocal.withInitial(Workspace::new);

    private final float[] a;
    private final float[] bm;
    private final float[] c;
    private final View left;
    private final View right;
    private final View out;
    private final FloatKernel kernel;

    FloatJob(int k, float[] a, View left, float[] bm, View right, float[] c, View out, FloatKernel kernel,
            BlockListener listener) {
        this(k, a, left, bm, right, c, out, kernel, listener,
                GemmSettings.get().blocking(kernel.mr(), kernel.nr(), Float.BYTES));
    }

    /** A job with the given blocks rather than the machine's (the autotune's trials). */
    FloatJob(int k, float[] a, View left, float[] bm, View right, float[] c, View out, FloatKernel kernel,
            BlockListener listener, Blocking blocking) {
        super(k, blocking, listener);
        this.a = a;
        this.bm = bm;
        this.c = c;
        this.left = left;
        this.right = right;
        this.out = out;
        this.kernel = kernel;
    }

    @Override
    Workspace acquire() {
        Workspace w = WORKSPACES.get();
        if (w.busy) {
            w = new Workspace();
        }
        w.busy = true;
        Blocking s = blocking;
        int kc = Math.min(s.kc(), k);
        if (w.a.length < s.mc() * kc) {
            w.a = new float[s.mc() * kc];
        }
        if (w.b.length < s.nc() * kc) {
            w.b = new float[s.nc() * kc];
        }
        if (w.tile.length < s.mr() * s.nr() || w.tileRows.length < s.mr()
                || (s.mr() > 1 && w.tileRows[1] != s.nr())) {
            // sized and laid out for this job's tile (a thread may run kernels of different tiles)
            w.tile = new float[s.mr() * s.nr()];
            w.tileRows = new int[s.mr()];
            for (int r = 0; r < s.mr(); r++) {
                w.tileRows[r] = r * s.nr();
            }
        }
        if (w.rows.length < s.mc()) {
            w.rows = new int[s.mc()];
        }
        if (w.tileStarts.length < s.mr()) {
            w.tileStarts = new int[s.mr()];
        }
        return w;
    }

    @Override
    void release(Workspace w) {
        w.busy = false;
    }

    @Override
    void packB(Workspace w, int b, int pc, int kc, int jc, int nc) {
        FloatPacking.packB(bm, right, b, pc, kc, jc, nc, blocking.nr(), w.b);
    }

    @Override
    void packA(Workspace w, int b, int ic, int mc, int pc, int kc) {
        FloatPacking.packA(a, left, b, ic, mc, pc, kc, blocking.mr(), w.a);
    }

    @Override
    void macro(Workspace w, int b, int ic, int mc, int jc, int nc, int kc, boolean add) {
        int mr = blocking.mr();
        int nr = blocking.nr();
        boolean direct = out.unitCols;
        if (direct) {
            // index of each row's column 0; a tile at column j then starts at rows[i] + j
            long col0 = out.cols[0];
            for (int i = 0; i < mc; i++) {
                w.rows[i] = (int) (out.rowOffset(b, ic + i) + col0);
            }
        }
        float[] ap = w.a;
        float[] bp = w.b;
        // each A sliver stays in L1 while it sweeps the whole B panel, which stays in L2
        for (int ir = 0; ir < mc; ir += mr) {
            int rows = Math.min(mr, mc - ir);
            for (int jr = 0; jr < nc; jr += nr) {
                int cols = Math.min(nr, nc - jr);
                if (direct && rows == mr && cols == nr) {
                    kernel.tile(kc, ap, ir * kc, bp, jr * kc, c, w.rows, ir, jc + jr, add);
                } else if (rows == mr && cols == nr && out.colRuns != null && out.colRuns[jc + jr] >= nr) {
                    // C's columns are adjacent over this tile (a convolution's h·w run): stored in place
                    long col = out.cols[jc + jr];
                    for (int r = 0; r < mr; r++) {
                        w.tileStarts[r] = (int) (out.rowOffset(b, ic + ir + r) + col);
                    }
                    kernel.tile(kc, ap, ir * kc, bp, jr * kc, c, w.tileStarts, 0, 0, add);
                } else {
                    kernel.tile(kc, ap, ir * kc, bp, jr * kc, w.tile, w.tileRows, 0, 0, false);
                    scatter(w.tile, nr, b, ic + ir, rows, jc + jr, cols, add);
                }
            }
        }
    }

    /** Writes the valid part of a tile computed into a buffer (edges, or C columns not adjacent). */
    private void scatter(float[] tile, int nr, int b, int i0, int rows, int j0, int cols, boolean add) {
        long[] outCols = out.cols;
        for (int i = 0; i < rows; i++) {
            long row = out.rowOffset(b, i0 + i);
            for (int j = 0, t = i * nr; j < cols; j++, t++) {
                int at = (int) (row + outCols[j0 + j]);
                c[at] = add ? c[at] + tile[t] : tile[t];
            }
        }
    }

    @Override
    void zero(int b, int i0, int i1, int j0, int j1) {
        for (int i = i0; i < i1; i++) {
            long row = out.rowOffset(b, i);
            for (int j = j0; j < j1; j++) {
                c[(int) (row + out.cols[j])] = 0f;
            }
        }
    }
}
