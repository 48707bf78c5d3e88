package dev.ein4j.cpu.gemm;

import java.util.Collections;
import java.util.Map;
import java.util.WeakHashMap;

/**
 * The unit runs of an offset table, for packing: {@code length[i]} is the largest L with
 * {@code table[i + t] == table[i] + t} for every t < L (at least 1), so the L elements from entry i on
 * are adjacent in the array and can be copied at once. A window view's tables are made of such runs:
 * a convolution's output positions (b, h, w) with stride 1 run along w, its taps (c, kh, kw) along kw,
 * and channels-last taps (kh, kw, c) along kw·C + c.
 *
 * <p>The cost model: packing entry by entry costs one offset read and one copy per element; by runs,
 * a fixed cost per run (its offset and length, and the copy's setup: a call or a vector loop's head and
 * tail) and a cheaper copy per element. Measured on the panels of convolution windows (AMD EPYC, JDK 25,
 * float32), the fixed cost is that of about eight single elements: runs of 3 packed 2-3× slower than
 * per element, runs of 7 about 20 % slower, runs of 14 30 % faster, runs of 32 2-3× faster. So runs are
 * taken where they average more than {@link #WORTHWHILE_MEAN}; a stride-2 window, a flipped one or the
 * kw taps of a 3 × 3 kernel (runs of 3) keep the per-element path.
 */
final class Runs {

    /** The mean run length above which copying by runs beats copying element by element. */
    static final double WORTHWHILE_MEAN = 8;

    /** The run length from each entry on. */
    final int[] length;
    /** The table's length over its number of runs. */
    final double mean;

    private Runs(int[] length, double mean) {
        this.length = length;
        this.mean = mean;
    }

    /** @return the table's runs, or null where their mean is at most {@link #WORTHWHILE_MEAN} or it is empty */
    static Runs of(long[] table) {
        Runs runs = measure(table);
        return runs.mean > WORTHWHILE_MEAN ? runs : null;
    }

    /**
     * Long tables measured before, by identity: the backend keeps a replayed contraction's tables
     * (a weight gradient's K tables hold 100,352 offsets, measured on every call otherwise), and a
     * table is never written once made. Weak keys: a table nobody keeps takes its runs with it.
     */
    private static final Map<long[], Runs> MEASURED = Collections.synchronizedMap(new WeakHashMap<>());
    /** Tables shorter than this are measured again: the lookup would cost about as much. */
    static final int MEMO_LENGTH = 4096;

    /** @return the table's runs, however short (a mean of 0 for an empty table) */
    static Runs measure(long[] table) {
        if (table.length < MEMO_LENGTH) {
            return count(table);
        }
        Runs known = MEASURED.get(table);
        if (known == null) {
            known = count(table);
            MEASURED.put(table, known);
        }
        return known;
    }

    private static Runs count(long[] table) {
        int n = table.length;
        int[] length = new int[n];
        int count = 0;
        for (int i = n - 1; i >= 0; i--) {
            boolean continues = i + 1 < n && table[i + 1] == table[i] + 1;
            length[i] = continues ? length[i + 1] + 1 : 1;
            count += continues ? 0 : 1;
        }
        return new Runs(length, count == 0 ? 0 : (double) n / count);
    }
}
