package dev.ein4j.cpu;

import dev.ein4j.kernel.ContractSpec;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The offset tables of contraction operands ({@link ContractSpec#offsets}), kept between launches:
 * a replayed training step runs the same contractions with the same layouts every step, and a
 * convolution's weight gradient has tables as long as the batch's pixels (the flagship's first layer:
 * two of 100,352 offsets, 1.6 MB written per call, about a tenth of the call). Tables are shared and
 * never written after they are made. The least recently used go once the cached offsets pass
 * {@link #CAPACITY}; a table larger than that is made for its call and not kept.
 */
final class OffsetTables {

    /** The most offsets kept (8 bytes each: 16 MiB). */
    static final long CAPACITY = 2L << 20;

    private record Key(int[] lengths, long[] strides, int hash) {

        static Key of(int[] lengths, long[] strides) {
            return new Key(lengths, strides, 31 * Arrays.hashCode(lengths) + Arrays.hashCode(strides));
        }

        @Override
        public boolean equals(Object other) {
            return other instanceof Key key && hash == key.hash && Arrays.equals(lengths, key.lengths)
                    && Arrays.equals(strides, key.strides);
        }

        @Override
        public int hashCode() {
            return hash;
        }
    }

    private final Map<Key, long[]> tables = new LinkedHashMap<>(64, 0.75f, true);
    private long kept;

    /**
     * @param lengths merged lengths
     * @param strides their strides
     * @return {@link ContractSpec#offsets(int[], long[])} of them, shared: callers must not write it
     */
    long[] offsets(int[] lengths, long[] strides) {
        Key key = Key.of(lengths.clone(), strides.clone());
        synchronized (tables) {
            long[] table = tables.get(key);
            if (table != null) {
                return table;
            }
        }
        long[] table = ContractSpec.offsets(lengths, strides);
        if (table.length > CAPACITY) {
            return table;
        }
        synchronized (tables) {
            if (tables.putIfAbsent(key, table) == null) {
                kept += table.length;
                var eldest = tables.entrySet().iterator();
                while (kept > CAPACITY && eldest.hasNext()) {
                    kept -= eldest.next().getValue().length;
                    eldest.remove();
                }
            }
            return tables.getOrDefault(key, table);
        }
    }

    /** @return the offsets kept now (for tests) */
    long kept() {
        synchronized (tables) {
            return kept;
        }
    }
}
