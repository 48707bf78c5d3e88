package dev.ein4j.cpu.gemm;

/**
 * The blocked loops of one multiply, the same for both element types (GotoBLAS order): for each nc-wide
 * column panel, for each kc-deep slice of K, pack B once, then for each mc-tall row panel pack A and
 * run the macro-kernel over the tiles. A C block is final after its last K slice, so the listener hears
 * of it there, while the block is still in cache.
 *
 * @param <W> the per-thread workspace (packing buffers)
 */
abstract class Job<W> {

    final int k;
    final Blocking blocking;
    private final BlockListener listener;

    Job(int k, Blocking blocking, BlockListener listener) {
        this.k = k;
        this.blocking = blocking;
        this.listener = listener;
    }

    /**
     * @return the calling thread's workspace, large enough for this job's panels, or a fresh one when
     *     that is in use further up the stack (a listener that multiplies again)
     */
    abstract W acquire();

    /** Hands back a workspace from {@link #acquire()}. */
    abstract void release(W w);

    /** Packs B[b, pc .. pc+kc, jc .. jc+nc]. */
    abstract void packB(W w, int b, int pc, int kc, int jc, int nc);

    /** Packs A[b, ic .. ic+mc, pc .. pc+kc]. */
    abstract void packA(W w, int b, int ic, int mc, int pc, int kc);

    /** C[b, ic .. ic+mc, jc .. jc+nc] (+)= the packed panels' product. */
    abstract void macro(W w, int b, int ic, int mc, int jc, int nc, int kc, boolean add);

    /** Sets C[b, i0 .. i1, j0 .. j1] to zero (for k = 0). */
    abstract void zero(int b, int i0, int i1, int j0, int j1);

    /** Computes C[b, i0 .. i1, j0 .. j1], on the calling thread. */
    final void run(int b, int i0, int i1, int j0, int j1) {
        if (k == 0) {
            zero(b, i0, i1, j0, j1);
            finished(b, i0, i1, j0, j1);
            return;
        }
        W w = acquire();
        try {
            blocks(w, b, i0, i1, j0, j1);
        } finally {
            release(w);
        }
    }

    private void blocks(W w, int b, int i0, int i1, int j0, int j1) {
        Blocking s = blocking;
        for (int jc = j0; jc < j1; jc += s.nc()) {
            int nc = Math.min(s.nc(), j1 - jc);
            for (int pc = 0; pc < k; pc += s.kc()) {
                int kc = Math.min(s.kc(), k - pc);
                boolean last = pc + kc == k;
                packB(w, b, pc, kc, jc, nc);
                for (int ic = i0; ic < i1; ic += s.mc()) {
                    int mc = Math.min(s.mc(), i1 - ic);
                    packA(w, b, ic, mc, pc, kc);
                    macro(w, b, ic, mc, jc, nc, kc, pc > 0);
                    if (last) {
                        finished(b, ic, ic + mc, jc, jc + nc);
                    }
                }
            }
        }
    }

    private void finished(int b, int i0, int i1, int j0, int j1) {
        if (listener != null && i1 > i0 && j1 > j0) {
            listener.finished(b, i0, i1, j0, j1);
        }
    }
}
