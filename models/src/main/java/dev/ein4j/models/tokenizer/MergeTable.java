package dev.ein4j.models.tokenizer;

import java.util.Arrays;

/**
 * The merges of a BPE model: for a pair of adjacent token ids, the rank of their merge (lower
 * merges first) and the id of the merged token. An open-addressing hash table on the pair packed in
 * a long, so that 280,000 merges (Llama 3) cost two arrays and no boxing.
 */
final class MergeTable {

    private static final long EMPTY = -1L;

    private final long[] keys;
    private final int[] ranks;
    private final int[] mergedIds;
    private final int mask;
    private final int shift;
    private int size;

    /** @param expected how many merges will be put */
    MergeTable(int expected) {
        int capacity = Integer.highestOneBit(Math.max(4, expected * 2 - 1)) << 1;
        keys = new long[capacity];
        Arrays.fill(keys, EMPTY);
        ranks = new int[capacity];
        mergedIds = new int[capacity];
        mask = capacity - 1;
        shift = 64 - Integer.numberOfTrailingZeros(capacity);
    }

    /**
     * Records a merge; a pair put again takes the new rank and id (a repeated merge line counts at
     * its last position, as in Hugging Face).
     */
    void put(int left, int right, int rank, int mergedId) {
        long key = key(left, right);
        int slot = slot(key);
        if (keys[slot] == EMPTY) {
            keys[slot] = key;
            size++;
        }
        ranks[slot] = rank;
        mergedIds[slot] = mergedId;
    }

    /**
     * @return the slot of the pair's merge, or -1 if the pair does not merge
     */
    int find(int left, int right) {
        int slot = slot(key(left, right));
        return keys[slot] == EMPTY ? -1 : slot;
    }

    int rank(int slot) {
        return ranks[slot];
    }

    int mergedId(int slot) {
        return mergedIds[slot];
    }

    int size() {
        return size;
    }

    private int slot(long key) {
        int slot = (int) ((key * 0x9E3779B97F4A7C15L) >>> shift);
        while (keys[slot] != EMPTY && keys[slot] != key) {
            slot = (slot + 1) & mask;
        }
        return slot;
    }

    private static long key(int left, int right) {
        return ((long) left << 32) | (right & 0xFFFFFFFFL);
    }
}
